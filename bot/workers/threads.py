"""A Conflict's thread as the workers that post and edit its messages meet it: archived by
Discord after a quiet day, or by a moderator, and closed by the bot when its fight ends.

Discord archives a thread nobody wrote in for its ``auto_archive_duration`` (a day for a
Conflict's thread, ``bot.cogs.conflict.threads``). A post there opens it again by itself, but an
edit is refused (400, code 50083, "Thread is archived"): a board left in a thread over night
could no longer be drawn, and catch-up would give up on it after a restart. So every send and
edit of a Conflict's messages (the board, ``bot.workers.board``; the outbox,
``bot.workers.outbox``) goes through :meth:`Threads.reopening`: on 50083 the bot opens the thread
again (``PATCH archived=false``, which needs no permission in a thread it made) and tries once
more. A thread a moderator *locked* stays shut: the bot says so once in its log and leaves the
work for the next start (:class:`ThreadLocked`), as it does for a thread it did not make.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from bot.workers.pacing import Pacer

log = logging.getLogger(__name__)

THREAD_ARCHIVED = 50083
"""Discord's code for a change refused because the thread is archived."""
T = TypeVar("T")


class ThreadLocked(Exception):
    """The thread is archived and the bot may not open it again (locked, or not the bot's)."""


class Threads:
    """Opens a Conflict's archived thread again when a send or edit needs it; closes an ended one."""

    def __init__(self, client: discord.Client, pacer: Pacer) -> None:
        self.client = client
        self.pacer = pacer
        self._told: set[int] = set()

    async def reopening(self, channel_id: int, work: Callable[[], Awaitable[T]]) -> T:
        """``work()``; if Discord refuses it because the thread is archived, open the thread
        again and do it once more. Raises :class:`ThreadLocked` when the thread must stay shut."""
        try:
            return await work()
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
        await self.reopen(channel_id)
        return await work()

    async def reopen(self, thread_id: int) -> None:
        """Unarchive a thread the bot made, unless a moderator locked it (then log once, raise)."""
        await self.pacer.turn(thread_id)
        thread = await self.client.fetch_channel(thread_id)
        me = self.client.user
        if not isinstance(thread, discord.Thread) or me is None or thread.owner_id != me.id or thread.locked:
            if thread_id not in self._told:
                self._told.add(thread_id)
                log.warning(
                    "Thread %s is archived and locked (or not the bot's): its Conflict's messages "
                    "wait until a moderator opens it again",
                    thread_id,
                )
            raise ThreadLocked(thread_id)
        await self.pacer.turn(thread_id)
        await self.client.http.edit_channel(thread_id, archived=False, reason="A Conflict goes on here")
        self._told.discard(thread_id)
        log.info("Opened the archived Conflict thread %s again", thread_id)

    async def archive(self, thread_id: int) -> None:
        """Archive a thread whose fight ended; one already archived is left as it is."""
        await self.pacer.turn(thread_id)
        try:
            await self.client.http.edit_channel(thread_id, archived=True, reason="The Conflict ended")
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
