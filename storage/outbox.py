"""The outbox: every message a Conflict move must show the table, kept until Discord has it.

A move writes its messages here in the same transaction as the Conflict's new state and the
sheets it damaged (``storage.conflict_moves``), so a state the table cannot see is never
committed: either both are saved, or neither. Each row is the create-message body exactly as
Discord takes it (content, embeds and components as dicts, allowed mentions); the bot marks a
row delivered with the id of the Discord message that shows it (``bot.workers.outbox`` explains
how it makes sure that is exactly one message).

``id`` orders the rows of a channel; :attr:`OutboxMessage.nonce` is derived from it, so every
attempt to post a row carries the same nonce and Discord can tell a repeat. A row that carries
the buttons of a pending action (a defence, Nudges) names it in ``action_id``: the latest such
row of a Conflict's pending action is where its prompt is, which is what a restarted bot checks.

A row is *settled* once ``delivered_at`` is set: with ``message_id`` when Discord shows it, or
with a ``failure`` when it never can be (its channel was deleted). Settled rows are pruned
after a while; the prompt rows of live Conflicts are kept as long as their Conflict runs.
"""

import json
from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any

import orjson
from pydantic import AwareDatetime, BaseModel, ConfigDict

from storage.errors import AlreadyHandledError
from storage.handled import ALREADY
from storage.pruning import PRUNE_BATCH, prune_in_batches
from storage.session import Session
from storage.sql import (
    Connection,
    IntegrityError,
    Row,
    execute,
    fetch_all,
    fetch_one,
    from_text,
    insert,
    to_text,
    utc_now,
)

NONCE_PREFIX = "mab"
"""Nonces are ``mab<row id>``: at most 25 characters, as Discord requires."""
_COLUMNS = (
    "id, guild_id, channel_id, conflict_id, action_id, kind, payload, interaction_id, created_at,"
    " attempted_at, delivered_at, message_id, failure, prompt_key"
)


class MessageKind(StrEnum):
    OUTCOME = "outcome"
    """What a move did (with the next prompt's question and buttons, when there is one)."""
    PROMPT = "prompt"
    """A pending action's question posted again, with working buttons."""
    NOTICE = "notice"
    """Anything else the table must be told."""


class NewMessage(BaseModel):
    """A message to queue: what it is, the create-message body, and what it answers or asks."""

    model_config = ConfigDict(frozen=True)

    kind: MessageKind
    payload: dict[str, Any]
    action_id: int | None = None
    """The pending action whose buttons the message carries, if any."""
    prompt_key: str | None = None
    """The question whose buttons the message carries (``bot.cogs.conflict.service.Prompt.key``): an
    action's defence or Nudges, or a turn to declare or act."""
    interaction_id: int | None = None
    """The interaction whose reply shows this message, when there is one to reply to."""


class OutboxMessage(NewMessage):
    """A queued message as stored."""

    id: int
    guild_id: int
    channel_id: int
    conflict_id: int | None
    created_at: AwareDatetime
    attempted_at: AwareDatetime | None = None
    """When the bot first posted it to the channel itself (never set for an interaction reply)."""
    delivered_at: AwareDatetime | None = None
    message_id: int | None = None
    failure: str | None = None

    @property
    def nonce(self) -> str:
        return f"{NONCE_PREFIX}{self.id}"

    @property
    def settled(self) -> bool:
        return self.delivered_at is not None


def _moment(text: str | None) -> datetime | None:
    return None if text is None else from_text(text)


def _message(row: Row) -> OutboxMessage:
    return OutboxMessage(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        conflict_id=row["conflict_id"],
        action_id=row["action_id"],
        prompt_key=row["prompt_key"],
        kind=row["kind"],
        payload=json.loads(row["payload"]),
        interaction_id=row["interaction_id"],
        created_at=from_text(row["created_at"]),
        attempted_at=_moment(row["attempted_at"]),
        delivered_at=_moment(row["delivered_at"]),
        message_id=row["message_id"],
        failure=row["failure"],
    )


_ADD = (
    "INSERT INTO outbox (guild_id, channel_id, conflict_id, action_id, kind, payload,"
    " interaction_id, created_at, prompt_key) VALUES "
)
_ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"


def payload_text(payload: dict[str, Any]) -> str:
    """A message body as stored: compact JSON, UTF-8 as it is (orjson: a tenth of ``json``'s time)."""
    return orjson.dumps(payload).decode()


_QUEUED = OutboxMessage.model_construct(
    kind=MessageKind.NOTICE,
    payload={},
    id=0,
    guild_id=0,
    channel_id=0,
    conflict_id=None,
    created_at=utc_now(),
)
"""What every queued row starts as: nothing attempted, delivered or failed yet. Each row is this
with the rest of its fields replaced (``model_copy``: every field but those four, so nothing of
it is shared; a third of ``model_construct``'s time, which walks every field's default)."""


async def add_messages(
    conn: Connection,
    guild_id: int,
    channel_id: int,
    conflict_id: int | None,
    messages: Sequence[NewMessage],
    now: datetime,
) -> tuple[OutboxMessage, ...]:
    """Queue ``messages`` on ``conn`` (the caller holds the writer), in this order, in ONE
    statement, made at ``now``; return them as stored.

    An interaction is answered by one row at most (a unique index, migration 30): a message
    answering one that already has its row raises :class:`AlreadyHandledError`, which is how
    a Conflict move claims its interaction (``storage.moves``)."""
    if not messages:
        return ()
    stamp = to_text(now)
    params: list[object] = []
    for message in messages:
        payload = payload_text(message.payload)
        params += [guild_id, channel_id, conflict_id, message.action_id, message.kind.value]
        params += [payload, message.interaction_id, stamp, message.prompt_key]
    try:
        if len(messages) == 1:  # most moves: the new row's id as the insert reports it, no RETURNING
            ids = [await insert(conn, _ADD + _ROW, params)]
        else:
            rows = await fetch_all(conn, _ADD + ", ".join([_ROW] * len(messages)) + " RETURNING id", params)
            # AUTOINCREMENT ids grow in insertion order; RETURNING's own order is not promised.
            ids = sorted(int(row[0]) for row in rows)
    except IntegrityError as error:  # kinds are checked already: the one answer each
        if any(message.interaction_id is not None for message in messages):
            raise AlreadyHandledError(ALREADY) from error
        raise
    # Built from the checked message as it is (no deep copy of its body, no checks again).
    return tuple(
        _QUEUED.model_copy(
            update={
                **vars(message),
                "id": row_id,
                "guild_id": guild_id,
                "channel_id": channel_id,
                "conflict_id": conflict_id,
                "created_at": now,
            }
        )
        for row_id, message in zip(ids, messages, strict=True)
    )


class OutboxRepository:
    """Queues, marks and finds the messages of Conflict moves."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def add(
        self, guild_id: int, channel_id: int, conflict_id: int | None, messages: Sequence[NewMessage]
    ) -> tuple[OutboxMessage, ...]:
        """Queue ``messages`` in this order, in ONE statement; return them as stored
        (:func:`add_messages`)."""
        if not messages:
            return ()
        async with self._session.writing() as conn:
            return await add_messages(conn, guild_id, channel_id, conflict_id, messages, utc_now())

    async def delivered(self, row_id: int, message_id: int) -> bool:
        """Mark the row shown by Discord message ``message_id``; False if it was settled already."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE outbox SET delivered_at = ?, message_id = ? WHERE id = ? AND delivered_at IS NULL",
                (to_text(utc_now()), message_id, row_id),
            )
        return changed == 1

    async def attempted(self, row_id: int) -> None:
        """Note that the bot is about to post the row itself (before the post, not after)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "UPDATE outbox SET attempted_at = COALESCE(attempted_at, ?) WHERE id = ?",
                (to_text(utc_now()), row_id),
            )

    async def failed(self, guild_id: int, channel_id: int, reason: str) -> int:
        """Give up every unsettled row of a channel Discord says is gone; return how many."""
        async with self._session.writing() as conn:
            return await execute(
                conn,
                "UPDATE outbox SET delivered_at = ?, failure = ?"
                " WHERE guild_id = ? AND channel_id = ? AND delivered_at IS NULL",
                (to_text(utc_now()), reason, guild_id, channel_id),
            )

    async def give_up(self, row_id: int, reason: str) -> None:
        """Settle one row that must not be posted (again), saying why."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "UPDATE outbox SET delivered_at = ?, failure = ? WHERE id = ? AND delivered_at IS NULL",
                (to_text(utc_now()), reason, row_id),
            )

    async def get(self, row_id: int) -> OutboxMessage | None:
        row = await fetch_one(
            self._session.lookup, "SELECT " + _COLUMNS + " FROM outbox WHERE id = ?", (row_id,)
        )
        return None if row is None else _message(row)

    async def waiting(self, guild_id: int, channel_id: int) -> list[OutboxMessage]:
        """The channel's unsettled rows, oldest first: the order they must be shown in."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT " + _COLUMNS + " FROM outbox"
            " WHERE guild_id = ? AND channel_id = ? AND delivered_at IS NULL ORDER BY id",
            (guild_id, channel_id),
        )
        return [_message(row) for row in rows]

    async def waiting_channels(self) -> list[tuple[int, int]]:
        """Every (server, channel) with an unsettled row, in the order of its oldest row.

        Across servers on purpose: a restarted bot catches up every server it is in.
        """
        rows = await fetch_all(
            self._session.reader,
            "SELECT guild_id, channel_id, MIN(id) AS first FROM outbox WHERE delivered_at IS NULL"
            " GROUP BY guild_id, channel_id ORDER BY first",
        )
        return [(int(row["guild_id"]), int(row["channel_id"])) for row in rows]

    async def backlog(self) -> int:
        """Rows not yet settled, in every server: what the outbox still has to show (an
        operator's gauge, ``bot.health``; a few rows in flight are normal, a growing count is not)."""
        row = await fetch_one(
            self._session.reader, "SELECT COUNT(*) AS n FROM outbox WHERE delivered_at IS NULL"
        )
        return 0 if row is None else int(row["n"])

    async def latest_prompt(self, conflict_id: int, action_id: int) -> OutboxMessage | None:
        """The newest row carrying the buttons of this Conflict's action, if any."""
        row = await fetch_one(
            self._session.reader,
            "SELECT " + _COLUMNS + " FROM outbox WHERE conflict_id = ? AND action_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (conflict_id, action_id),
        )
        return None if row is None else _message(row)

    async def latest_asking(self, conflict_id: int, prompt_key: str) -> OutboxMessage | None:
        """The newest row carrying the buttons of this Conflict's question, if any."""
        row = await fetch_one(
            self._session.reader,
            "SELECT " + _COLUMNS + " FROM outbox WHERE conflict_id = ? AND prompt_key = ?"
            " ORDER BY id DESC LIMIT 1",
            (conflict_id, prompt_key),
        )
        return None if row is None else _message(row)

    async def prune(self, before: datetime, batch: int = PRUNE_BATCH) -> int:
        """Delete rows settled before ``before``, except the prompts of Conflicts still running
        (``batch`` rows per statement, ``storage.pruning``)."""
        return await prune_in_batches(
            self._session,
            "outbox",
            "id",
            "delivered_at IS NOT NULL AND delivered_at < ? AND ((action_id IS NULL AND prompt_key IS NULL)"
            " OR conflict_id NOT IN (SELECT id FROM conflicts))",
            (to_text(before),),
            batch=batch,
        )
