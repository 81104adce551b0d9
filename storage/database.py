"""The one SQLite file the bot keeps: one writer, taken by one write at a time, and readers.

SQLite allows one writer at a time. Rather than let many coroutines race for the file lock and
meet "database is locked", every write goes through ONE connection, held by one write at a
time (an ``asyncio.Lock``, so waiting for it never blocks the loop): a lone repository call
runs in autocommit, a ``Storage.transaction()`` body between ``BEGIN IMMEDIATE`` (which takes
the file's write lock at the start, so a transaction never fails half-way for lack of it) and
``COMMIT``. The writer answers on the event loop's own thread (:mod:`storage.loop_connection`),
so a write returns within the step that asked it and the lock is rarely found held; waiting for
another process holding the file (a backup, a second bot), up to 5 s, happens on the
connection's own thread instead.

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

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from storage.checkpoints import Checkpointer
from storage.errors import DatabaseBusyError, StorageUnavailableError
from storage.loop_connection import WAIT_MS, LoopConnection, connect_on_loop
from storage.migrations import migrate
from storage.session import Session as Session
from storage.sql import reads_in_flight, rollback

DEFAULT_DB_PATH = Path("data/mistborn.sqlite3")
READERS = 3
"""Read-only connections: enough that one slow read never holds the others, few enough that
their threads do not crowd two cores."""
log = logging.getLogger(__name__)

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
LOST = "I can't save right now: the database refused the write. Nothing was changed; try again later."
"""What a transaction's caller hears when SQLite itself ended the transaction under its body."""


async def _connect(path: Path, *, read_only: bool) -> aiosqlite.Connection:
    """A reader of the pool (or the connection that migrates): on aiosqlite's thread, waiting
    for another process's lock there."""
    # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3 module must not.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {WAIT_MS}")
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA foreign_keys = ON")
        if read_only:
            await conn.execute("PRAGMA query_only = ON")
        else:
            await _wal(conn, path)
    except BaseException:
        await conn.close()
        raise
    return conn


async def _connect_on_loop(
    path: Path, *, read_only: bool, warm: LoopConnection | None = None
) -> LoopConnection:
    """The writer, or the reader for lookups: answering on the loop's thread
    (``storage.loop_connection``). The writer never checkpoints (``storage.checkpoints``)."""
    conn = await connect_on_loop(path, warm)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA foreign_keys = ON")
        if read_only:
            await conn.execute("PRAGMA query_only = ON")
        else:
            await _wal(conn, path)
            await conn.execute("PRAGMA wal_autocheckpoint = 0")
    except BaseException:
        await conn.close()
        raise
    return conn


async def _wal(conn: aiosqlite.Connection | LoopConnection, path: Path) -> None:
    rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
    if not rows or str(rows[0][0]).lower() != "wal":
        raise RuntimeError(f"Could not switch {path} to WAL mode.")
    # In WAL mode NORMAL never corrupts and survives a process crash; it only risks
    # the last commits on power loss, and saves an fsync per commit.
    await conn.execute("PRAGMA synchronous = NORMAL")
    # Debian's build zeroes each freed page (a WAL frame each); FAST zeroes only inside pages.
    await conn.execute("PRAGMA secure_delete = FAST")


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
    """One SQLite file: the writer connection, held by one write at a time, and readers.

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
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        self._waiting = 0
        self._closed = False

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DB_PATH, readers: int = READERS) -> Self:
        """Open (creating if needed) the file at ``path`` and bring its schema up to date.

        Migrations run first, on a connection of their own that may wait for another
        process's lock (nothing else runs yet)."""
        path = Path(path)
        make_private(path)
        migrating = await _connect(path, read_only=False)
        try:
            await migrate(migrating)
        finally:
            await migrating.close()
        writer = await _connect_on_loop(path, read_only=False)
        opened: list[aiosqlite.Connection | LoopConnection] = []
        try:
            lookup = await _connect_on_loop(path, read_only=True, warm=writer)
            opened.append(lookup)
            pool = [await _connect(path, read_only=True) for _ in range(readers)]
            opened.extend(pool)
            checkpointer = await Checkpointer.open(path, writer)
        except BaseException:
            for conn in opened:
                await conn.close()
            await writer.close()
            raise
        checkpointer.start()
        return cls(path, writer, lookup, pool, checkpointer)

    async def close(self) -> None:
        """Wait for the write running and those already waiting, then close every connection."""
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            pass
        await self._checkpointer.close()
        await self._lookup.close()
        for reader in self._readers:
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
        return self._waiting

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
        writes go through :meth:`writing` and :meth:`transaction`."""
        return self._writer

    @property
    def checkpointer(self) -> Checkpointer:
        return self._checkpointer

    async def _acquire(self) -> None:
        """Take the writer for this task alone, in the order writes asked."""
        if self._closed:
            raise RuntimeError("The database is closed.")
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError("A transaction is already open in this task; use the repositories it yielded.")
        self._waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self._waiting -= 1
        self._holder = task

    def _release(self) -> None:
        self._holder = None
        self._lock.release()

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        """The writer, for this task alone until the block ends, in the order writes asked."""
        await self._acquire()
        try:
            yield
        finally:
            self._release()

    def writing(self) -> "_Writing":
        """The writer for one repository call, outside any explicit transaction.

        Every repository write is one statement (or a savepoint of a few), followed at most by a
        read that explains a miss, and SQLite makes a lone statement atomic by itself, so it runs
        in autocommit. Writes that must stand or fall together go through :meth:`transaction`.
        """
        return _Writing(self)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[LoopConnection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the body raises.

        Transactions run one at a time in the order they asked; the block returns only after
        its writes are committed. Opening one inside another in the same task would wait for
        itself forever, so it raises instead.
        """
        with _said_plainly():
            async with self._held():
                conn = self._writer
                try:  # a BEGIN cancelled while it waits on the thread still runs there: roll it back
                    await conn.execute("BEGIN IMMEDIATE")
                    yield conn
                    if not conn.in_transaction:  # the body swallowed an error that ended it
                        raise StorageUnavailableError(LOST)
                    await conn.execute("COMMIT")
                except BaseException as error:
                    await _roll_back(conn, error)
                    raise


class _Writing:
    """:meth:`Database.writing`: the writer held for one block, and an SQLite error that means
    "cannot write now" raised as the player-facing error (as :func:`_said_plainly` does).

    A class rather than a generator: every write of the bot takes it, and a generator-based
    context manager costs several times as much to enter and leave (issue 40)."""

    __slots__ = ("_db",)

    def __init__(self, db: Database) -> None:
        self._db = db

    async def __aenter__(self) -> LoopConnection:
        await self._db._acquire()
        return self._db._writer

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._db._release()
        if isinstance(exc, sqlite3.Error) and (unavailable := _unavailable(exc)) is not None:
            raise unavailable from exc


async def _roll_back(conn: LoopConnection, cause: BaseException) -> None:
    """Roll back after ``cause``; if even that fails, the original error is the one to report.

    SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
    that fails then must not hide why the transaction failed in the first place.
    """
    try:
        await rollback(conn)
    except sqlite3.Error:
        log.warning("ROLLBACK failed after %r", cause, exc_info=True)


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

    def __init__(self, conn: LoopConnection) -> None:
        self._conn = conn

    @property
    def reader(self) -> LoopConnection:
        return self._conn

    @property
    def lookup(self) -> LoopConnection:
        return self._conn

    def writing(self) -> "Given":
        return Given(self._conn)


class Given:
    """The writer of an open transaction, as a repository's ``writing()`` block: nothing to take
    or give back (a class: a generator-based context manager costs several times as much)."""

    __slots__ = ("_conn",)

    def __init__(self, conn: LoopConnection) -> None:
        self._conn = conn

    async def __aenter__(self) -> LoopConnection:
        return self._conn

    async def __aexit__(self, *_: object) -> None:
        return None
