"""The delete confirmation: Delete / Cancel buttons for the member who asked, with a timeout.

The view holds the sheet as it was when ``/character delete`` was run and deletes only that
version, so a sheet someone changed while the question was open is not deleted unseen.
Views have no tree error handler, so :meth:`DeleteView.on_error` turns errors into the same
plain messages the commands give, in place of the question.
"""

import logging
from typing import Any

import discord

from bot.client import Interaction
from bot.errors import APOLOGY, user_message
from bot.render.common import plain
from storage import StoredCharacter

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()


class DeleteView(discord.ui.View):
    """Ask once; only ``user_id`` may answer; nothing happens if nobody answers in time."""

    TIMEOUT = 60.0

    def __init__(self, stored: StoredCharacter, user_id: int, *, timeout: float | None = None) -> None:
        super().__init__(timeout=self.TIMEOUT if timeout is None else timeout)
        self.stored = stored
        self.user_id = user_id
        self.origin: Interaction | None = None
        """The command's interaction, to edit the question when it times out."""

    @property
    def name(self) -> str:
        return plain(self.stored.name)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.user.id == self.user_id:
            return True
        await interaction.response.send_message(
            "Only the member who asked to delete this character can answer.",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
        return False

    @discord.ui.button(label="Delete", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: Interaction, button: discord.ui.Button["DeleteView"]) -> None:
        self.stop()
        stored = self.stored
        await interaction.client.storage.characters.delete(
            stored.guild_id, stored.id, expected_version=stored.version
        )
        await interaction.response.edit_message(
            content=f"Deleted **{self.name}**.", view=None, allowed_mentions=NO_PINGS
        )

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: Interaction, button: discord.ui.Button["DeleteView"]) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=f"Kept **{self.name}**: nothing was deleted.", view=None, allowed_mentions=NO_PINGS
        )

    async def on_timeout(self) -> None:
        if self.origin is None:
            return
        try:
            await self.origin.edit_original_response(
                content=f"No answer, so **{self.name}** was kept.", view=None, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:
            log.info("Could not close an expired delete confirmation", exc_info=True)

    async def on_error(
        self,
        interaction: discord.Interaction[Any],
        error: Exception,
        item: discord.ui.Item["DeleteView"],
    ) -> None:
        text = user_message(error)
        if text is None:
            log.error("Delete confirmation failed (user %s)", interaction.user.id, exc_info=error)
            text = APOLOGY
        self.stop()
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=None, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("Could not report a delete error to %s", interaction.user.id, exc_info=True)
