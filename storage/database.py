"""The one SQLite file the bot keeps, and the lock that keeps its writers in line.

SQLite allows one writer at a time. Rather than let many coroutines race for the file lock and
meet "database is locked", every write goes through ONE connection, and an ``asyncio.Lock``
hands that connection to one transaction at a time (``BEGIN IMMEDIATE`` takes the file's write
lock at the start, so a transaction never fails half-way for lack of it). ``busy_timeout`` (5 s) only
matters when another process (a backup, a second bot) holds the file.

Reads outside a transaction use a second, read-only connection. With WAL, it sees the last
committed state and never waits for the writer; reading on the writer instead would show a
reader another coroutine's uncommitted, possibly rolled-back, changes.
"""

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

import aiosqlite

from storage.errors import DatabaseBusyError
from storage.migrations import migrate
from storage.sql import rollback

DEFAULT_DB_PATH = Path("data/mistborn.sqlite3")


class Session(Protocol):
    """Where a repository gets its connections: the whole database, or one open transaction.

    Repositories never BEGIN or COMMIT themselves; they ask ``writing()`` for a connection
    inside a transaction and use ``reader`` for plain reads. That is what lets the same
    repository code run alone (one transaction per call) or as part of a larger transaction.
    """

    @property
    def reader(self) -> aiosqlite.Connection: ...

    def writing(self) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...


async def _connect(path: Path, *, read_only: bool) -> aiosqlite.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3 module must not.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA busy_timeout = 5000")
        await conn.execute("PRAGMA foreign_keys = ON")
        if read_only:
            await conn.execute("PRAGMA query_only = ON")
        else:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            if row is None or str(row[0]).lower() != "wal":
                raise RuntimeError(f"Could not switch {path} to WAL mode.")
            # In WAL mode NORMAL never corrupts and survives a process crash; it only risks
            # the last commits on power loss, and saves an fsync per commit.
            await conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        await conn.close()
        raise
    return conn


class Database:
    """One SQLite file: a writer connection behind a lock, and a reader connection.

    Open with ``await Database.open(path)``; close with ``await db.close()`` or use it as an
    async context manager.
    """

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DB_PATH) -> Self:
        """Open (creating if needed) the file at ``path`` and bring its schema up to date."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path, read_only=False)
        try:
            await migrate(writer)
            reader = await _connect(path, read_only=True)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        """Wait for the running transaction, then close both connections."""
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._reader.close()
            try:
                await self._writer.execute("PRAGMA optimize")
            finally:
                await self._writer.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def reader(self) -> aiosqlite.Connection:
        return self._reader

    def writing(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        return self.transaction()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the body raises.

        Transactions run one at a time in the order they asked. Opening one inside another in
        the same task would wait for itself forever, so it raises instead.
        """
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            raise RuntimeError("A transaction is already open in this task; use the repositories it yielded.")
        async with self._lock:
            self._owner = task
            try:
                await self._begin()
                yield self._writer
                await self._writer.execute("COMMIT")
            except BaseException:
                await rollback(self._writer)
                raise
            finally:
                self._owner = None

    async def _begin(self) -> None:
        try:
            await self._writer.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            message = str(error)
            if "locked" in message or "busy" in message:
                raise DatabaseBusyError("The database is busy right now; try again in a moment.") from error
            raise


class TransactionSession:
    """A :class:`Session` bound to one open transaction: every read and write joins it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @property
    def reader(self) -> aiosqlite.Connection:
        return self._conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[aiosqlite.Connection]:
        yield self._conn
