"""The delete confirmation: Delete / Cancel buttons for the member who asked, with a time limit.

The buttons are ``DynamicItem``s: the custom id holds the character's id and the version that
was shown, and who asked, so a click works after a restart just as before it. Only the member
who asked may answer, and Delete deletes only that version: a sheet someone changed while the
question was open is not deleted unseen ("Someone else changed …"), and a click on the question
of a sheet deleted meanwhile says so.

A question expires after :attr:`DeleteView.TIMEOUT`. While the process that asked lives, a timer
edits it to "No answer" then; a restart loses that timer, so a click on an expired question is
refused with the same words instead of deleting anything. Buttons have no tree error handler,
so every refusal is written here, in place of the question.
"""

import asyncio
import logging
import re
import weakref
from typing import Any, Literal

import discord

from bot import replies
from bot.client import Interaction
from bot.errors import APOLOGY, user_message
from bot.render.common import plain
from storage import StoredCharacter

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
Answer = Literal["yes", "no"]

_open: "weakref.WeakKeyDictionary[discord.Client, dict[int, asyncio.TimerHandle]]" = (
    weakref.WeakKeyDictionary()
)
"""Each client's open questions (by message id) and the timers that will close them."""


_closing: set[asyncio.Task[None]] = set()


def _timers(client: discord.Client) -> dict[int, asyncio.TimerHandle]:
    return _open.setdefault(client, {})


class DeleteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:delete:(?P<character>\d+):(?P<version>\d+):(?P<user>\d+):(?P<answer>yes|no)",
):
    """Delete (``yes``) or Cancel (``no``) for one version of one character, for one member."""

    def __init__(self, character_id: int, version: int, user_id: int, answer: Answer) -> None:
        super().__init__(
            discord.ui.Button(
                label="Delete" if answer == "yes" else "Cancel",
                style=discord.ButtonStyle.danger if answer == "yes" else discord.ButtonStyle.secondary,
                custom_id=f"mab:delete:{character_id}:{version}:{user_id}:{answer}",
            )
        )
        self.character_id = character_id
        self.version = version
        self.user_id = user_id
        self.answer: Answer = answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeleteButton":
        answer: Answer = "yes" if match["answer"] == "yes" else "no"
        return cls(int(match["character"]), int(match["version"]), int(match["user"]), answer)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.user.id == self.user_id:
            return True
        await replies.send(
            interaction,
            "Only the member who asked to delete this character can answer.",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
        return False

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        if interaction.message is not None:
            timer = _timers(interaction.client).pop(interaction.message.id, None)
            if timer is not None:
                timer.cancel()
        try:
            text = await self._answer(interaction)
        except Exception as error:
            refusal = user_message(error)
            if refusal is None:
                log.error("Delete confirmation failed (user %s)", interaction.user.id, exc_info=error)
            text = refusal or APOLOGY
        try:
            await replies.edit(interaction, content=text, view=None, allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("Could not answer a delete confirmation of %s", interaction.user.id, exc_info=True)

    async def _answer(self, interaction: Interaction) -> str:
        storage = interaction.client.storage
        guild_id = interaction.guild_id or 0
        stored = await storage.characters.get(guild_id, self.character_id)  # gone: its own message
        name = plain(stored.name)
        message = interaction.message
        if message is not None and DeleteView.expired(message):
            return no_answer(name)
        if self.answer == "no":
            return f"Kept **{name}**: nothing was deleted."
        await storage.characters.delete(guild_id, self.character_id, expected_version=self.version)
        return f"Deleted **{name}**."


def no_answer(name: str) -> str:
    return f"No answer, so **{name}** was kept."


class DeleteView(discord.ui.View):
    """The question's two buttons; it keeps nothing in memory that a click needs."""

    TIMEOUT = 60.0

    def __init__(self, stored: StoredCharacter, user_id: int) -> None:
        super().__init__(timeout=None)
        self.add_item(DeleteButton(stored.id, stored.version, user_id, "yes"))
        self.add_item(DeleteButton(stored.id, stored.version, user_id, "no"))
        self.name = plain(stored.name)

    @classmethod
    def expired(cls, message: discord.Message) -> bool:
        return (discord.utils.utcnow() - message.created_at).total_seconds() > cls.TIMEOUT

    def asked(self, origin: Interaction, message_id: int | None) -> None:
        """The question was posted as ``message_id``: close it if nobody answers in time."""
        if message_id is None:
            return
        timers = _timers(origin.client)

        def expire() -> None:
            if timers.pop(message_id, None) is not None:
                task = asyncio.create_task(self._close(origin), name=f"delete-question-{message_id}")
                _closing.add(task)
                task.add_done_callback(_closing.discard)

        timers[message_id] = asyncio.get_running_loop().call_later(self.TIMEOUT, expire)

    async def _close(self, origin: Interaction) -> None:
        try:
            await origin.edit_original_response(
                content=no_answer(self.name), view=None, allowed_mentions=NO_PINGS
            )
        except Exception:  # the bot may be closing; the question then expires on its next click
            log.info("Could not close an expired delete confirmation", exc_info=True)


BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (DeleteButton,)
"""Registered with the client while the characters' cog is loaded."""
