"""The buttons of a turn: declare (attack whom, act, full defence, no roll) and act (a pool
size, not act, a new action), pinged to the one who must move (docs/rulings.md §4.21).

Like the defence buttons they are ``DynamicItem``s whose custom ids name the Conflict and the
turn (round, character), so they work after a restart and a click after the turn passed is
refused privately (``bot.cogs.conflict.build.turn_mover``). A click builds its engine command
in ``build`` and runs it through the same flow as ``/declare``, ``/act``, ``/pass`` and
``/switch``.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.access import channel_id_of, guild_id_of
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.conflict.build import TurnChoice, act_click, declare_click, switch_click, turn_mover
from bot.cogs.conflict.delivery import run_click
from bot.errors import BotError, answer_error
from bot.moves.turns import MIN_POOL, Turn
from bot.render.common import plain
from bot.workers.board import stored_board
from rules.conflict import Conflict

TURN = r"(?P<conflict>\d+):(?P<round>\d+):(?P<who>\d+)"
CHOICE_LABELS: dict[str, str] = {
    "action": "Act without attacking",
    "defence": "Full defence",
    "noroll": "No roll",
}
OPTION_MAX = 25


def target_options(targets: tuple[tuple[int, str], ...]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=name[:100], value=str(pid)) for pid, name in targets[:OPTION_MAX]]


def target_select(
    prefix: str, placeholder: str, turn: tuple[int, int, int], targets: tuple[tuple[int, str], ...]
) -> discord.ui.Select[Any]:
    """A menu of targets whose custom id names the turn (Conflict, round, mover)."""
    conflict, round_number, who = turn
    return discord.ui.Select(
        custom_id=f"{prefix}:{conflict}:{round_number}:{who}",
        placeholder=placeholder,
        options=target_options(targets) or [discord.SelectOption(label="nobody", value="0")],
    )


class DeclareSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"mab:dsel:{TURN}"):
    """Declare an attack on the target chosen."""

    def __init__(
        self, conflict: int, round_number: int, who: int, targets: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(target_select("mab:dsel", "Attack…", (conflict, round_number, who), targets))
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeclareSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        target = int(self.item.values[0]) if self.item.values else 0
        build = declare_click(self.round, self.who, "attack", target)
        await run_click(interaction, build, title="Declared", conflict_id=self.conflict)


class DeclareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"mab:decl:{TURN}:(?P<choice>action|defence|noroll)",
):
    def __init__(self, conflict: int, round_number: int, who: int, choice: TurnChoice) -> None:
        super().__init__(
            discord.ui.Button(
                label=CHOICE_LABELS[choice],
                style=discord.ButtonStyle.secondary,
                custom_id=f"mab:decl:{conflict}:{round_number}:{who}:{choice}",
            )
        )
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
        build = declare_click(self.round, self.who, self.choice)
        await run_click(interaction, build, title="Declared", conflict_id=self.conflict)


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mab:act:{TURN}:(?P<dice>\d+)"):
    """Act with a pool of N Action Dice, or (0) not act."""

    def __init__(self, conflict: int, round_number: int, who: int, dice: int) -> None:
        label = "Not act" if dice == 0 else f"Act with {dice}"
        style = discord.ButtonStyle.secondary if dice == 0 else discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"mab:act:{conflict}:{round_number}:{who}:{dice}"
            )
        )
        self.conflict, self.round, self.who, self.dice = conflict, round_number, who, dice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ActButton":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]), int(match["dice"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        title = "Holds back" if self.dice == 0 else "Action"
        await run_click(
            interaction, act_click(self.round, self.who, self.dice), title=title, conflict_id=self.conflict
        )


class NewActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mab:new:{TURN}"):
    """Offer, privately, whom a new action attacks (a switch, docs/rulings.md §4.8)."""

    def __init__(self, conflict: int, round_number: int, who: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="New action…",
                style=discord.ButtonStyle.secondary,
                custom_id=f"mab:new:{conflict}:{round_number}:{who}",
            )
        )
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NewActionButton":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        try:
            state = await self._check(interaction)
            mover = state.participant(self.who)
            targets = tuple(
                (p.id, p.name) for p in state.participants if not p.defeated and p.side is not mover.side
            )
            view = discord.ui.View(timeout=None)
            view.add_item(NewActionSelect(self.conflict, self.round, self.who, targets))
            await replies.send(
                interaction,
                f"A new action for **{plain(mover.name)}** halves its dice (`/switch` for a Power or Traits):"
                " attack whom?",
                view=view,
                ephemeral=True,
            )
        except Exception as error:
            await answer_error(interaction, error)

    async def _check(self, interaction: Interaction) -> Conflict:
        """The turn is still on and the caller controls the character (read, nothing written)."""
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state = found[1].conflict
        turn_mover(state, found[1].sheets, await caller(interaction), "act", self.round, self.who)
        return state


class NewActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"mab:nsel:{TURN}"):
    def __init__(
        self, conflict: int, round_number: int, who: int, targets: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(
            target_select("mab:nsel", "New action: attack…", (conflict, round_number, who), targets)
        )
        self.conflict, self.round, self.who = conflict, round_number, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NewActionSelect":
        return cls(int(match["conflict"]), int(match["round"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        target = int(self.item.values[0]) if self.item.values else 0
        build = switch_click(self.round, self.who, target)
        await run_click(interaction, build, title="New action", conflict_id=self.conflict)


TURN_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    DeclareSelect,
    DeclareButton,
    ActButton,
    NewActionButton,
    NewActionSelect,
)


def add_turn(view: discord.ui.View, conflict_id: int, turn: Turn) -> None:
    """A turn's buttons: the target menu and the other declarations, or the pool sizes."""
    if turn.step == "declare":
        if turn.targets:
            view.add_item(DeclareSelect(conflict_id, turn.round, turn.participant, turn.targets))
        choices: tuple[TurnChoice, ...] = ("action", "defence", "noroll")
        for choice in choices:
            view.add_item(DeclareButton(conflict_id, turn.round, turn.participant, choice))
        return
    for dice in turn.act_with:
        view.add_item(ActButton(conflict_id, turn.round, turn.participant, dice))
    view.add_item(ActButton(conflict_id, turn.round, turn.participant, 0))
    can_switch = turn.held is None or turn.held >= MIN_POOL
    if (turn.act_with or (turn.target_down and can_switch)) and turn.targets:
        view.add_item(NewActionButton(conflict_id, turn.round, turn.participant))
