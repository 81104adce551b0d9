"""Channels where Discord refuses the bot: knocked on once, then left alone until it may post again.

Discord bans an address for an hour after 10,000 refused requests (401, 403, 429) in ten
minutes. A channel where the bot lost access (a moderator took away View Channel: 403, code
50001 Missing Access; or Send Messages: 50013 Missing Permissions) refuses every board edit and
queued message there; retried with a back-off, and again by each start's catch-up, a thousand
such channels and a few restarts cross that line. So the first 403 a background call meets in a
channel marks it, in memory and in the database (``storage.refused``), and the boards, the outbox
and catching up leave a marked channel alone, across restarts too: at most one refused request
per channel, until something changes. Catching up at start asks nothing where discord.py's cache
already shows that the bot may not post (``bot.workers.catchup``): it marks the channel at once.

What changes it is Discord saying the bot may post there again. Every interaction carries the
bot's permissions in its channel (``app_permissions``), so each Conflict command checks them
(:meth:`Refusals.seen`): with View Channel, Send Messages (Send Messages in Threads, in a thread)
and Read Message History the mark goes, and the board and any queued messages catch up at once;
without them the channel is marked before any call is refused, and the table is told once why
its board stands still (:data:`CANNOT_POST`, answered through the interaction, which needs no
permission in the channel). A channel deleted meanwhile is handled as before (10003: its rows
dropped, ``bot.workers.catchup``).
"""

import logging
from collections.abc import Awaitable

import discord

from storage import Storage
from storage.errors import StorageError

log = logging.getLogger(__name__)

Key = tuple[int, int]
CANNOT_POST = (
    "⚠️ I cannot post in this channel any more, so its Conflict board and anything else I owe the "
    "table here wait. Someone who manages the channel can give me **View Channel**, **Send "
    "Messages** and **Read Message History** here; the board comes back with the next move."
)
"""Told once per channel (per process) while the bot may not post there."""
ASKED = "the interaction's permissions: the bot may not view or post here"
CACHED = "the bot's permissions here, as Discord last sent them: it may not view or post here"


def may_post(permissions: discord.Permissions, *, thread: bool) -> bool:
    """Whether these permissions (the bot's, in one channel) let it keep a board and post there."""
    send = permissions.send_messages_in_threads if thread else permissions.send_messages
    return permissions.view_channel and permissions.read_message_history and send


def reason(error: discord.HTTPException) -> str:
    """Discord's refusal in a few words: ``403 Missing Access (50001)``."""
    return f"{error.status} {error.text or 'Forbidden'} ({error.code})"


class Refusals:
    """The channels of this process's servers where Discord refuses the bot; see the module docstring."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._marked: set[Key] = set()
        self._told: set[Key] = set()

    async def load(self) -> None:
        """Read the marks of every server (at each start, before catching up)."""
        self._marked = {(row.guild_id, row.channel_id) for row in await self.storage.refused.all()}

    def blocked(self, guild_id: int, channel_id: int) -> bool:
        """Whether background work must leave the channel alone (no request)."""
        return (guild_id, channel_id) in self._marked

    async def refused(self, guild_id: int, channel_id: int, error: discord.HTTPException) -> None:
        """Discord refused a background call in the channel (403): mark it, say so once."""
        await self.mark(guild_id, channel_id, reason(error))

    async def mark(self, guild_id: int, channel_id: int, why: str) -> None:
        """Discord would refuse the bot in the channel (``why``): leave it alone from now on."""
        key = (guild_id, channel_id)
        if key in self._marked:
            return
        self._marked.add(key)
        await self._write(self.storage.refused.mark(guild_id, channel_id, why))
        log.warning(
            "Discord refuses the bot in channel %s (%s): its board and queued messages wait "
            "until an interaction there shows the bot may post again",
            channel_id,
            why,
        )

    async def seen(
        self, guild_id: int, channel_id: int, permissions: discord.Permissions, *, thread: bool
    ) -> bool:
        """Discord says (an interaction's ``app_permissions``) what the bot may do in the channel
        now: mark it or clear it to match; True if the mark was cleared (what it owes is due)."""
        key = (guild_id, channel_id)
        if not may_post(permissions, thread=thread):
            await self.mark(guild_id, channel_id, ASKED)
            return False
        if key not in self._marked:
            return False
        self._marked.discard(key)
        self._told.discard(key)
        await self._write(self.storage.refused.clear(guild_id, channel_id))
        log.info("The bot may post in channel %s again: its board and queued messages catch up", channel_id)
        return True

    def first_telling(self, guild_id: int, channel_id: int) -> bool:
        """Whether the table of a blocked channel has not been told yet (and now counts as told)."""
        key = (guild_id, channel_id)
        if key not in self._marked or key in self._told:
            return False
        self._told.add(key)
        return True

    async def forget(self, guild_id: int, channel_id: int) -> None:
        """The channel is gone (deleted): nothing to remember of it."""
        self._marked.discard((guild_id, channel_id))
        await self._write(self.storage.refused.clear(guild_id, channel_id))

    async def _write(self, change: Awaitable[object]) -> None:
        """Save a change of mark; if the database fails, this process still knows it, and the
        next start at worst asks the channel once more."""
        try:
            await change
        except StorageError:
            log.warning("Could not save a refused channel's mark", exc_info=True)
