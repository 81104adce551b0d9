"""The one status message per Conflict, kept up to date in the background.

Every command that changes a Conflict asks for a refresh; refreshes of one channel coalesce (a
burst of ten clicks edits the board once or twice, not ten times) and run outside the
interaction, so a slow or failing edit never delays a reply or blocks the round. When Discord
keeps refusing (429 or 5xx after discord.py's own retries), the board backs off and tries again
later; the Conflict itself is already saved and goes on regardless.
"""

import asyncio
import logging

import discord

from bot.render.conflict import status_embed
from storage import Storage
from storage.conflict_runner import current_conflict
from storage.errors import StorageError

log = logging.getLogger(__name__)

Key = tuple[int, int]
RETRY_DELAYS: tuple[float, ...] = (1.0, 4.0, 15.0)
"""Waits between failed board updates; after the last, the next change tries again."""


class Boards:
    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage
        self._dirty: set[Key] = set()
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS

    def refresh(self, guild_id: int, channel_id: int) -> None:
        """Ask for the board of this channel to be brought up to date (soon, once)."""
        key = (guild_id, channel_id)
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._run(key), name=f"board-{channel_id}")

    async def idle(self) -> None:
        """Wait until every requested refresh has run (for tests and shutdown)."""
        while pending := [t for t in self._tasks.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()

    async def _run(self, key: Key) -> None:
        failures = 0
        while key in self._dirty:
            self._dirty.discard(key)
            try:
                await self._update(*key)
                failures = 0
            except (discord.HTTPException, OSError) as error:
                log.warning("Could not update the Conflict board in channel %s: %s", key[1], error)
                if failures >= len(self.retry_delays):
                    return
                self._dirty.add(key)
                await asyncio.sleep(self.retry_delays[failures])
                failures += 1
            except Exception:
                log.exception("Conflict board update failed in channel %s", key[1])
                return

    async def _update(self, guild_id: int, channel_id: int) -> None:
        storage = self.storage
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        message_id = await storage.boards.get(guild_id, channel_id)
        conflict = await current_conflict(storage, guild_id, channel_id)
        if conflict is None:
            if message_id is not None:
                await storage.boards.clear(guild_id, channel_id)
                ended = discord.Embed(
                    title="Conflict over", description="The summary is in the channel above."
                )
                await self._edit(channel, message_id, ended)
            return
        sheets = {}
        for participant in conflict.participants:
            try:
                sheets[participant.id] = (await storage.characters.get(guild_id, participant.id)).character
            except StorageError:  # a deleted sheet shows as missing on the board
                continue
        embed = status_embed(conflict, sheets)
        if message_id is not None and await self._edit(channel, message_id, embed):
            return
        message = await channel.send(embed=embed)
        await storage.boards.set(guild_id, channel_id, message.id)

    @staticmethod
    async def _edit(channel: discord.PartialMessageable, message_id: int, embed: discord.Embed) -> bool:
        """Edit the board in place; False when it is gone (deleted), so a new one is posted."""
        try:
            await channel.get_partial_message(message_id).edit(embed=embed)
        except discord.NotFound:
            return False
        return True
