"""The buttons of a prompt and of the board: defend with N dice, or spend Nudges; delivering the
reply they make is ``bot.cogs.conflict.delivery``.

The buttons are ``DynamicItem``s: everything a click needs (which Conflict, which attack, how
many dice) is in the custom id, so they keep working after a restart without any view kept in
memory. A click goes through the very path of the typed command (``bot.cogs.conflict.answer_build``
builds the same engine command, :meth:`ConflictFlow.run` applies it), and a click on a prompt
that is already settled (a stale button, or the second of two simultaneous clicks) is refused
with a clear private message.

"Narrator view", under the board and under a prompt to a secret Villain or Extra, answers a
Narrator privately with the full board (every number of everyone) and refuses anyone else
plainly (docs/rulings.md §7.1).
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.clicks import first_picked, picked
from bot.client import Interaction
from bot.cogs.conflict.answer_build import DefenceOptions, NudgeClick, pending_target
from bot.cogs.conflict.answers import NudgeMode
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.mover_build import BeginRound
from bot.cogs.conflict.narrator_moves import NextRoundMove
from bot.cogs.conflict.turns import tie_note
from bot.errors import BotError, NotAllowed
from bot.render.buttons import (
    BEGIN,
    DEFEND,
    DEFLECT,
    NARRATOR_VIEW,
    NEXT_ROUND,
    NUDGES,
    REACT_TRAITS,
    begin_button,
    defend_button,
    deflect_select,
    narrator_view_button,
    next_round_button,
    nudge_button,
    react_traits_select,
    remove_select,
)
from bot.render.common import plain
from bot.render.conflict_card import CardButtons
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import board_portraits, stored_board
from rules.conflict import available_defence
from rules.conflict.deflecting import deflect_offer

MAX_DEFENCE = 10


class DefendButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=DEFEND,
):
    """Defend with N dice; ``traits``: with that many reaction Traits helping (§4.11)."""

    def __init__(self, conflict: int, attack: int, dice: int, traits: int = 0) -> None:
        super().__init__(defend_button(conflict, attack, dice, traits))
        self.conflict = conflict
        self.attack = attack
        self.dice = dice
        self.traits = traits

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DefendButton":
        traits = int(match["traits"]) if match["traits"] else 0
        return cls(int(match["conflict"]), int(match["attack"]), int(match["dice"]), traits)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        options = DefenceOptions(
            dice=self.dice,
            attack_id=self.attack,
            traits=self.traits,
            waited=prompt_age(interaction, self.attack),
            grace=interaction.client.conflicts.grace.seconds,
        )
        await run(interaction, options, title="Defence", conflict_id=self.conflict)


def prompt_age(interaction: Interaction, attack: int) -> dict[int, float]:
    """Seconds since the clicked defence prompt was posted, by attack id: a button knows its own
    message's age, so the player's moment before a Narrator may answer for them (docs/rulings.md
    §4.20) needs nothing remembered (a typed ``/defend`` asks ``bot.workers.grace``)."""
    if interaction.message is None:
        return {}
    return {attack: (discord.utils.utcnow() - interaction.message.created_at).total_seconds()}


class DeflectSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DEFLECT):
    """Deflecting a metal attack from the defence prompt's menu (docs/rulings.md §9.3): the very
    move of ``/defend deflect:true``, with N dice; ``traits``: with that many reaction Traits
    helping (§4.11)."""

    def __init__(
        self,
        conflict: int,
        attack: int,
        traits: int = 0,
        dice: tuple[int, ...] = (),
        metal: str = "the metal",
    ) -> None:
        super().__init__(deflect_select(conflict, attack, dice, metal, traits))
        self.conflict = conflict
        self.attack = attack
        self.traits = traits

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeflectSelect":
        traits = int(match["traits"]) if match["traits"] else 0
        return cls(int(match["conflict"]), int(match["attack"]), traits)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        chosen = first_picked(interaction, "")
        options = DefenceOptions(
            dice=int(chosen) if chosen.isdecimal() else 0,
            attack_id=self.attack,
            traits=self.traits,
            deflect=True,
            waited=prompt_age(interaction, self.attack),
            grace=interaction.client.conflicts.grace.seconds,
        )
        await run(interaction, options, title="Defence", conflict_id=self.conflict)


class ReactTraitsSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=REACT_TRAITS,
):
    """A busy defender picks the Traits that help them react (docs/rulings.md §4.11); the answer,
    privately, is the defence buttons figured with them."""

    def __init__(self, conflict: int, attack: int, traits: tuple[str, ...] = ()) -> None:
        super().__init__(react_traits_select(conflict, attack, traits))
        self.conflict = conflict
        self.attack = attack

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ReactTraitsSelect":
        return cls(int(match["conflict"]), int(match["attack"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        count = len(picked(interaction))
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state, sheets = found[1].conflict, found[1].sheets
        target = state.participant(pending_target(state, self.attack))
        if not (await caller(interaction)).controls_participant(target, sheets.get(target.id)):
            raise NotAllowed(f"Only {plain(target.name)}'s player or a Narrator can answer this attack.")
        held = min(MAX_DEFENCE, available_defence(state, sheets, target.id, count))
        view = discord.ui.View(timeout=None)
        for dice in (0, *range(2, held + 1)):
            view.add_item(DefendButton(self.conflict, self.attack, dice, count))
        if (offer := deflect_offer(state, sheets, count)) is not None:  # docs/rulings.md §9.3
            dice = tuple(range(2, offer[1] + 1))
            view.add_item(DeflectSelect(self.conflict, self.attack, count, dice, offer[0].metal))
        traits = "1 Trait" if count == 1 else f"{count} Traits"
        await replies.send(
            interaction,
            f"Reacting with {traits}, **{plain(target.name)}** holds {held} Defense Dice: "
            "defend with how many?",
            view=view,
            ephemeral=True,
        )


class NudgeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=NUDGES,
):
    def __init__(self, conflict: int, attack: int, mode: NudgeMode) -> None:
        super().__init__(nudge_button(conflict, attack, mode))
        self.conflict = conflict
        self.attack = attack
        self.mode: NudgeMode = mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NudgeButton":
        mode: NudgeMode = (
            "damage" if match["mode"] == "damage" else "beat" if match["mode"] == "beat" else "none"
        )
        return cls(int(match["conflict"]), int(match["attack"]), mode)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await run(interaction, NudgeClick(self.attack, self.mode), title="Nudges", conflict_id=self.conflict)


class NarratorViewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NARRATOR_VIEW):
    """The full board, privately, for a Narrator; the public board hides the secret sheets."""

    def __init__(self, conflict: int) -> None:
        super().__init__(narrator_view_button(conflict))
        self.conflict = conflict

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NarratorViewButton":
        return cls(int(match["conflict"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        (await caller(interaction)).require_narrator("see the Narrator's view of the Conflict")
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        board = await stored_board(interaction.client.storage, guild_id, channel_id)
        if board is None or board[0].id != self.conflict:
            raise BotError("That Conflict has ended.")
        shown = board[1].conflict
        # Ties join order settled are the Narrator's to hear (docs/rulings.md §4.2).
        ties = tie_note(shown, {p.id for p in shown.participants}) if shown is not None else ""
        public = interaction.client.settings.web_public_url
        portraits = await board_portraits(interaction.client.storage, public, guild_id)
        fighters = tuple((p.id, p.name) for p in shown.participants) if shown is not None else ()
        buttons = CardButtons(bottom=[remove_select(self.conflict, fighters)] if fighters else ())
        card = board[1].card(buttons, full=True, note=ties, portraits=portraits)
        await replies.send(interaction, view=card, ephemeral=True)


class BeginButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BEGIN):
    """The Narrator opens round 1 once the cast is in: the same move as ``/conflict begin``."""

    def __init__(self, conflict: int) -> None:
        super().__init__(begin_button(conflict))
        self.conflict = conflict

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "BeginButton":
        return cls(int(match["conflict"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await run(interaction, BeginRound(), title="Round 1", conflict_id=self.conflict)


class NextRoundButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEXT_ROUND):
    """The Narrator ends a finished round from the board: the same move as ``/conflict next-round``."""

    def __init__(self, conflict: int) -> None:
        super().__init__(next_round_button(conflict))
        self.conflict = conflict

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NextRoundButton":
        return cls(int(match["conflict"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await run(interaction, NextRoundMove(), title="Next round", conflict_id=self.conflict)


BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    DefendButton,
    DeflectSelect,
    ReactTraitsSelect,
    NudgeButton,
    NarratorViewButton,
    BeginButton,
    NextRoundButton,
)
"""Registered with the client while the moves' cog is loaded."""
