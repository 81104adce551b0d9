"""The **Undo** on a move's reply (docs/rulings.md §4.24): a ``DynamicItem`` whose custom id names
the Conflict and the version the move wrote, so it works after a restart and is refused once
anyone has moved since (``bot.cogs.conflict.undo``)."""

import re
from typing import Any

import discord

from bot.client import Interaction
from bot.cogs.conflict.delivery import send
from bot.cogs.conflict.service import ConflictFlow
from bot.cogs.conflict.undo import take_back
from bot.render.buttons import UNDO, undo_button


class UndoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=UNDO):
    def __init__(self, conflict: int, version: int) -> None:
        super().__init__(undo_button(conflict, version))
        self.conflict, self.version = conflict, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "UndoButton":
        return cls(int(match["conflict"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        flow = ConflictFlow(interaction.client.conflicts)
        await send(interaction, await take_back(flow, interaction, self.conflict, self.version))
