"""Sessions and the journal (migration 21; PostgreSQL 9): the table's memory, on both databases.

A session is a row (guild, channel, title, started_at, ended_at); the journal is one row per
thing that happened in a channel, written by the repositories' callers in the same transaction
as the change it tells (a roll, a Conflict move, a sheet saved). A session's story is its
channel's journal rows between its start and its end, so nothing is copied when a session ends,
and a crash mid-session loses nothing: every row was committed with its change. A channel has at
most one open session (a partial unique index), so two ``/session start`` at once open one.

Each row also keeps where it was said (``storage.places``, migration 24): the private thread of
the channel it came from, if any, and whose interaction made it. Every read that a player may
ask takes a :class:`~storage.places.Reach` and returns only the rows it allows.
"""

import asyncio
import json
from collections.abc import Sequence
from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from rules.journal import JournalEntry
from storage.errors import AlreadyExistsError
from storage.places import Origin, Reach, channel_clause, channel_params, reach_clause, reach_params
from storage.pruning import PRUNE_BATCH, prune_in_batches, prune_oldest
from storage.session import Session
from storage.sql import (
    Connection,
    IntegrityError,
    Row,
    execute,
    execute_many,
    fetch_all,
    fetch_one,
    from_text,
    insert,
    per_dialect,
    to_text,
)

TITLE_MAX = 100
MAX_ENTRIES = 5000
"""Entries a recap reads (a longer night's card says so); the journal file and the web page
read every entry, this many at a time (:meth:`JournalRepository.all_entries`)."""
ALREADY_OPEN = "A session is already open in this channel: `/session end` closes it first."

_SESSION = (
    "SELECT id, guild_id, channel_id, title, started_by, started_at, ended_at, ended_how FROM table_sessions"
)
_COLUMNS = (
    "guild_id",
    "channel_id",
    "at",
    "kind",
    "character_id",
    "document",
    "private_thread_id",
    "actor_id",
)
_ADD = f"INSERT INTO journal ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_IN_SESSION = "guild_id = ? AND channel_id = ? AND at >= ? AND at <= ?"
_SESSION_OF_ENTRY = (
    "SELECT s.id FROM table_sessions s WHERE s.guild_id = journal.guild_id"
    " AND s.channel_id = journal.channel_id AND s.started_at <= journal.at"
    " AND (s.ended_at IS NULL OR journal.at <= s.ended_at) ORDER BY s.id LIMIT 1"
)


Told = tuple[Origin, Sequence[JournalEntry]]
"""Where something happened, and the journal entries it tells."""


async def add_entries(
    conn: Connection, guild_id: int, origin: Origin, entries: Sequence[JournalEntry]
) -> None:
    """Append entries on ``conn`` (a caller's unit of work that holds the writer)."""
    if entries:
        await execute_many(conn, _ADD, [entry_params(guild_id, origin, e) for e in entries])


_VOID_MOVE = "DELETE FROM journal WHERE guild_id = ? AND at >= ? AND "
_OF_CONFLICT_SQLITE = "json_extract(document, '$.conflict_id') = ?"
_OF_CONFLICT_PG = "(document::jsonb ->> 'conflict_id')::bigint = ?"


async def void_move(conn: Connection, guild_id: int, conflict_id: int, since: datetime) -> int:
    """Drop what a Conflict move taken back told the journal (docs/rulings.md §4.24), on ``conn``
    (the undo's own unit of work, so it goes with the restore or not at all); return how many.

    A move is taken back only while nobody else has moved since (the Conflict is still at the
    version it wrote), so every entry of this Conflict from ``since`` (when the move was made)
    is that move's: the recap and the journal then tally as if it was never made. The dice it
    rolled stay in the roll log (§7)."""
    sql = _VOID_MOVE + per_dialect(conn, _OF_CONFLICT_SQLITE, _OF_CONFLICT_PG)
    return await execute(conn, sql, (guild_id, to_text(since), conflict_id))


class TableSession(BaseModel):
    """One session: a night at one channel's table."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    title: str = Field(max_length=TITLE_MAX)
    started_by: int
    started_at: AwareDatetime
    ended_at: AwareDatetime | None = None
    ended_how: str | None = None

    @property
    def open(self) -> bool:
        return self.ended_at is None


def _session(row: Row) -> TableSession:
    return TableSession(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        title=row["title"],
        started_by=row["started_by"],
        started_at=from_text(row["started_at"]),
        ended_at=from_text(row["ended_at"]) if row["ended_at"] else None,
        ended_how=row["ended_how"],
    )


def _span(stored: TableSession) -> tuple[object, ...]:
    """The parameters of ``_IN_SESSION``: the session's channel from its start to its end (or now)."""
    end = to_text(stored.ended_at) if stored.ended_at else "9999"
    return (stored.guild_id, stored.channel_id, to_text(stored.started_at), end)


def _documents(rows: Sequence[Row]) -> list[JournalEntry]:
    return [JournalEntry.model_validate_json(row["document"]) for row in rows]


async def read_documents(rows: Sequence[Row]) -> list[JournalEntry]:
    """The entries of ``rows``, parsed in a worker thread: a page of :data:`MAX_ENTRIES` entries
    of a thousand emoji each takes ~80 ms to validate, which would hold every server's loop
    (tests/bot/test_loop_stalls.py)."""
    return await asyncio.to_thread(_documents, rows)


def entry_params(guild_id: int, origin: Origin, entry: JournalEntry) -> tuple[object, ...]:
    """One row's values, in the order of ``_COLUMNS``."""
    return (
        guild_id,
        origin.channel_id,
        to_text(entry.at),
        entry.kind.value,
        entry.character_id,
        entry.model_dump_json(),
        origin.private_thread_id,
        origin.actor_id,
    )


class StoryEntry(BaseModel):
    """One entry of a character's story, with the session it belongs to (None: it happened
    while no session was open in its channel)."""

    model_config = ConfigDict(frozen=True)

    entry: JournalEntry
    session_id: int | None = None
    session_title: str | None = None


class JournalRepository:
    """Opens and closes sessions, appends journal entries and reads a session's story back."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def add(self, guild_id: int, origin: Origin, entries: Sequence[JournalEntry]) -> None:
        """Append entries (part of the caller's transaction when inside one)."""
        if not entries:
            return
        async with self._session.writing() as conn:
            await add_entries(conn, guild_id, origin, entries)

    async def void_move(self, guild_id: int, conflict_id: int, since: datetime) -> int:
        """:func:`void_move` in the caller's transaction (an undo's)."""
        async with self._session.writing() as conn:
            return await void_move(conn, guild_id, conflict_id, since)

    async def start(
        self, guild_id: int, channel_id: int, title: str, started_by: int, at: datetime
    ) -> TableSession:
        """Open a session; :class:`AlreadyExistsError` when one is open in the channel."""
        try:
            async with self._session.writing() as conn:
                new_id = await insert(
                    conn,
                    "INSERT INTO table_sessions (guild_id, channel_id, title, started_by, started_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (guild_id, channel_id, title, started_by, to_text(at)),
                )
        except IntegrityError as error:
            raise AlreadyExistsError(ALREADY_OPEN) from error
        return TableSession(
            id=new_id,
            guild_id=guild_id,
            channel_id=channel_id,
            title=title,
            started_by=started_by,
            started_at=at,
        )

    async def open_in(self, guild_id: int, channel_id: int) -> TableSession | None:
        row = await fetch_one(
            self._session.lookup,
            _SESSION + " WHERE guild_id = ? AND channel_id = ? AND ended_at IS NULL",
            (guild_id, channel_id),
        )
        return _session(row) if row is not None else None

    async def end(self, stored: TableSession, at: datetime, how: str = "narrator") -> TableSession | None:
        """Close ``stored`` at ``at``; None when it was already closed (by the quiet, or a second
        click): exactly one closer gets the session back."""
        async with self._session.writing() as conn:
            count = await execute(
                conn,
                "UPDATE table_sessions SET ended_at = ?, ended_how = ? WHERE id = ? AND ended_at IS NULL",
                (to_text(at), how, stored.id),
            )
        if count != 1:
            return None
        return stored.model_copy(update={"ended_at": at, "ended_how": how})

    async def get(self, guild_id: int, session_id: int) -> TableSession | None:
        row = await fetch_one(
            self._session.lookup, _SESSION + " WHERE guild_id = ? AND id = ?", (guild_id, session_id)
        )
        return _session(row) if row is not None else None

    async def sessions(
        self, guild_id: int, channel_id: int | None = None, limit: int = 25, *, reach: Reach | None = None
    ) -> list[TableSession]:
        """The latest sessions of the server (or one channel) played where ``reach`` reads
        (None: everywhere), newest first."""
        reader = self._session.reader
        where = " WHERE guild_id = ?" + ("" if channel_id is None else " AND channel_id = ?")
        where += channel_clause(reader)
        params = (guild_id, *(() if channel_id is None else (channel_id,)), *channel_params(reach), limit)
        rows = await fetch_all(reader, _SESSION + where + " ORDER BY id DESC LIMIT ?", params)
        return [_session(row) for row in rows]

    async def entries(
        self, stored: TableSession, limit: int = MAX_ENTRIES, *, reach: Reach | None = None
    ) -> list[JournalEntry]:
        """The session's story in order: its channel's entries from its start to its end (or
        now), those ``reach`` reads (None: all)."""
        reader = self._session.reader
        rows = await fetch_all(
            reader,
            "SELECT document FROM journal WHERE "
            + _IN_SESSION
            + reach_clause(reader)
            + " ORDER BY at, id LIMIT ?",
            (*_span(stored), *reach_params(reach), limit),
        )
        return await read_documents(rows)

    async def count(self, stored: TableSession, *, reach: Reach | None = None) -> int:
        """How many entries the session holds that ``reach`` reads (a recap read at
        :data:`MAX_ENTRIES` says so)."""
        reader = self._session.reader
        row = await fetch_one(
            reader,
            "SELECT COUNT(*) AS n FROM journal WHERE " + _IN_SESSION + reach_clause(reader),
            (*_span(stored), *reach_params(reach)),
        )
        return 0 if row is None else int(row["n"])

    async def all_entries(
        self, stored: TableSession, page: int = MAX_ENTRIES, *, reach: Reach | None = None
    ) -> list[JournalEntry]:
        """The session's whole story in order (those ``reach`` reads), read ``page`` rows at a
        time (keyset on (at, id)), so the journal file and the web page are never cut however
        long the night."""
        reader = self._session.reader
        end = to_text(stored.ended_at) if stored.ended_at else "9999"
        found: list[JournalEntry] = []
        after_at, after_id = to_text(stored.started_at), 0
        while True:
            rows = await fetch_all(
                reader,
                "SELECT id, at, document FROM journal WHERE guild_id = ? AND channel_id = ?"
                " AND (at > ? OR (at = ? AND id > ?)) AND at <= ?"
                + reach_clause(reader)
                + " ORDER BY at, id LIMIT ?",
                (
                    stored.guild_id,
                    stored.channel_id,
                    after_at,
                    after_at,
                    after_id,
                    end,
                    *reach_params(reach),
                    page,
                ),
            )
            found += await read_documents(rows)
            if len(rows) < page:
                return found
            after_at, after_id = str(rows[-1]["at"]), int(rows[-1]["id"])

    async def of_character(
        self, guild_id: int, character_id: int, limit: int = 200, *, reach: Reach | None = None
    ) -> list[StoryEntry]:
        """One character's story across every session (newest ``limit`` that ``reach`` reads,
        in order), each entry with the session it belongs to."""
        reader = self._session.reader
        rows = await fetch_all(
            reader,
            "SELECT j.document, s.id AS session_id, s.title AS session_title FROM"
            f" (SELECT id, document, ({_SESSION_OF_ENTRY}) AS session_id FROM journal"
            " WHERE guild_id = ? AND character_id = ?"
            + reach_clause(reader)
            + " ORDER BY id DESC LIMIT ?) AS j"
            " LEFT JOIN table_sessions s ON s.id = j.session_id ORDER BY j.id",
            (guild_id, character_id, *reach_params(reach), limit),
        )
        entries = await read_documents(rows)
        return [
            StoryEntry(entry=entry, session_id=row["session_id"], session_title=row["session_title"])
            for entry, row in zip(entries, rows, strict=True)
        ]

    async def threads_of(self, guild_id: int, user_id: int) -> frozenset[int]:
        """The private threads ``user_id`` took part in: where an entry of theirs was said."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT DISTINCT private_thread_id FROM journal"
            " WHERE guild_id = ? AND actor_id = ? AND private_thread_id IS NOT NULL",
            (guild_id, user_id),
        )
        return frozenset(int(row["private_thread_id"]) for row in rows)

    async def last_activity(self, stored: TableSession) -> datetime:
        """When the session's channel last had an entry (its start when none since)."""
        row = await fetch_one(
            self._session.reader,
            "SELECT MAX(at) AS last FROM journal WHERE guild_id = ? AND channel_id = ? AND at >= ?",
            (stored.guild_id, stored.channel_id, to_text(stored.started_at)),
        )
        return from_text(row["last"]) if row is not None and row["last"] else stored.started_at

    async def quiet(self, before: datetime) -> list[tuple[TableSession, datetime]]:
        """Every open session whose channel has been quiet since ``before``, with its last
        activity (where the quiet closes it)."""
        rows = await fetch_all(self._session.reader, _SESSION + " WHERE ended_at IS NULL ORDER BY id", ())
        found: list[tuple[TableSession, datetime]] = []
        for stored in map(_session, rows):
            last = await self.last_activity(stored)
            if last < before:
                found.append((stored, last))
        return found

    async def close_quiet(self, before: datetime) -> list[TableSession]:
        """Close every session :meth:`quiet` finds, at its last activity; return them (no recap:
        the bot's upkeep closes them with their recap card, ``bot.workers.session_end``)."""
        closed: list[TableSession] = []
        for stored, last in await self.quiet(before):
            ended = await self.end(stored, last, "quiet")
            if ended is not None:
                closed.append(ended)
        return closed

    async def prune(self, before: datetime, batch: int = PRUNE_BATCH) -> int:
        """Delete the journal's entries and the closed sessions older than ``before`` (the roll
        log's retention, ``MISTBORN_ROLL_LOG_DAYS``); return how many entries. The journal's ids
        grow with time (AUTOINCREMENT), so its oldest entries are those of least id."""
        stamp = (to_text(before),)
        entries = await prune_oldest(self._session, "journal", "id", "at < ?", stamp, batch=batch)
        await prune_in_batches(
            self._session, "table_sessions", "id", "ended_at IS NOT NULL AND ended_at < ?", stamp, batch=batch
        )
        return entries


def entries_json(guild_id: int, origin: Origin, entries: Sequence[JournalEntry]) -> str:
    """The entries as the JSON rows PostgreSQL's one-statement writes insert (``storage.moves``,
    ``storage.rolls``)."""
    return json.dumps(
        [dict(zip(_COLUMNS, entry_params(guild_id, origin, e), strict=True)) for e in entries],
        ensure_ascii=False,
    )
