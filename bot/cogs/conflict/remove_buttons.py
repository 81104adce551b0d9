"""Taking a fighter out from the Narrator view (``/conflict remove``): a menu of the fighters,
then a button confirming the one chosen, both answered privately to a Narrator.

Both are ``DynamicItem``s naming the Conflict (and the fighter), so they work after a restart;
the confirmation builds the same move as the command
(``bot.cogs.conflict.narrator_moves.RemoveParticipant``) and runs it through the one flow.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.conflict.delivery import run_click
from bot.cogs.conflict.narrator_moves import RemoveParticipant
from bot.errors import BotError, answers_errors
from bot.render.buttons import REMOVE, REMOVE_SELECT, remove_button, remove_select
from bot.render.common import plain
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board


class RemoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=REMOVE_SELECT):
    """Whom to take out: answered with a button confirming it."""

    def __init__(self, conflict: int) -> None:
        super().__init__(remove_select(conflict, ()))
        self.conflict = conflict

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RemoveSelect":
        return cls(int(match["conflict"]))

    @answers_errors
    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        (await caller(interaction)).require_narrator("remove participants")
        who = int(self.item.values[0]) if self.item.values else 0
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        state = found[1].conflict if found is not None and found[0].id == self.conflict else None
        if state is None:
            raise BotError("That Conflict has ended.")
        fighter = state.find(who)
        if fighter is None:
            raise BotError("That fighter has already left the Conflict.")
        view = discord.ui.View(timeout=None)
        view.add_item(RemoveButton(self.conflict, who, fighter.name))
        await replies.send(
            interaction,
            f"Take **{plain(fighter.name)}** out of the Conflict? Their turns and dice go with them.",
            view=view,
            ephemeral=True,
        )


class RemoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMOVE):
    """Confirms the removal: the same move as ``/conflict remove``."""

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
        await run_click(interaction, move, title="Participant leaves", conflict_id=self.conflict)
