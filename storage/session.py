"""What a repository is given: where to read, and how to get the writer, on either backend.

Both the SQLite :class:`~storage.database.Database` and the PostgreSQL
:class:`~storage.postgres.PgDatabase` satisfy it (and so do their sessions bound to one open
transaction), so one repository class serves both.
"""

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from storage.sql import Connection


class Session(Protocol):
    """``reader`` for plain reads, ``writing()`` for the writer.

    Repositories never BEGIN or COMMIT themselves; ``writing()`` gives them the writer alone (one
    atomic statement, or a savepoint of a few) or inside ``Storage.transaction()`` (part of that
    transaction). That is what lets the same repository code run alone or as part of a larger
    transaction.
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
