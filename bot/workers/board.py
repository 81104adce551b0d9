"""The one status message per Conflict, kept up to date in the background.

The board is derived from the Conflict, never queued: it must show the latest saved state, not
every state in between. Each board row remembers which Conflict and version its message shows
(``storage.boards``), so a board is *behind* exactly when its Conflict's version is newer, and
*orphaned* when its Conflict ended; both the refresh after a move and the catch-up at start
(``bot.workers.catchup``) only ever bring boards forward from that.

Every command that changes a Conflict asks for a refresh with the state it just saved in hand,
so nothing is read again to draw it; refreshes of one channel coalesce (a burst of ten clicks
edits the board once or twice, not ten times) and run outside the interaction, so a slow or
failing edit never delays a reply or blocks the round. Each edit takes its turn at the
:class:`~bot.workers.pacing.Pacer`. When Discord keeps refusing (429 or 5xx after discord.py's own
retries), the board backs off and tries again later; the Conflict itself is already saved and
goes on regardless, and the next change or start brings the board up to date.

The board is public: it shows the Narrator's secret Villains and Extras as names and plain
states (docs/rulings.md §7.1). Its "Narrator view" button (drawn by ``bot.render.buttons``;
the Conflict cog answers its clicks) answers a Narrator with the full board.

The board is a card, a layout message (``bot.render.conflict_card``): every post and edit sends
the whole card and nothing beside it (an edit clears the embed a board drawn before cards had).
"""

import asyncio
import logging

import discord

from bot import metrics
from bot.crash import crash_point
from bot.errors import UNKNOWN_CHANNEL
from bot.render.conflict_card import ended_card
from bot.workers.board_state import Buttons, Shown, board_portraits, own_buttons, stored_board
from bot.workers.bounded import KeyedLocks, Recent, forget_when_done
from bot.workers.pacing import Pacer
from bot.workers.refusals import Refusals
from bot.workers.threads import ThreadLocked, Threads
from storage import Storage
from storage.boards import BoardRow, Saved
from storage.conflict_moves import Applied

log = logging.getLogger(__name__)

Key = tuple[int, int]
RETRY_DELAYS: tuple[float, ...] = (1.0, 4.0, 15.0)
"""Waits between failed board updates; after the last, the next change tries again."""
CANNOT_PIN = "I may not pin the Conflict board here (I need Manage Messages): look for it below."

CHASES = 3
"""Redraws in a row when the saved Conflict moved on while the board was drawn (another
process's move): each move asks for its own refresh too, so a few are enough."""
ROWS_KEPT = 4096
"""Board rows remembered (the rest are read again when needed): the channels most recently played."""


class Boards:
    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        pacer: Pacer,
        threads: Threads | None = None,
        refusals: Refusals | None = None,
        *,
        buttons: Buttons = own_buttons,
        public_url: str | None = None,
    ) -> None:
        """``buttons``: what the board offers (the Conflict's package gives the turn's; a board
        built without it offers only its own); ``public_url``: where Discord fetches portraits
        from (``MISTBORN_WEB_PUBLIC_URL``; None: no thumbnails)."""
        self.client = client
        self.storage = storage
        self.pacer = pacer
        self.threads = threads if threads is not None else Threads(client, pacer)
        self.refusals = refusals if refusals is not None else Refusals(storage)
        self.retry_delays: tuple[float, ...] = RETRY_DELAYS
        self._dirty: set[Key] = set()
        self._forced: set[Key] = set()
        self._latest: dict[Key, Shown] = {}
        self._rows: Recent[Key, BoardRow | None] = Recent(ROWS_KEPT)
        self._saved: dict[Key, Saved] = {}
        """The channel's Conflict as saved, read with the board's last mark (``_newer_than``)."""
        self._locks: KeyedLocks[Key] = KeyedLocks()
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self.buttons = buttons
        self.public_url = public_url
        self._unpinned: set[int] = set()

    def refresh(self, guild_id: int, channel_id: int, applied: Applied | None = None) -> None:
        """Bring the channel's board up to date soon (once), with ``applied`` if it is in hand.

        Without ``applied`` something outside the Conflict changed what the board shows (a sheet
        revealed, the board asked for again): it is redrawn even at the same Conflict version.
        """
        key = (guild_id, channel_id)
        if applied is not None:
            shown = Shown.of(applied)
            if shown.supersedes(self._latest.get(key)):
                self._latest[key] = shown
        else:
            self._forced.add(key)
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            forget_when_done(
                self._tasks, key, asyncio.create_task(self._run(key), name=f"board-{channel_id}")
            )

    def forget(self, guild_id: int, channel_id: int) -> None:
        """Drop what is remembered of a board whose row was cleared (``/conflict status``)."""
        self._rows.pop((guild_id, channel_id), None)

    async def drawn(self, guild_id: int, channel_id: int) -> None:
        """Wait until the channel's requested refreshes have run (a Conflict's thread is archived
        only once its board shows the end)."""
        task = self._tasks.get((guild_id, channel_id))
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every requested refresh has run (for tests and shutdown)."""
        while pending := [t for t in list(self._tasks.values()) if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()

    async def _run(self, key: Key) -> None:
        failures = 0
        while key in self._dirty:
            self._dirty.discard(key)
            shown = self._latest.pop(key, None)
            forced = key in self._forced
            self._forced.discard(key)
            if forced:  # a sheet changed outside the Conflict: what a move had in hand is behind
                shown = None
            try:
                await self.update(*key, shown, redraw=forced)
                failures = 0
            except (discord.HTTPException, OSError) as error:
                log.warning("Could not update the Conflict board in channel %s: %s", key[1], error)
                if failures >= len(self.retry_delays):
                    return
                self._dirty.add(key)
                if forced:
                    self._forced.add(key)
                if shown is not None:
                    self._latest.setdefault(key, shown)
                await asyncio.sleep(self.retry_delays[failures])
                failures += 1
            except ThreadLocked:
                return  # said once (bot.workers.threads); the next change or start tries again
            except Exception:
                metrics.BOARD_ERRORS.inc()
                log.exception("Conflict board update failed in channel %s", key[1])
                return

    async def update(
        self,
        guild_id: int,
        channel_id: int,
        shown: Shown | None = None,
        *,
        verify: bool = False,
        redraw: bool = False,
    ) -> None:
        """Make the channel's board show ``shown`` (None: the Conflict as stored) if it is behind.

        ``verify`` also checks that a board which is up to date still exists (a moderator may
        have deleted it while the bot was away), at the cost of one read from Discord; ``redraw``
        edits it even when it shows this version already. In a thread Discord archived, the
        thread is opened again first (``bot.workers.threads``). In a channel where Discord
        refuses the bot, nothing is sent; the first refusal marks it (``bot.workers.refusals``).
        """
        key = (guild_id, channel_id)
        async with self._locks.hold(key):
            if self.refusals.blocked(guild_id, channel_id):
                return
            try:
                await self.threads.reopening(channel_id, lambda: self._draw(key, shown, verify, redraw))
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL:
                    raise
                log.info("Channel %s is gone: its Conflict board is dropped", channel_id)
                await self._drop(key)
            except discord.Forbidden as error:
                await self.refusals.refused(guild_id, channel_id, error)

    async def _draw(self, key: Key, shown: Shown | None, verify: bool, redraw: bool) -> None:
        self._saved.pop(key, None)
        current: Shown | None = shown if shown is not None else await self._stored(key)
        for _ in range(1 + CHASES):
            if current is None or not await self._update(key, current, verify, redraw):
                return
            current, verify, redraw = await self._newer_than(key, current), False, False

    async def ended(self, guild_id: int, channel_id: int, conflict_id: int) -> None:
        """Show that the Conflict ``conflict_id`` is over, if its board does not yet (before its
        thread is archived: ``bot.workers.outbox``)."""
        await self.update(guild_id, channel_id, Shown(conflict_id, 0, None))

    async def _newer_than(self, key: Key, drawn: Shown) -> Shown | None:
        """The saved state, when it is newer than the board just drawn; else None.

        Two processes (a redeploy's overlap, a cluster) may draw one board at once, and their
        edits can reach Discord in either order: an older picture landing last would stay, as
        each process thinks it drew the latest. So after each edit the board reads the
        Conflict's saved version and draws again while it is newer: whichever edit lands last
        was sent after its process saw the newest saved state.
        """
        if drawn.conflict is None:
            return None  # an ended board is final; a new Conflict brings its own refresh
        saved = self._saved.pop(key) if key in self._saved else await self.storage.boards.saved(*key)
        if saved is not None and saved[0] == drawn.conflict_id and saved[1] <= drawn.version:
            return None
        log.info(
            "The board in channel %s showed version %s; the saved Conflict is now %s: drawing again",
            key[1],
            drawn.version,
            "ended" if saved is None else f"{saved[0]} at version {saved[1]}",
        )
        return await self._stored(key)

    async def close_orphan(self, row: BoardRow) -> None:
        """Close the board of a Conflict that ended while nobody refreshed it."""
        await self.update(row.guild_id, row.channel_id, Shown(row.conflict_id or 0, 0, None))

    async def _stored(self, key: Key) -> Shown:
        found = await stored_board(self.storage, *key)
        if found is not None:
            return found[1]
        row = await self._row(key)
        ended = row.conflict_id if row is not None and row.conflict_id is not None else 0
        return Shown(ended, 0, None)

    async def _row(self, key: Key) -> BoardRow | None:
        if key not in self._rows:
            self._rows[key] = await self.storage.boards.row(*key)
        return self._rows[key]

    async def _update(self, key: Key, shown: Shown, verify: bool, redraw: bool) -> bool:
        """Draw ``shown`` if the board is behind it; True when it drew a live Conflict."""
        row = await self._row(key)
        channel = self.client.get_partial_messageable(key[1], guild_id=key[0])
        if row is not None and row.conflict_id is not None and row.conflict_id > shown.conflict_id > 0:
            return False  # the channel's board already shows a newer Conflict: this news is old
        if row is not None and (shown.conflict is None or row.conflict_id not in (None, shown.conflict_id)):
            await self._edit(channel, row.message_id, ended_card())  # that Conflict is over
            await self._drop(key)
            row = None
        if shown.conflict is None:
            return False
        if row is not None and not redraw and row.shows(shown.conflict_id, shown.version):
            if not verify or await self._exists(channel, row.message_id):
                return False
            row = None
        portraits = await board_portraits(self.storage, self.public_url, key[0])
        card = shown.card(self.buttons(shown), portraits=portraits)
        if row is not None and await self._edit(channel, row.message_id, card):
            crash_point("board-edit")
            marked = await self.storage.boards.shown(*key, row.message_id, shown.conflict_id, shown.version)
            self._saved[key] = marked
            self._rows[key] = row.model_copy(
                update={"conflict_id": shown.conflict_id, "rendered_version": shown.version}
            )
            return True
        await self.pacer.turn(key[1])
        message = await channel.send(view=card, allowed_mentions=discord.AllowedMentions.none())
        marked = await self.storage.boards.set(
            *key, message.id, conflict_id=shown.conflict_id, version=shown.version
        )
        self._saved[key] = marked
        await self._pin(channel, message)
        self._rows[key] = BoardRow(
            guild_id=key[0],
            channel_id=key[1],
            message_id=message.id,
            conflict_id=shown.conflict_id,
            rendered_version=shown.version,
        )
        return True

    async def _pin(self, channel: discord.PartialMessageable, message: discord.Message) -> None:
        """Pin a new board so the table finds it; without Manage Messages, say so once a channel
        (in this process: a restart may say it once more)."""
        await self.pacer.turn(channel.id)
        try:
            await message.pin(reason="The Conflict board")
        except discord.Forbidden:
            if channel.id in self._unpinned:
                return
            self._unpinned.add(channel.id)
            await self.pacer.turn(channel.id)
            await channel.send(CANNOT_PIN, allowed_mentions=discord.AllowedMentions.none())

    async def repost(self, guild_id: int, channel_id: int) -> None:
        """Post the board anew at the bottom of the channel and delete the old one, so asking for
        it again never leaves two boards (``/conflict status``)."""
        key = (guild_id, channel_id)
        async with self._locks.hold(key):
            row = await self._row(key)
            await self._drop(key)
        if row is not None and not self.refusals.blocked(guild_id, channel_id):
            channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
            await self.pacer.turn(channel_id)
            try:
                await channel.get_partial_message(row.message_id).delete()
            except discord.NotFound:
                pass
            except discord.Forbidden as error:
                await self.refusals.refused(guild_id, channel_id, error)
        self.refresh(guild_id, channel_id)

    async def _drop(self, key: Key) -> None:
        await self.storage.boards.clear(*key)
        self._rows[key] = None

    async def _edit(
        self,
        channel: discord.PartialMessageable,
        message_id: int,
        card: discord.ui.LayoutView,
    ) -> bool:
        """Edit the board in place; False when it is gone (deleted), so a new one is posted."""
        await self.pacer.turn(channel.id)
        try:
            await channel.get_partial_message(message_id).edit(
                embeds=[], view=card, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            return False
        return True

    async def _exists(self, channel: discord.PartialMessageable, message_id: int) -> bool:
        await self.pacer.turn(channel.id)
        try:
            await channel.fetch_message(message_id)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            return False
        return True
