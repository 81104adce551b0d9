"""Small helpers every repository shares: fetching rows, rolling back safely, timestamps.

Each helper takes either an aiosqlite connection or a PostgreSQL one (``storage.dialect``), so
a repository's code and nearly all of its SQL are the same for both backends.
"""

import asyncio
import sqlite3
import weakref
from collections.abc import Awaitable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal, Protocol

import aiosqlite

from storage.dialect import IntegrityErrors, PgConnection
from storage.loop_connection import LoopConnection

Params = Sequence[object]
Connection = aiosqlite.Connection | LoopConnection | PgConnection
"""Where a statement runs: an SQLite connection (a pool reader on its thread, or the writer and
the lookup reader on the loop's, ``storage.loop_connection``), or a PostgreSQL connection or pool."""

IntegrityError: tuple[type[Exception], ...] = (sqlite3.IntegrityError, *IntegrityErrors)
"""A UNIQUE, FOREIGN KEY or CHECK constraint refused a write, on either backend."""


class Row(Protocol):
    """A result row of either driver: read by column name or position."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


def is_postgres(conn: Connection) -> bool:
    return isinstance(conn, PgConnection)


def per_dialect(conn: Connection, sqlite: str, postgres: str) -> str:
    """The statement written for ``conn``'s database, where the two cannot share one text."""
    return postgres if isinstance(conn, PgConnection) else sqlite


_IN_FLIGHT: "weakref.WeakKeyDictionary[object, int]" = weakref.WeakKeyDictionary()


def reads_in_flight(conn: aiosqlite.Connection) -> int:
    """Queries sent to ``conn`` and not answered yet: how a pool of readers picks the idlest."""
    return _IN_FLIGHT.get(conn, 0)


async def fetch_all(conn: Connection, sql: str, params: Params = ()) -> list[Row]:
    """Run a query and read every row, which also ends the statement's read snapshot at once.

    One call on the connection (execute and fetch together): on a pool reader, one trip to its
    thread; on the writer or the lookup reader, answered on the loop's thread
    (``storage.loop_connection``).
    """
    if isinstance(conn, PgConnection):
        return await conn.fetch(sql, params)
    if isinstance(conn, LoopConnection):
        # The writer or the lookup reader, never one of the pool's readers (the only connections
        # picked by their reads in flight): counting there made two weak references a query.
        return await conn.execute_fetchall(sql, params)
    _IN_FLIGHT[conn] = _IN_FLIGHT.get(conn, 0) + 1
    try:
        return list(await conn.execute_fetchall(sql, params))
    finally:
        _IN_FLIGHT[conn] -= 1


async def back_to_back(*steps: Awaitable[Any]) -> list[Any]:
    """Run ``steps`` on one connection in this order, each to its end even when one before failed,
    and raise the first failure once all have ended (so a rollback that follows runs after them).

    One after another, not overlapped: SQLite's writer answers on the event loop's own thread
    (``storage.loop_connection``), so there is no trip to overlap, and a task per step would only
    add a pass of a busy loop each; a PostgreSQL connection runs one query at a time anyway.
    """
    done = await in_order(steps)
    for outcome in done:
        if isinstance(outcome, BaseException):
            raise outcome
    return done


async def in_order(steps: Iterable[Awaitable[Any]]) -> list[Any]:
    """Await ``steps`` one after another: what each returned, or the exception it raised.
    Cancellation is not an outcome: it ends the wait at once."""
    outcomes: list[Any] = []
    for step in steps:
        try:
            outcomes.append(await step)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            outcomes.append(error)
    return outcomes


Returns = Literal["count", "id", "rows", "many"]
"""What a statement gives back: rows changed, the new row's id, its RETURNING rows, or nothing
(``many``: the statement run once per row of ``rows``)."""


@dataclass(frozen=True, slots=True)
class Statement:
    """One write as data: a repository builds the statements of one call (a Conflict's save
    and its participants' index, a lock), and runs them with :func:`run_statement`."""

    sql: str
    params: Params = ()
    returns: Returns = "count"
    rows: Sequence[Params] = ()


async def run_statement(conn: Connection, statement: Statement) -> Any:
    """Run ``statement`` on ``conn``; its result as :data:`Returns` says."""
    if statement.returns == "many":
        await execute_many(conn, statement.sql, statement.rows)
        return None
    if statement.returns == "id":
        return await insert(conn, statement.sql, statement.params)
    if statement.returns == "rows":
        return await fetch_all(conn, statement.sql, statement.params)
    return await execute(conn, statement.sql, statement.params)


async def fetch_one(conn: Connection, sql: str, params: Params = ()) -> Row | None:
    """Run a query expected to match at most one row."""
    rows = await fetch_all(conn, sql, params)
    return rows[0] if rows else None


async def execute(conn: Connection, sql: str, params: Params = ()) -> int:
    """Run a write and return how many rows it changed (one call on the connection; the
    finished cursor holds no lock and is simply dropped)."""
    if isinstance(conn, PgConnection):
        return await conn.execute(sql, params)
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def execute_many(conn: Connection, sql: str, rows: Sequence[Sequence[object]]) -> None:
    """Run one statement once per row of parameters."""
    if isinstance(conn, PgConnection):
        await conn.execute_many(sql, rows)
    else:
        await conn.executemany(sql, rows)


async def insert(conn: Connection, sql: str, params: Params = ()) -> int:
    """Run an INSERT and return the new row's id, in one call on the connection."""
    if isinstance(conn, PgConnection):
        rows = await conn.fetch(sql + " RETURNING id", params)
        return int(rows[0][0])
    row = await conn.execute_insert(sql, params)
    if row is None or row[0] is None:
        raise RuntimeError("SQLite did not report the id of the new row.")
    return int(row[0])


async def rollback(conn: aiosqlite.Connection | LoopConnection) -> None:
    """Roll back whatever transaction is open, if any.

    Always sent, never skipped on ``conn.in_transaction``: after a cancellation a ``BEGIN`` may
    still be waiting for a lock on the connection's thread, and only a ``ROLLBACK`` sent behind
    it is sure to close it. SQLite already rolled back on
    some errors, so "no transaction is active" is expected and ignored.
    """
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "no transaction is active" not in str(error):
            raise


def savepoint(conn: Connection, name: str) -> "Savepoint":
    """Several statements as one: all kept, or none if the block raises.

    A savepoint is a transaction of its own in autocommit mode and nests inside an open one
    (``Storage.transaction()``), so a repository call stays atomic either way. ``name`` is
    our own identifier, never user input.
    """
    return Savepoint(conn, name)


class Savepoint:
    """:func:`savepoint`'s block (a class: every move and roll takes one, and a generator-based
    context manager costs several times as much to enter and leave)."""

    __slots__ = ("_conn", "_name")

    def __init__(self, conn: Connection, name: str) -> None:
        self._conn = conn
        self._name = name

    async def __aenter__(self) -> None:
        await execute(self._conn, f"SAVEPOINT {self._name}")

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        conn, name = self._conn, self._name
        if exc is None:
            await execute(conn, f"RELEASE {name}")
            return
        try:
            await execute(conn, f"ROLLBACK TO {name}")
            await execute(conn, f"RELEASE {name}")
        except sqlite3.OperationalError as undo:
            # SQLite rolled back by itself (a full disk): the error that made it says why.
            if "no such savepoint" not in str(undo):
                raise


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_text(moment: datetime) -> str:
    """A UTC timestamp as fixed-width ISO 8601 text, so text order is time order. (A moment
    already in UTC, as :func:`utc_now` gives, is written as it is: converting it to UTC again
    made a copy and took most of the time, several times a write.)"""
    if moment.tzinfo is not UTC:
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)
