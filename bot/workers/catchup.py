"""Catching up at start: the channels show what was saved while the bot was away.

A bot killed in the middle of a round leaves the database right (each move committed whole)
but the channels behind it: an outcome saved but never posted, a board showing an older state,
a prompt whose buttons went with a message that was deleted. Once connected (``on_ready``),
:class:`CatchUp` walks it all, in the background:

1. every channel with queued messages starts getting them posted, in order, beside the rest
   (``bot.workers.outbox``: a row whose interaction may have been answered waits until any such
   answer has surely landed, and a board must not wait behind that);
2. every board of a Conflict that ended while nobody refreshed it is closed;
3. every live Conflict, a page at a time: its board is brought up to its saved version (and
   posted again if a moderator deleted it), and, once its channel's queue is empty, its
   pending question (a defence, Nudges, or a turn to declare or act) is posted again with
   working buttons if the message that asked is gone or no longer offers them;
4. the :attr:`CatchUp.passes` the cogs added (a Narrator's request shows who has rolled), which
   start with the Conflicts rather than after them: a request's message catches up within
   seconds of the start (docs/rulings.md §6.13), however many boards there are to redraw.

A channel that no longer exists has its queued messages settled as failed and its board
forgotten; a server the bot is not connected to is left for the next start. A channel where
Discord refuses the bot (it lost access) is not asked anything: where discord.py's cache of the
server already shows that the bot may not post there (Discord's own advice against refused
requests), or where a refusal marked it before, in the database (``bot.workers.refusals``). A
thousand such channels cost no request, and the others are not kept waiting behind them.

The work is bounded and spread: one Conflict at a time, every REST call through the
:class:`~bot.workers.pacing.Pacer` (this process's share of the bot's budget; discord.py sleeps
out any 429 itself; the deliverer and the boards back off when failures repeat), and none of it
runs inside an interaction, so a start with a thousand live Conflicts answers new interactions
as fast as an idle one.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from bot.errors import UNKNOWN_CHANNEL
from bot.workers.board_state import Shown
from bot.workers.conflicts import AskAgain, ConflictWorkers
from bot.workers.outbox import GONE
from bot.workers.pacing import Pacer
from bot.workers.refusals import CACHED, may_post
from bot.workers.threads import ThreadLocked
from rules.errors import RulesError
from storage import OutboxMessage
from storage.conflict_documents import load_stored
from storage.conflicts import LiveConflict, StoredConflict

log = logging.getLogger(__name__)

PAGE = 100
"""Live Conflicts read at a time."""


Pass = Callable[[Callable[[int], bool]], Awaitable[None]]
"""One more thing to catch up, given which servers are this process's."""


def every(guild_id: int) -> bool:
    """One process holds every server (no shards)."""
    return True


class CatchUp:
    """Brings every channel up to what is saved, once per connection; see the module docstring."""

    def __init__(
        self,
        client: discord.Client,
        workers: ConflictWorkers,
        asked_again: AskAgain,
        pacer: Pacer,
        owns: Callable[[int], bool] = every,
    ) -> None:
        """``asked_again``: the pending question posted anew (the Conflict's package decides what is
        asked, ``bot.cogs.conflict.questions``; the composition root hands it down)."""
        self.client = client
        self.owns = owns
        """Whether a server is this process's (its shard is held here): the database is shared
        by a cluster, and each process catches up only its own servers."""
        self.workers = workers
        self.asked_again = asked_again
        self.pacer = pacer
        self.storage = workers.storage
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self._queued: set[tuple[int, int]] = set()
        self.passes: list[Pass] = []
        """What else is brought up to what is saved, added by the cogs that own it (a request's
        message, say); each is given :attr:`owns` and runs beside the Conflicts."""
        self.done = asyncio.Event()
        """Set each time a catch-up has finished (tests and benchmarks wait on it)."""

    def start(self) -> None:
        """Catch up in the background (once more after the current pass, if one is running)."""
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self.done.clear()
        self._task = asyncio.create_task(self._run(), name="catch-up")

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while True:
            self._again = False
            try:
                await self.run()
            except Exception:
                log.exception("Catching up at start failed; the next start tries again")
            if not self._again:
                self.done.set()
                return

    async def run(self) -> None:
        """One pass over everything (see the module docstring)."""
        self._queued = set()
        await self.workers.refusals.load()
        for guild_id, channel_id in await self.storage.outbox.waiting_channels():
            if self.owns(guild_id) and await self._reachable(guild_id, channel_id):
                self._queued.add((guild_id, channel_id))
                self.workers.outbox.wake(guild_id, channel_id)
        for row in await self.storage.boards.orphans():
            if self.owns(row.guild_id) and await self._reachable(row.guild_id, row.channel_id):
                with contextlib.suppress(ThreadLocked):  # said once (bot.workers.threads)
                    await self.workers.boards.close_orphan(row)
        passes = [asyncio.create_task(self._pass(catch_up)) for catch_up in list(self.passes)]
        try:
            after = 0
            while page := await self.storage.conflicts.live(after, PAGE):
                for live in page:
                    if self.owns(live.stored.guild_id):
                        await self._conflict(live)
                    after = live.stored.id
        except BaseException:
            for task in passes:
                task.cancel()
            raise
        await asyncio.gather(*passes)
        for guild_id, channel_id in self._queued:  # done means shown, not only started
            await self.workers.outbox.settle(guild_id, channel_id)

    async def _pass(self, catch_up: Pass) -> None:
        """One cog's pass, beside the Conflicts' (its failure is logged, never the others')."""
        try:
            await catch_up(self.owns)
        except Exception:
            log.exception("A catch-up pass failed; the next start tries again")

    async def _conflict(self, live: LiveConflict) -> None:
        stored = live.stored
        guild_id, channel_id = stored.guild_id, stored.channel_id
        if not await self._reachable(guild_id, channel_id):
            return
        try:
            state = load_stored(stored)
        except RulesError:
            log.warning("The Conflict in channel %s cannot be read; its board is left as it is", channel_id)
            return
        loaded = await self.storage.characters.get_many(guild_id, [p.id for p in state.participants])
        sheets = {cid: s.character for cid, s in loaded.items()}
        state = state.with_sheets(sheets)
        revealed = frozenset(cid for cid, s in loaded.items() if s.revealed)
        shown = Shown(stored.id, stored.version, state, sheets, revealed)
        try:
            await self.workers.boards.update(guild_id, channel_id, shown, verify=True)
            if not self.workers.refusals.blocked(guild_id, channel_id):  # the board was not refused
                await self._prompt(stored, shown)
        except discord.Forbidden as error:
            await self.workers.refusals.refused(guild_id, channel_id, error)
        except (discord.HTTPException, OSError) as error:
            log.warning("Could not catch up the Conflict in channel %s: %s", channel_id, error)
        except ThreadLocked:
            pass  # a moderator locked its thread: said once, left for the next start

    async def _prompt(self, stored: StoredConflict, shown: Shown) -> None:
        """Post the pending action's question again when no message asks it any more."""
        assert shown.conflict is not None
        again = self.asked_again(stored.id, shown.conflict, shown.sheets, shown.revealed)
        if again is None or again.prompt_key is None:
            return
        guild_id, channel_id = stored.guild_id, stored.channel_id
        if (guild_id, channel_id) in self._queued:
            await self.workers.outbox.settle(guild_id, channel_id)  # what is queued goes first
        asked = await self.storage.outbox.latest_asking(stored.id, again.prompt_key)
        if asked is None and again.action_id is not None:  # asked before prompts had keys
            asked = await self.storage.outbox.latest_prompt(stored.id, again.action_id)
        if asked is not None and not asked.settled:
            return  # still queued (Discord refused it for now): the deliverer retries it
        if asked is not None and asked.message_id is not None and await self._still_asks(asked):
            return
        async with self.storage.transaction() as tx:
            await tx.conflicts.lock(guild_id, channel_id)  # PostgreSQL: no move slips in meanwhile
            current = await tx.conflicts.get(guild_id, channel_id)
            if current is None or current.version != stored.version:
                return  # a move came in meanwhile: it asked whatever is pending now
            await tx.outbox.add(guild_id, channel_id, stored.id, [again])
        await self.workers.outbox.settle(guild_id, channel_id)

    async def _still_asks(self, asked: OutboxMessage) -> bool:
        """Whether the prompt's message is there and still offers the buttons it was sent with."""
        assert asked.message_id is not None
        await self.pacer.turn(asked.channel_id)
        try:
            message: dict[str, Any] = dict(
                await self.client.http.get_message(asked.channel_id, asked.message_id)
            )
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                raise
            return False
        return _custom_ids(asked.payload) <= _custom_ids(message)

    async def _reachable(self, guild_id: int, channel_id: int) -> bool:
        """Whether the bot can catch up this channel now; a deleted channel is forgotten here."""
        guild = self.client.get_guild(guild_id)
        if guild is None or guild.unavailable:
            return False  # not connected to that server now: the next start tries again
        if self.workers.refusals.blocked(guild_id, channel_id):
            return False  # Discord refused the bot there: not asked again until it may post
        channel = guild.get_channel_or_thread(channel_id)
        if channel is not None and guild.me is not None:
            thread = isinstance(channel, discord.Thread)
            if may_post(channel.permissions_for(guild.me), thread=thread):
                return True
            await self.workers.refusals.mark(guild_id, channel_id, CACHED)  # would be refused: not asked
            return False
        await self.pacer.turn(channel_id)  # not in the cache: an archived thread, or deleted?
        try:
            await self.client.fetch_channel(channel_id)
        except discord.NotFound:
            dropped = await self.storage.outbox.failed(guild_id, channel_id, GONE)
            await self.storage.boards.clear(guild_id, channel_id)
            self.workers.boards.forget(guild_id, channel_id)
            await self.workers.refusals.forget(guild_id, channel_id)
            log.info(
                "Channel %s was deleted: %d queued message(s) dropped, board forgotten", channel_id, dropped
            )
            return False
        except discord.Forbidden as error:
            await self.workers.refusals.refused(guild_id, channel_id, error)
            return False
        except discord.HTTPException:
            return False  # Discord is unwell: leave it for the next start
        return True


def _custom_ids(message: Mapping[str, Any]) -> set[str]:
    """Every component custom id of a message (its rows and the buttons in them)."""
    found: set[str] = set()
    stack = list(message.get("components") or [])
    while stack:
        component = stack.pop()
        if "custom_id" in component:
            found.add(str(component["custom_id"]))
        stack.extend(component.get("components") or [])
    return found
