"""The one status message per Conflict, kept up to date in the background.

Every command that changes a Conflict asks for a refresh; refreshes of one channel coalesce (a
burst of ten clicks edits the board once or twice, not ten times) and run outside the
interaction, so a slow or failing edit never delays a reply or blocks the round. When Discord
keeps refusing (429 or 5xx after discord.py's own retries), the board backs off and tries again
later; the Conflict itself is already saved and goes on regardless.

The board is public: it shows the Narrator's secret Villains and Extras as names and plain
states (docs/rulings.md §7.1). Its "Narrator view" button (built by the cog that owns the
buttons and handed in as :attr:`Boards.buttons`) answers a Narrator with the full board.
"""

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.access import conflict_view
from bot.render.conflict import FULL, ConflictView, status_embed
from rules.character import Character
from rules.conflict import Conflict, load_conflict
from storage import Storage
from storage.conflict_runner import load_sheets
from storage.conflicts import StoredConflict

log = logging.getLogger(__name__)

Key = tuple[int, int]
RETRY_DELAYS: tuple[float, ...] = (1.0, 4.0, 15.0)
"""Waits between failed board updates; after the last, the next change tries again."""
Buttons = Callable[[int], discord.ui.View | None]
"""The buttons under the board of the stored Conflict with this id."""


def no_buttons(conflict_id: int) -> discord.ui.View | None:
    return None


async def board_of(
    storage: Storage, guild_id: int, channel_id: int, *, full: bool = False
) -> tuple[StoredConflict, discord.Embed] | None:
    """The channel's Conflict and its board: public, or with every number when ``full``."""
    stored = await storage.conflicts.get(guild_id, channel_id)
    if stored is None:
        return None
    conflict = load_conflict(stored.document)
    sheets, view = await _public_view(storage, guild_id, conflict)
    return stored, status_embed(conflict, sheets, FULL if full else view)


async def _public_view(
    storage: Storage, guild_id: int, conflict: Conflict
) -> tuple[dict[int, Character], ConflictView]:
    found = await load_sheets(storage, guild_id, (p.id for p in conflict.participants))
    sheets = {cid: stored.character for cid, stored in found.items()}  # a deleted one shows as missing
    revealed = {cid for cid, stored in found.items() if stored.revealed}
    return sheets, conflict_view(conflict, sheets, revealed)


class Boards:
    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage
        self._dirty: set[Key] = set()
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self.buttons: Buttons = no_buttons

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
        board = await board_of(storage, guild_id, channel_id)
        if board is None:
            if message_id is not None:
                await storage.boards.clear(guild_id, channel_id)
                ended = discord.Embed(
                    title="Conflict over", description="The summary is in the channel above."
                )
                await self._edit(channel, message_id, ended, None)
            return
        stored, embed = board
        buttons = self.buttons(stored.id)
        if message_id is not None and await self._edit(channel, message_id, embed, buttons):
            return
        message = await channel.send(embed=embed, view=buttons or discord.utils.MISSING)
        await storage.boards.set(guild_id, channel_id, message.id)

    @staticmethod
    async def _edit(
        channel: discord.PartialMessageable,
        message_id: int,
        embed: discord.Embed,
        buttons: discord.ui.View | None,
    ) -> bool:
        """Edit the board in place; False when it is gone (deleted), so a new one is posted."""
        try:
            await channel.get_partial_message(message_id).edit(embed=embed, view=buttons)
        except discord.NotFound:
            return False
        return True
