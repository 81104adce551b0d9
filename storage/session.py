"""What a repository is given: where to read, and how to get the writer, on either backend.

``storage.database.Session`` says the same for SQLite alone; this one names the connection
type of ``storage.sql``, which both the SQLite :class:`~storage.database.Database` and the
PostgreSQL :class:`~storage.postgres.PgDatabase` satisfy, so one repository class serves both.
"""

from contextlib import AbstractAsyncContextManager
from typing import Protocol, TypeVar

from storage.prepared import Prepared
from storage.sql import Connection, Statement

T = TypeVar("T")


class Session(Protocol):
    """``reader`` for plain reads, ``writing()`` for the writer.

    Repositories never BEGIN or COMMIT themselves; ``writing()`` gives them the writer alone (one
    atomic statement) or inside ``Storage.transaction()`` (part of that transaction).
    """

    @property
    def reader(self) -> Connection: ...

    @property
    def lookup(self) -> Connection:
        """Where a read goes that an index bounds (a row or a few by key, a short page): on
        SQLite, answered on the event loop's own thread (``storage.loop_connection``). Anything
        that may walk many rows (a search, a whole roster, the roll log's totals) uses ``reader``."""
        ...

    def writing(self) -> AbstractAsyncContextManager[Connection]:
        """The writer."""
        ...

    async def write_shared(self, write: Statement) -> int:
        """One statement that depends on nothing read before it (a roll's log entry). SQLite's
        one writer sends such writes together with their commit (group commit,
        ``storage.writer``); PostgreSQL has no single writer and runs it in its own
        transaction. Returns the new row's id for an insert, else the rows changed."""
        ...

    async def write_prepared(self, prepared: Prepared[T]) -> T:
        """Statements prepared as data and a check of their results (``storage.prepared``), all
        kept or none. SQLite's one writer runs them itself, handing the connection to no task."""
        ...
