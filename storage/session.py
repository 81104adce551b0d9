"""What a repository is given: where to read, and how to get the writer, on either backend.

``storage.database.Session`` says the same for SQLite alone; this one names the connection
type of ``storage.sql``, which both the SQLite :class:`~storage.database.Database` and the
PostgreSQL :class:`~storage.postgres.PgDatabase` satisfy, so one repository class serves both.
"""

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from storage.sql import Connection


class Session(Protocol):
    """``reader`` for plain reads, ``writing()`` for the writer.

    Repositories never BEGIN or COMMIT themselves; ``writing()`` gives them the writer alone (one
    atomic statement) or inside ``Storage.transaction()`` (part of that transaction).
    """

    @property
    def reader(self) -> Connection: ...

    def writing(self, *, shared: bool = False) -> AbstractAsyncContextManager[Connection]:
        """The writer. ``shared``: the block is ONE statement that depends on nothing it read, so
        SQLite's writer may run it beside other such writes (group commit, ``storage.writer``);
        PostgreSQL has no single writer, and ignores it."""
        ...
