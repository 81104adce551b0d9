"""Delivering the outbox: every message a move queued is shown once, and only once.

A Conflict move writes the messages the table must see in its own transaction
(``storage.outbox``), so once a move is saved its messages are too. Each queued row is then
shown by exactly one of two paths:

1. **The interaction reply.** Where the process lives, the move answers the very interaction
   that made it with the outcome (``bot.cogs.conflict.delivery.send``), as fast as ever, and
   marks the row delivered with the id of the message Discord made for it. While that reply is
   on its way the row is *replying* in this process, and this deliverer leaves it alone.
2. **The channel post.** When the reply could not be sent (the process died first, the
   interaction expired, Discord refused it), this deliverer posts the row to the channel with
   a nonce derived from the row's id (``mab<id>``) and ``enforce_nonce``, and marks it
   delivered with the message id Discord returns.

Why no row is ever shown twice:

* The reply path runs once, in the process that committed the move, right after the commit;
  nothing ever replies to an interaction twice (Discord would refuse a second answer anyway).
* Before the deliverer posts a row that had an interaction to reply to, it looks for that
  reply: every message Discord makes for an interaction names it (``interaction_metadata``),
  so the channel's messages after the interaction's id either contain the reply (the row is
  marked delivered with it, and not posted) or do not (the reply never happened, and nothing
  will send it now: the one process that could is dead, or saw it fail). It looks only once
  the row is :data:`REPLY_SETTLED` seconds old, so a reply still on the wire when the process
  died has landed; a reply that failed in this process with an answer from Discord is known
  not to exist and is posted at once.
* Every post of a row carries the row's nonce. Discord returns the message it already made for
  that nonce instead of making another, so a post that reached Discord just before a crash,
  whose id was never saved, is not shown twice when it is posted again (if a moderator deleted
  that message meanwhile, Discord refuses the repeat, and the row is settled as deleted rather
  than posted again). Discord remembers a nonce for a few minutes only, so the deliverer notes
  each row's first post *before* making it (``attempted_at``), and a row first posted longer
  ago than :data:`NONCE_TRUSTED` is looked for in the channel (the bot's message with the same
  text and embeds) before it is posted again.
* Marking a row delivered changes it only if it is still unsettled, and both paths go through
  that one mark, so the first message found or made for a row is the one it keeps.

A row may also *close a Conflict's thread* (:func:`close_row`, queued by the move that ends a
fight in a thread the bot made, after its outcome): the board is drawn ended, the summary is
posted in the parent channel with the row's nonce (and looked for there, as above, when the
nonce may be forgotten), then the thread is archived, which is the same whether done once or
again; only then is the row marked, with the summary's message. A kill anywhere in between
leaves the row queued, and the next start finishes it without a second summary.

Rows of one channel are settled oldest first, one at a time, so what was queued in order is
posted in order; rows a move queued behind its interaction reply are posted once that reply is
marked. A deleted channel settles its rows as failed (nothing can show them); a channel where
Discord refuses the bot (403) keeps them, untried, until it may post there again
(``bot.workers.refusals``); other failures are retried with a back-off, and whatever is left is
tried again at the next start.
"""

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import timedelta
from typing import Any

import discord
from discord.http import Route

from bot.crash import crash_point
from bot.errors import UNKNOWN_CHANNEL
from bot.render.cards import card_texts
from bot.workers.bounded import forget_when_done
from bot.workers.pacing import Pacer
from bot.workers.refusals import Refusals
from bot.workers.threads import ThreadLocked, Threads
from storage import MessageKind, NewMessage, OutboxMessage, Storage
from storage.errors import StorageError
from storage.sql import utc_now

log = logging.getLogger(__name__)

Key = tuple[int, int]
JSON = dict[str, Any]
Match = Callable[[JSON], bool]
"""Picks a message out of a channel's history (raw JSON, as Discord sends it)."""
REPLY_SETTLED = 3.0
"""Seconds after a row was queued by which its interaction reply, if any was sent, has landed."""
NONCE_TRUSTED = 120.0
"""Seconds Discord surely still knows a nonce (it promises "a few minutes")."""
SEARCH_LIMIT = 500
"""Channel messages read when looking for a row's message (the reply comes right after its
interaction, so it is among the first few unless the channel is very busy)."""
RETRY_DELAYS: tuple[float, ...] = (1.0, 4.0, 15.0)
GONE = "The channel was deleted."
CLOSE = "close_thread"
"""The payload key of a row that closes a Conflict's thread (:func:`close_row`)."""
NO_PARENT = "The thread's parent channel was deleted: no summary posted there."
REFUSED = "Discord refused the summary in the thread's parent channel."
Closing = Callable[[int, int, int], Awaitable[None]]
"""Draws the board of the Conflict (guild, channel, conflict id) as ended, before its thread is
archived (``bot.workers.board.Boards.ended``)."""
DELETED = "Posted, then deleted in Discord before the bot saved which message it was."


class Outbox:
    """Posts what the outbox holds, channel by channel, in order; see the module docstring."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        pacer: Pacer,
        threads: Threads | None = None,
        refusals: Refusals | None = None,
        *,
        closing: Closing | None = None,
    ) -> None:
        """``closing``: what a delivered Conflict-ending row also does (the boards' ``ended``)."""
        self.client = client
        self.storage = storage
        self.pacer = pacer
        self.threads = threads if threads is not None else Threads(client, pacer)
        self.refusals = refusals if refusals is not None else Refusals(storage)
        self.closing = closing
        self.retry_delays = RETRY_DELAYS
        self.reply_settled = REPLY_SETTLED
        self._replying: set[int] = set()
        self._unanswered: set[int] = set()
        self._ahead: set[int] = set()
        self._dirty: set[Key] = set()
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        self._marks: set[asyncio.Task[None]] = set()

    # -- The reply path ------------------------------------------------------------------------

    def replying(self, rows: Iterable[OutboxMessage]) -> None:
        """A move's saved rows: those with an interaction are being answered by it in this
        process, so leave them be; any others wait behind them and are posted once they are marked."""
        rows = list(rows)
        answering = {row.id for row in rows if row.interaction_id is not None}
        self._replying.update(answering)
        if len(answering) < len(rows):
            self._ahead.update(answering)

    def answered(self, row: OutboxMessage, message_id: int) -> None:
        """The interaction reply shows ``row`` as ``message_id``: mark it, in the background."""
        task = asyncio.create_task(self._mark(row, message_id), name=f"outbox-mark-{row.id}")
        self._marks.add(task)
        task.add_done_callback(self._marks.discard)

    def unanswered(self, row: OutboxMessage, *, refused: bool) -> None:
        """The reply failed: post the row to the channel instead. ``refused``: Discord answered
        with an error, so there is surely no reply message to look for first."""
        self._replying.discard(row.id)
        self._ahead.discard(row.id)
        if refused:
            self._unanswered.add(row.id)
        self.wake(row.guild_id, row.channel_id)

    async def _mark(self, row: OutboxMessage, message_id: int) -> None:
        try:
            await self.storage.outbox.delivered(row.id, message_id)
        except StorageError:
            # Not saved: the next start finds the reply by its interaction and marks it then.
            log.warning("Could not mark outbox row %s delivered", row.id, exc_info=True)
        finally:
            self._replying.discard(row.id)
            if row.id in self._ahead:
                self._ahead.discard(row.id)
                self.wake(row.guild_id, row.channel_id)

    # -- The channel path ----------------------------------------------------------------------

    def wake(self, guild_id: int, channel_id: int) -> None:
        """Settle the channel's queued rows soon (once, however often asked)."""
        key = (guild_id, channel_id)
        self._dirty.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            forget_when_done(
                self._tasks, key, asyncio.create_task(self._run(key), name=f"outbox-{channel_id}")
            )

    async def settle(self, guild_id: int, channel_id: int) -> None:
        """Settle the channel's queued rows now and wait until done (catching up at start)."""
        self.wake(guild_id, channel_id)
        task = self._tasks.get((guild_id, channel_id))
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def idle(self) -> None:
        """Wait until every requested delivery and mark has run (tests and shutdown)."""
        while pending := [t for t in (*list(self._tasks.values()), *self._marks) if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        for task in (*self._tasks.values(), *self._marks):
            task.cancel()

    async def _run(self, key: Key) -> None:
        failures = 0
        while key in self._dirty:
            self._dirty.discard(key)
            if self.refusals.blocked(*key):
                return  # kept for when the bot may post there again
            try:
                await self._settle_channel(*key)
                failures = 0
            except discord.Forbidden as error:
                await self.refusals.refused(*key, error)
                return
            except (discord.HTTPException, OSError, StorageError) as error:
                log.warning("Could not post queued messages in channel %s: %s", key[1], error)
                if failures >= len(self.retry_delays):
                    return
                self._dirty.add(key)
                await asyncio.sleep(self.retry_delays[failures])
                failures += 1
            except ThreadLocked:
                return  # said once (bot.workers.threads); the next start tries again
            except Exception:
                log.exception("Delivering queued messages failed in channel %s", key[1])
                return

    async def _settle_channel(self, guild_id: int, channel_id: int) -> None:
        for row in await self.storage.outbox.waiting(guild_id, channel_id):
            if row.id in self._replying:
                return  # its reply is on its way; what follows it waits for it, in order
            try:
                if CLOSE in row.payload:
                    await self._close(row)
                else:
                    await self.threads.reopening(channel_id, functools.partial(self._settle_row, row))
            except discord.NotFound as error:
                if error.code == UNKNOWN_CHANNEL:
                    gone = await self.storage.outbox.failed(guild_id, channel_id, GONE)
                    log.info("Channel %s is gone: %d queued message(s) dropped", channel_id, gone)
                    return
                # Discord knows the nonce, and that its message was deleted since: the row was
                # shown before the crash and a moderator removed it. Posting it again would undo that.
                await self.storage.outbox.give_up(row.id, DELETED)

    async def _settle_row(self, row: OutboxMessage) -> None:
        found: int | None = None
        if row.interaction_id is not None and row.attempted_at is None and row.id not in self._unanswered:
            wait = self.reply_settled - (utc_now() - row.created_at).total_seconds()
            if wait > 0:
                await asyncio.sleep(wait)
            found = await self._find(
                row.channel_id, after=row.interaction_id, match=_reply_to(row.interaction_id)
            )
        elif since := _nonce_forgotten(row):
            found = await self._find(row.channel_id, after=since, match=_same_message(row.payload))
        if found is None:
            found = await self._post(row, row.channel_id, row.payload)
        await self.storage.outbox.delivered(row.id, found)
        self._unanswered.discard(row.id)

    async def _post(self, row: OutboxMessage, channel_id: int, body: JSON) -> int:
        """Post ``body`` for ``row`` in ``channel_id`` with the row's nonce; the message's id."""
        await self.storage.outbox.attempted(row.id)
        await self.pacer.turn(channel_id)
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        nonce = {"nonce": row.nonce, "enforce_nonce": True}
        posted = await self.client.http.request(route, json=body | nonce)
        crash_point("outbox-post")
        return int(posted["id"])

    async def _close(self, row: OutboxMessage) -> None:
        """Close an ended Conflict's thread (see the module docstring): board, summary, archive."""
        close: JSON = row.payload[CLOSE]
        parent, summary = int(close["parent_id"]), close["summary"]
        if self.closing is not None and row.conflict_id is not None:
            with contextlib.suppress(ThreadLocked):  # a locked thread keeps its board as it is
                await self.closing(row.guild_id, row.channel_id, row.conflict_id)
        found: int | None = None
        unposted = NO_PARENT
        try:
            if since := _nonce_forgotten(row):
                found = await self._find(parent, after=since, match=_same_message(summary))
            if found is None:
                found = await self._post(row, parent, summary)
        except discord.NotFound as error:  # the parent is gone, or the summary was deleted there
            unposted = NO_PARENT if error.code == UNKNOWN_CHANNEL else DELETED
        except discord.Forbidden as error:
            unposted = REFUSED
            log.warning("Could not post the summary of thread %s in its channel: %s", row.channel_id, error)
        try:
            await self.threads.archive(row.channel_id)
        except discord.Forbidden as error:
            log.warning("Could not archive the Conflict thread %s: %s", row.channel_id, error)
        if found is None:
            await self.storage.outbox.give_up(row.id, unposted)
        else:
            await self.storage.outbox.delivered(row.id, found)

    async def _find(self, channel_id: int, *, after: int, match: Match) -> int | None:
        """The bot's message in ``channel_id`` after ``after`` that ``match`` picks, if any."""
        me = self.client.user.id if self.client.user is not None else None
        read = 0
        while read < SEARCH_LIMIT:
            await self.pacer.turn(channel_id)
            page: list[JSON] = [
                dict(m) for m in await self.client.http.logs_from(channel_id, 100, after=after)
            ]
            if not page:
                return None
            read += len(page)
            for message in sorted(page, key=lambda m: int(m["id"])):
                if str(message.get("author", {}).get("id")) == str(me) and match(message):
                    return int(message["id"])
            after = max(int(m["id"]) for m in page)
        return None


def _nonce_forgotten(row: OutboxMessage) -> int | None:
    """Where to look for the row's message when Discord may have forgotten its nonce (first
    posted longer ago than :data:`NONCE_TRUSTED`): a snowflake a little before that post."""
    if row.attempted_at is None or (utc_now() - row.attempted_at).total_seconds() <= NONCE_TRUSTED:
        return None
    return discord.utils.time_snowflake(row.attempted_at - timedelta(minutes=5))


def close_row(parent_id: int, summary: JSON) -> NewMessage:
    """The row that closes an ended Conflict's thread: ``summary`` (a create-message body) is
    posted in the thread's parent channel ``parent_id``, then the thread is archived."""
    close = {"parent_id": str(parent_id), "summary": summary}
    return NewMessage(kind=MessageKind.NOTICE, payload={CLOSE: close})


def _reply_to(interaction_id: int) -> Match:
    """The message Discord made for this interaction (its reply or a followup)."""
    wanted = str(interaction_id)
    return lambda message: str((message.get("interaction_metadata") or {}).get("id")) == wanted


def _same_message(payload: JSON) -> Match:
    """A message with the text and embeds of ``payload``, or the text displays of a card."""
    content = payload.get("content") or ""
    embeds = [_embed_key(embed) for embed in payload.get("embeds") or []]
    texts = card_texts(payload.get("components") or [])

    def match(message: JSON) -> bool:
        shown = [_embed_key(embed) for embed in message.get("embeds") or []]
        said = card_texts(message.get("components") or [])
        return (message.get("content") or "") == content and shown == embeds and said == texts

    return match


def _embed_key(embed: JSON) -> tuple[object, ...]:
    """What a posted embed surely keeps of what was sent (Discord adds fields of its own)."""
    return (
        embed.get("title"),
        embed.get("description"),
        tuple(f.get("value") for f in embed.get("fields") or []),
    )
