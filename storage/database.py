"""The one SQLite file the bot keeps: one writer shared by group commit, and a pool of readers.

SQLite allows one writer at a time. Rather than let many coroutines race for the file lock and
meet "database is locked", every write goes through ONE connection, handed to one write at a
time in the order they asked (``BEGIN IMMEDIATE`` takes the file's write lock at the start, so
a transaction never fails half-way for lack of it). Writes that queue while it is busy share one
``COMMIT``, each in its own savepoint (:mod:`storage.writer`). The writer answers on the event
loop's own thread (:mod:`storage.loop_connection`); waiting for another process holding the
file (a backup, a second bot), up to 5 s, happens on aiosqlite's thread instead.

Reads outside a transaction use read-only connections. With WAL, each sees the last committed
state and never waits for the writer or for each other; reading on the writer instead would
show a reader another coroutine's uncommitted, possibly rolled-back, changes. A read an index
bounds goes to the lookup reader, answered on the loop's thread; any other to the reader of a
small pool with the fewest reads in flight, on its own thread, so one slow read holds no other.

When the file itself refuses a write (read-only file system, disk full, I/O error, or another
process holding the lock past the busy timeout), the transaction is rolled back and a
:class:`~storage.errors.StorageUnavailableError` says so in words a player understands: the
fault is outside the bot, nothing was saved, and the same request works once it clears.
"""

import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self, TypeVar

import aiosqlite

from storage.checkpoints import Checkpointer
from storage.errors import DatabaseBusyError, StorageUnavailableError
from storage.loop_connection import WAIT_MS, LoopConnection, connect_on_loop
from storage.migrations import migrate
from storage.prepared import Prepared, run_prepared
from storage.sql import Statement, reads_in_flight, run_statement
from storage.writer import GroupWriter

DEFAULT_DB_PATH = Path("data/mistborn.sqlite3")
READERS = 3
"""Read-only connections: enough that one slow read never holds the others, few enough that
their threads do not crowd two cores."""
log = logging.getLogger(__name__)
T = TypeVar("T")

NOT_SAVED = "Nothing was changed; try again later."
UNAVAILABLE = {
    sqlite3.SQLITE_READONLY: f"I can't save right now: the database is read-only. {NOT_SAVED}",
    sqlite3.SQLITE_FULL: f"I can't save right now: the disk is full. {NOT_SAVED}",
    sqlite3.SQLITE_IOERR: f"I can't save right now: the disk reported an error. {NOT_SAVED}",
    sqlite3.SQLITE_CANTOPEN: f"I can't save right now: the database file cannot be opened. {NOT_SAVED}",
}
"""Primary SQLite result codes that mean "the file cannot take writes now", with what to say."""
BUSY = "The database is busy right now; nothing was changed. Try again in a moment."
BUSY_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class Session(Protocol):
    """Where a repository gets its connections: the whole database, or one open transaction.

    Repositories never BEGIN or COMMIT themselves; they ask ``writing()`` for the writer (alone:
    one atomic statement; inside ``Storage.transaction()``: part of that transaction) and use
    ``reader`` for plain reads (``lookup`` for those an index bounds). That is what lets the same
    repository code run alone or as part of a larger transaction.
    """

    @property
    def reader(self) -> aiosqlite.Connection: ...

    @property
    def lookup(self) -> aiosqlite.Connection: ...

    def writing(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """The writer."""
        ...

    async def write_shared(self, write: Statement) -> int:
        """One statement that depends on nothing read before it, which the writer may run with
        others like it and their one commit (group commit, :mod:`storage.writer`)."""
        ...

    async def write_prepared(self, prepared: Prepared[T]) -> T:
        """Prepared statements and their check (``storage.prepared``), all kept or none."""
        ...


async def _connect(path: Path, *, read_only: bool) -> aiosqlite.Connection:
    """A reader of the pool: on aiosqlite's thread, waiting for another process's lock there."""
    # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3 module must not.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {WAIT_MS}")
        await _prepare(conn, path, read_only=read_only)
    except BaseException:
        await conn.close()
        raise
    return conn


async def _connect_on_loop(path: Path, *, read_only: bool) -> LoopConnection:
    """The writer, or the reader for lookups: answering on the loop's thread
    (``storage.loop_connection``). The writer never checkpoints (``storage.checkpoints``)."""
    conn = connect_on_loop(path)
    await conn  # starts its thread and connects there
    try:
        await _prepare(conn, path, read_only=read_only)
        if not read_only:
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _prepare(conn: aiosqlite.Connection, path: Path, *, read_only: bool) -> None:
    conn.row_factory = sqlite3.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    if read_only:
        await conn.execute("PRAGMA query_only = ON")
        return
    async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
        row = await cursor.fetchone()
    if row is None or str(row[0]).lower() != "wal":
        raise RuntimeError(f"Could not switch {path} to WAL mode.")
    # In WAL mode NORMAL never corrupts and survives a process crash; it only risks
    # the last commits on power loss, and saves an fsync per commit.
    await conn.execute("PRAGMA synchronous = NORMAL")


PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def make_private(path: Path) -> None:
    """Create the database's folder (0700) and file (0600) readable by the bot's user alone.

    Sheets, secret rolls and the Narrator's notes live there. SQLite creates the ``-wal`` and
    ``-shm`` files with the database file's own mode, so making the file private first is enough;
    an existing file is made private too. A folder that already existed is left as it is: it may
    be shared on purpose (the working directory, say).
    """
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=PRIVATE_DIR)
        path.parent.chmod(PRIVATE_DIR)  # mkdir's mode is masked by the umask
    os.close(os.open(path, os.O_CREAT | os.O_RDWR, PRIVATE_FILE))
    path.chmod(PRIVATE_FILE)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.chmod(PRIVATE_FILE)


class Database:
    """One SQLite file: the writer connection, shared by group commit, and a pool of readers.

    Open with ``await Database.open(path)``; close with ``await db.close()`` or use it as an
    async context manager.
    """

    def __init__(
        self,
        path: Path,
        writer: LoopConnection,
        lookup: LoopConnection,
        readers: Sequence[aiosqlite.Connection],
        checkpointer: Checkpointer,
    ) -> None:
        if not readers:
            raise ValueError("A database needs at least one reader connection.")
        self.path = path
        self._writer = writer
        self._lookup = lookup
        self._readers = tuple(readers)
        self._checkpointer = checkpointer
        self._group = GroupWriter(writer)
        self._closed = False

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DB_PATH, readers: int = READERS) -> Self:
        """Open (creating if needed) the file at ``path`` and bring its schema up to date."""
        path = Path(path)
        make_private(path)
        writer = await _connect_on_loop(path, read_only=False)
        opened: list[aiosqlite.Connection] = []
        try:
            await migrate(writer)
            lookup = await _connect_on_loop(path, read_only=True)
            opened.append(lookup)
            for _ in range(readers):
                opened.append(await _connect(path, read_only=True))
            checkpointer = await Checkpointer.open(path, writer)
        except BaseException:
            for conn in opened:
                await conn.close()
            await writer.close()
            raise
        checkpointer.start()
        return cls(path, writer, lookup, opened[1:], checkpointer)

    async def close(self) -> None:
        """Wait for every write running or queued, then close every connection."""
        if self._closed:
            return
        self._closed = True
        await self._group.stop()
        await self._checkpointer.close()
        for reader in (self._lookup, *self._readers):
            await reader.close()
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
    def waiting(self) -> int:
        """Writes waiting for the writer right now: how far writes are behind (admission control)."""
        return self._group.waiting

    @property
    def group(self) -> GroupWriter:
        """The writer's batching, for the benchmarks' counts."""
        return self._group

    @property
    def readers(self) -> tuple[aiosqlite.Connection, ...]:
        return self._readers

    @property
    def reader(self) -> aiosqlite.Connection:
        """The reader with the fewest reads in flight, so no read queues behind a slow one.

        Each aiosqlite connection runs its statements one at a time on its own thread; with
        one reader, a costly query (a long list, a full scan) held every other server's reads
        behind it. SQLite readers in WAL mode never block each other or the writer.
        """
        return min(self._readers, key=reads_in_flight)

    @property
    def lookup(self) -> LoopConnection:
        """The reader for reads an index bounds, answered on the loop's thread
        (``storage.loop_connection``): no trip to a thread and back for a settings row or a sheet."""
        return self._lookup

    @property
    def writer(self) -> LoopConnection:
        """The writer connection itself, for its counts and its wait for locks (tests, benchmarks);
        writes go through :meth:`writing`, :meth:`write_shared` and :meth:`transaction`."""
        return self._writer

    @property
    def checkpointer(self) -> Checkpointer:
        return self._checkpointer

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer for one repository call, outside any explicit transaction.

        Every repository write is one statement (followed at most by a read that explains a
        miss), and SQLite makes a lone statement atomic by itself. When the writer is free it
        runs in autocommit, without the statements for BEGIN and COMMIT; when writes queue, it
        joins their batch (``storage.writer``) and returns once that batch committed. Writes
        that must stand or fall together go through :meth:`transaction`.
        """
        with _said_plainly():
            async with self._group.statement() as conn:
                yield conn

    async def write_shared(self, write: Statement) -> int:
        """One shared write, outside any explicit transaction (``storage.writer``)."""
        with _said_plainly():
            return await self._group.write(write)

    async def write_prepared(self, prepared: Prepared[T]) -> T:
        """A prepared unit, outside any explicit transaction: the writer runs it itself."""
        with _said_plainly():
            return await self._group.prepared(prepared)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the body raises.

        Transactions run one at a time in the order they asked, alone or as savepoints of a
        batch that commits once (``storage.writer``); either way the block returns only after
        its writes are committed. Opening one inside another in the same task would wait for
        itself forever, so it raises instead.
        """
        with _said_plainly():
            async with self._group.transaction():
                yield self._writer


@contextmanager
def _said_plainly() -> Iterator[None]:
    """Raise an SQLite error that means "cannot write now" as the player-facing error instead."""
    try:
        yield
    except sqlite3.Error as error:
        if (unavailable := _unavailable(error)) is not None:
            raise unavailable from error
        raise


def _unavailable(error: sqlite3.Error) -> StorageUnavailableError | None:
    """The player-facing error for an SQLite error that means "cannot write now", else None."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return None
    primary = code & 0xFF  # extended codes (SQLITE_IOERR_WRITE, ...) keep the primary in the low byte
    if primary in BUSY_CODES:
        return DatabaseBusyError(BUSY)
    if primary in UNAVAILABLE:
        return StorageUnavailableError(UNAVAILABLE[primary])
    return None


class TransactionSession:
    """A :class:`Session` bound to one open transaction: every read and write joins it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @property
    def reader(self) -> aiosqlite.Connection:
        return self._conn

    @property
    def lookup(self) -> aiosqlite.Connection:
        return self._conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[aiosqlite.Connection]:
        yield self._conn

    async def write_shared(self, write: Statement) -> int:
        """Inside a transaction a shared write is just one more of its statements."""
        async with self.writing() as conn:
            return int(await run_statement(conn, write))

    async def write_prepared(self, prepared: Prepared[T]) -> T:
        """Inside a transaction a prepared unit runs in a savepoint of it."""
        async with self.writing() as conn:
            return await run_prepared(conn, prepared)
