"""The one SQLite file the bot keeps, and the lock that keeps its writers in line.

SQLite allows one writer at a time. Rather than let many coroutines race for the file lock and
meet "database is locked", every write goes through ONE connection, and an ``asyncio.Lock``
hands that connection to one transaction at a time (``BEGIN IMMEDIATE`` takes the file's write
lock at the start, so a transaction never fails half-way for lack of it). ``busy_timeout`` (5 s) only
matters when another process (a backup, a second bot) holds the file.

Reads outside a transaction use a second, read-only connection. With WAL, it sees the last
committed state and never waits for the writer; reading on the writer instead would show a
reader another coroutine's uncommitted, possibly rolled-back, changes.

When the file itself refuses a write (read-only file system, disk full, I/O error, or another
process holding the lock past the busy timeout), the transaction is rolled back and a
:class:`~storage.errors.StorageUnavailableError` says so in words a player understands: the
fault is outside the bot, nothing was saved, and the same request works once it clears.
"""

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

import aiosqlite

from storage.errors import DatabaseBusyError, StorageUnavailableError
from storage.migrations import migrate
from storage.sql import rollback

DEFAULT_DB_PATH = Path("data/mistborn.sqlite3")
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


class Session(Protocol):
    """Where a repository gets its connections: the whole database, or one open transaction.

    Repositories never BEGIN or COMMIT themselves; they ask ``writing()`` for the writer (alone:
    one atomic statement; inside ``Storage.transaction()``: part of that transaction) and use
    ``reader`` for plain reads. That is what lets the same repository code run alone or as part
    of a larger transaction.
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
    """One SQLite file: a writer connection behind a lock, and a reader connection.

    Open with ``await Database.open(path)``; close with ``await db.close()`` or use it as an
    async context manager.
    """

    def __init__(self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self.waiting = 0
        """Tasks waiting for the writer right now: how far writes are behind (admission control)."""
        self._owner: asyncio.Task[Any] | None = None
        self._closed = False
        self.begun: asyncio.Future[Any] | None = None
        """The open transaction's ``BEGIN``, queued and perhaps not run yet (see :meth:`transaction`)."""

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DB_PATH) -> Self:
        """Open (creating if needed) the file at ``path`` and bring its schema up to date."""
        path = Path(path)
        make_private(path)
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

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer for one repository call, outside any explicit transaction.

        Every repository write is one statement (followed at most by a read that explains a
        miss), and SQLite makes a lone statement atomic by itself. Running it in autocommit
        saves the trips to aiosqlite's thread for BEGIN and COMMIT, which are most of a write's
        cost. Writes that must stand or fall together go through :meth:`transaction`.
        """
        async with self._exclusive():
            try:
                yield self._writer
            except sqlite3.Error as error:
                if (unavailable := _unavailable(error)) is not None:
                    raise unavailable from error
                raise

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[None]:
        """Hold the writer: one user at a time, in the order they asked.

        Asking again from the task that holds it would wait for itself forever, so it raises.
        """
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            raise RuntimeError("A transaction is already open in this task; use the repositories it yielded.")
        self.waiting += 1
        try:
            await self._lock.acquire()
        finally:
            self.waiting -= 1
        try:
            self._owner = task
            yield
        finally:
            self._owner = None
            self._lock.release()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` if the body raises.

        Transactions run one at a time in the order they asked. Opening one inside another in
        the same task would wait for itself forever, so it raises instead.

        ``BEGIN`` is queued on the writer's thread but not waited for: the body's first
        statement (a read, as a rule) runs right behind it on that thread, which saves a round
        trip to it (about as long as the statement). Writes wait for it
        (:meth:`TransactionSession.writing`), and so does ``COMMIT``: if ``BEGIN`` failed, no
        write runs and the transaction fails as it always did.
        """
        async with self._exclusive():
            begun = asyncio.ensure_future(self._writer.execute("BEGIN IMMEDIATE"))
            try:
                await asyncio.sleep(0)  # the task above queues BEGIN before the body queues anything
                self.begun = begun
                yield self._writer
                await begun
                await self._writer.execute("COMMIT")
            except BaseException as error:
                await asyncio.gather(begun, return_exceptions=True)  # BEGIN has run (or failed)
                await self._roll_back(error)
                if isinstance(error, sqlite3.Error) and (unavailable := _unavailable(error)) is not None:
                    raise unavailable from error
                raise
            finally:
                self.begun = None

    async def _roll_back(self, cause: BaseException) -> None:
        """Roll back after ``cause``; if even that fails, the original error is the one to report.

        SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
        that fails then must not hide why the transaction failed in the first place.
        """
        try:
            await rollback(self._writer)
        except sqlite3.Error:
            log.warning("ROLLBACK failed after %r", cause, exc_info=True)


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
    """A :class:`Session` bound to one open transaction: every read and write joins it.

    A write first waits for the transaction's ``BEGIN`` (``begun``): a read may run before it
    is known to have succeeded, a write never does.
    """

    def __init__(self, conn: aiosqlite.Connection, begun: "asyncio.Future[Any] | None" = None) -> None:
        self._conn = conn
        self._begun = begun

    @property
    def reader(self) -> aiosqlite.Connection:
        return self._conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._begun is not None:
            await self._begun
        yield self._conn
