"""A PostgreSQL server shared by every process of a cluster: a pool, transactions, errors.

``DATABASE_URL`` chooses it (``storage.store.Storage.open``); SQLite stays the default. The
repositories are the same classes as on SQLite (their SQL goes through ``storage.dialect``);
what differs is where the guarantees come from:

* a lone repository call runs in its own short transaction on a pooled connection, so a call
  that writes two statements (a Conflict and its participants) is atomic as on SQLite;
* ``transaction()`` is one connection's transaction. There is no process-wide writer lock, so
  a Conflict move locks its rows (``ConflictRepository.lock``) and every save keeps its
  version check; READ COMMITTED then serialises moves on one Conflict across processes;
* when the server cannot take the write (it is gone, refuses connections, is read-only or
  full, or gave up a deadlock), the player hears that nothing was saved, as with SQLite.
"""

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

import asyncpg

from storage.dialect import PgConnection
from storage.errors import DatabaseBusyError, StorageUnavailableError
from storage.pg_migrations import pg_migrate
from storage.sql import Connection

log = logging.getLogger(__name__)

POOL_SIZE = 10
"""Connections per process: a move holds one for its transaction, a read borrows one briefly."""
NOT_SAVED = "Nothing was changed; try again later."
BUSY = "The database is busy right now; nothing was changed. Try again in a moment."
DOWN = f"I can't save right now: the database server cannot be reached. {NOT_SAVED}"
_BUSY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.TooManyConnectionsError,
)
_DOWN_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.DiskFullError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
)


def unavailable(error: BaseException) -> StorageUnavailableError | None:
    """What the player hears when the server cannot take a write (None: not that kind of error)."""
    if isinstance(error, _BUSY_ERRORS):
        return DatabaseBusyError(BUSY)
    if isinstance(error, _DOWN_ERRORS):
        return StorageUnavailableError(DOWN)
    return None


async def _keep_session(_conn: Any) -> None:
    """Nothing to reset when a connection goes back to the pool.

    asyncpg's default reset is one more round trip per use (``RESET ALL``, ``UNLISTEN *`` …),
    a third of a Conflict move's trips (``storage.moves``). Our statements leave no session
    state behind: no ``SET``, no ``LISTEN``, no cursor, only transaction-scoped advisory locks;
    and a transaction left open is still rolled back by asyncpg before this is called.
    """


class PgDatabase:
    """A pool of connections to one PostgreSQL database, brought to the latest schema."""

    def __init__(self, url: str, pool: Any) -> None:
        self.url = url
        self._pool = pool
        self._reader = PgConnection(pool, pool=True)
        self.waiting = 0
        """Tasks waiting for a connection to write on (admission control reads it)."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> Self:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_keep_session)
        try:
            async with pool.acquire() as conn:
                await pg_migrate(PgConnection(conn))
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool)

    async def close(self) -> None:
        await self._pool.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def reader(self) -> Connection:
        return self._reader

    @property
    def lookup(self) -> Connection:
        """PostgreSQL answers every read over the network: a lookup is a read like any other."""
        return self._reader

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection, counted in :attr:`waiting` while it waits for the pool; a refused
        or lost server comes out as the storage error the player's words are for."""
        self.waiting += 1
        try:
            acquired = self._pool.acquire()
            conn = await acquired.__aenter__()
        except BaseException as error:
            raise (unavailable(error) or error) from error
        finally:
            self.waiting -= 1
        try:
            yield conn
        except BaseException as error:
            refused = unavailable(error)
            if refused is not None:
                raise refused from error
            raise
        finally:
            await acquired.__aexit__(None, None, None)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """One connection's transaction, committed when the block ends, rolled back if it raises."""
        async with self._held() as conn, conn.transaction():
            yield PgConnection(conn)

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        """The writer for one repository call: its own short transaction."""
        async with self.transaction() as conn:
            yield conn

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[PgConnection]:
        """A connection for ONE statement that is its own transaction (autocommit: no BEGIN, no
        COMMIT, two round trips fewer), counted in :attr:`waiting` as a transaction is
        (``storage.moves``)."""
        async with self._held() as conn:
            yield PgConnection(conn)


class PgTransactionSession:
    """A session bound to one open PostgreSQL transaction: every read and write joins it."""

    def __init__(self, conn: PgConnection) -> None:
        self._conn = conn

    @property
    def reader(self) -> Connection:
        return self._conn

    @property
    def lookup(self) -> Connection:
        return self._conn

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[Connection]:
        yield self._conn

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[PgConnection]:
        """One statement joins the open transaction."""
        yield self._conn
