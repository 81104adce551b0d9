"""Taking a fighter out (``/conflict remove``) from a menu of the fighters: the board's between
rounds (``bot.workers.board_state.between_rounds``), and the Narrator view's at any time.

A pick takes the fighter out at once, the same move as the command
(``bot.cogs.conflict.narrator_moves.RemoveParticipant``, which refuses anyone but a Narrator)
through the one flow; its reply carries **Undo**, so a mis-pick on a phone is taken back in one
tap (docs/rulings.md §4.24) rather than every pick asking to be confirmed. The confirming
button an older menu answered with still works. Both are ``DynamicItem``s naming the Conflict
(and the fighter), so they work after a restart.
"""

import re
from typing import Any

import discord

from bot.clicks import picked_id
from bot.client import Interaction
from bot.cogs.conflict.delivery import run
from bot.cogs.conflict.narrator_moves import RemoveParticipant
from bot.render.buttons import REMOVE, REMOVE_SELECT, remove_button, remove_select


class RemoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=REMOVE_SELECT):
    """Whom to take out: out at once, with Undo on the reply."""

    def __init__(self, conflict: int) -> None:
        super().__init__(remove_select(conflict, ()))
        self.conflict = conflict

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RemoveSelect":
        return cls(int(match["conflict"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        move = RemoveParticipant(participant=picked_id(interaction))
        await run(interaction, move, title="Participant leaves", conflict_id=self.conflict)


class RemoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMOVE):
    """Confirms a removal an older menu asked about: the same move as ``/conflict remove``."""

    def __init__(self, conflict: int, who: int, name: str = "") -> None:
        super().__init__(remove_button(conflict, who, name or "them"))
        self.conflict, self.who = conflict, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RemoveButton":
        return cls(int(match["conflict"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        move = RemoveParticipant(participant=self.who)
        await run(interaction, move, title="Participant leaves", conflict_id=self.conflict)
