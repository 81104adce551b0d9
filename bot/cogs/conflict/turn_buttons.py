"""The buttons of a turn: declare (attack whom, act, full defence, no roll) and act (a pool
size, not act, a new action), pinged to the one who must move (docs/rulings.md §4.21).

Like the defence buttons they are ``DynamicItem``s whose custom ids name the Conflict and the
turn (round, character), so they work after a restart and a click after the turn passed is
refused privately (``bot.cogs.conflict.turn_build.turn_mover``). A click builds its engine command
in ``turn_build`` and runs it through the same flow as ``/declare``, ``/act``, ``/pass`` and
``/switch``.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.clicks import first_picked, picked_as
from bot.client import Interaction
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.metal_offers import METAL_VERBS, MetalVerb
from bot.cogs.conflict.move import Sheets
from bot.cogs.conflict.turn_build import (
    ActClick,
    DeclareClick,
    DeclareForm,
    MetalClick,
    SwitchClick,
    TurnChoice,
    picked_push,
    turn_mover,
)
from bot.cogs.conflict.turns import turn_of
from bot.errors import BotError
from bot.inputs.circumstances import scene_circumstances
from bot.render.buttons import (
    ACT,
    DECLARE,
    DECLARE_SELECT,
    DEFEAT_BURDEN,
    METAL,
    NEW_ACTION,
    NEW_ACTION_SELECT,
    PUSH_PICK,
    act_button,
    declare_button,
    declare_select,
    defeat_burden_select,
    metal_button,
    new_action_button,
    new_action_select,
)
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board
from rules.burdens import Severity
from rules.conflict import Conflict
from rules.powers.pushes import PUSH_VERBS, burning_pusher


class DeclareSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DECLARE_SELECT):
    """Declare an attack on the target chosen, or a Steel or Iron burner's coin pushed (or
    pulled) at them (docs/rulings.md §9.3)."""

    def __init__(
        self, conflict: int, round_number: int, who: int, targets: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(declare_select(conflict, round_number, who, targets))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeclareSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        chosen = first_picked(interaction, "0")
        pushing = PUSH_PICK.fullmatch(chosen)
        circumstances = (await scene_circumstances(interaction)).net
        move: DeclareClick | DeclareForm = DeclareClick(
            self.round, self.who, "attack", int(chosen) if chosen.isdecimal() else 0, circumstances
        )
        if pushing is not None:
            move = picked_push(self.round, self.who, pushing, circumstances)
        await run(interaction, move, title="Declared", conflict_id=self.conflict)


class DeclareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=DECLARE,
):
    def __init__(self, conflict: int, round_number: int, who: int, choice: TurnChoice) -> None:
        super().__init__(declare_button(conflict, round_number, who, choice))
        self.conflict, self.round, self.who = conflict, round_number, who
        self.choice: TurnChoice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeclareButton":
        choice: TurnChoice = (
            "action"
            if match["choice"] == "action"
            else "defence"
            if match["choice"] == "defence"
            else "noroll"
        )
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]), choice)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        circumstances = (await scene_circumstances(interaction)).net
        move = DeclareClick(self.round, self.who, self.choice, circumstances=circumstances)
        await run(interaction, move, title="Declared", conflict_id=self.conflict)


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACT):
    """Act with a pool of N Action Dice, or (0) not act; with the defeat Burden chosen, if any."""

    def __init__(
        self, conflict: int, round_number: int, who: int, dice: int, burden: Severity | None = None
    ) -> None:
        super().__init__(act_button(conflict, round_number, who, dice, burden.value if burden else ""))
        self.conflict, self.round, self.who, self.dice = conflict, round_number, who, dice
        self.burden = burden

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ActButton":
        burden = Severity(match["burden"]) if match["burden"] else None
        turn = int(match["conflict"]), int(match["round"]), int(match["who"])
        return cls(*turn, int(match["dice"]), burden)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        title = "Holds back" if self.dice == 0 else "Action"
        move = ActClick(self.round, self.who, self.dice, self.burden)
        await run(interaction, move, title=title, conflict_id=self.conflict)


class DefeatBurdenSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DEFEAT_BURDEN):
    """The Burden an attack leaves if it defeats its target (``/act defeat_burden:``): the answer,
    privately, is the act buttons carrying it."""

    def __init__(self, conflict: int, round_number: int, who: int) -> None:
        super().__init__(defeat_burden_select(conflict, round_number, who))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DefeatBurdenSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        burden = picked_as(interaction, Severity, Severity.GRAVE.value)
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state, sheets = found[1].conflict, found[1].sheets
        mover = turn_mover(state, sheets, await caller(interaction), "act", self.round, self.who)
        turn = turn_of(state, sheets, found[1].visibility())
        sizes = turn.act_with if turn is not None and turn.participant == mover.id else ()
        view = discord.ui.View(timeout=None)
        for dice in sizes:
            view.add_item(ActButton(self.conflict, self.round, self.who, dice, burden))
        await replies.send(
            interaction,
            f"If **{plain(mover.name)}**'s attack defeats its target, it leaves a {burden.label} Burden:"
            " act with how many dice?",
            view=view,
            ephemeral=True,
        )


class NewActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NEW_ACTION):
    """Offer, privately, whom a new action attacks (a switch, docs/rulings.md §4.8)."""

    def __init__(self, conflict: int, round_number: int, who: int) -> None:
        super().__init__(new_action_button(conflict, round_number, who))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NewActionButton":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        state, sheets = await self._check(interaction)
        mover = state.participant(self.who)
        targets = tuple(
            (p.id, p.name) for p in state.participants if not p.defeated and p.side is not mover.side
        )
        sheet = sheets.get(mover.id)
        pushes_with = (burning_pusher(sheet) or "") if sheet is not None else ""
        view = discord.ui.View(timeout=None)
        view.add_item(NewActionSelect(self.conflict, self.round, self.who, targets, pushes_with))
        # A Beat's new action costs no dice (docs/rulings.md §4.15); a switch halves them (§4.8).
        cost = "keeps the dice left" if mover.round.extra_action else "halves its dice"
        aim = f"attack or {PUSH_VERBS[pushes_with]} a coin at whom?" if pushes_with else "attack whom?"
        await replies.send(
            interaction,
            f"A new action for **{plain(mover.name)}** {cost} (`/switch` for a Power or Traits): {aim}",
            view=view,
            ephemeral=True,
        )

    async def _check(self, interaction: Interaction) -> tuple[Conflict, Sheets]:
        """The turn is still on and the caller controls the character (read, nothing written)."""
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state = found[1].conflict
        turn_mover(state, found[1].sheets, await caller(interaction), "act", self.round, self.who)
        return state, found[1].sheets


class NewActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=NEW_ACTION_SELECT):
    """The new action's target: an attack, or a Steel or Iron burner's coin pushed (or pulled)
    at them (a switch, docs/rulings.md §4.8, §9.3)."""

    def __init__(
        self,
        conflict: int,
        round_number: int,
        who: int,
        targets: tuple[tuple[int, str], ...] = (),
        pushes_with: str = "",
    ) -> None:
        super().__init__(new_action_select(conflict, round_number, who, targets, pushes_with))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NewActionSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        chosen = first_picked(interaction, "0")
        pushing = PUSH_PICK.fullmatch(chosen)
        circumstances = (await scene_circumstances(interaction)).net
        move: SwitchClick | DeclareForm = SwitchClick(
            self.round, self.who, int(chosen) if chosen.isdecimal() else 0, circumstances
        )
        if pushing is not None:
            move = picked_push(self.round, self.who, pushing, circumstances, "switch")
        await run(interaction, move, title="New action", conflict_id=self.conflict)


class MetalButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=METAL):
    """Burn, flare, drink, stop flaring or stop burning, offered on an Allomancer's turn
    (docs/rulings.md §9.2)."""

    def __init__(self, conflict: int, round_number: int, who: int, verb: MetalVerb, what: str) -> None:
        super().__init__(metal_button(conflict, round_number, who, verb, what, verb.capitalize()))
        self.conflict, self.move = conflict, MetalClick(who, verb, what)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "MetalButton":
        verb = METAL_VERBS[match["verb"]]
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]), verb, match["what"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await run(interaction, self.move, title="Metals", conflict_id=self.conflict)


TURN_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    DeclareSelect,
    DeclareButton,
    ActButton,
    DefeatBurdenSelect,
    NewActionButton,
    NewActionSelect,
    MetalButton,
)
