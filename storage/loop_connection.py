"""An SQLite connection that answers on the event loop's own thread, over the standard ``sqlite3``.

A trip to a thread and back (what aiosqlite does for every call) costs little alone but
milliseconds under load: the thread waits for the GIL the busy loop holds, and the answer
waits behind everything else the loop has queued. The writer's statements and the lookups an
index bounds are small (a row or a few, and a commit that appends to the WAL without an fsync,
``synchronous = NORMAL``), so they run where they are asked. That is only safe if nothing here
can wait long, so each way it could is closed:

- **another process's lock** (a backup, a second bot): SQLite's busy timeout is 0 here, so it
  answers "busy" at once instead of waiting. That call is sent to the connection's own thread,
  where it waits up to :attr:`LoopConnection.wait_ms`; so do the calls asked after it, until the
  thread has answered them all, so their order holds. A call refused after it had written some
  rows (a multi-row write outside a transaction) is not sent again: it fails;
- **checkpoints**, the only fsyncs in WAL mode: the writer never runs one
  (``wal_autocheckpoint = 0``); ``storage.checkpoints`` does, on a connection of its own;
- **costly reads** never come here: they keep to the pool of readers on their own threads
  (``Database.reader``);
- **closing** a connection may checkpoint: it goes through the thread.
"""

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

T = TypeVar("T")

WAIT_MS = 5000
"""How long a statement waits for another process's lock (on the connection's thread)."""


def is_busy(error: BaseException) -> bool:
    """Whether SQLite refused for want of a lock another connection holds (SQLITE_BUSY)."""
    code = getattr(error, "sqlite_errorcode", None)
    return (
        isinstance(error, sqlite3.OperationalError)
        and code is not None
        and code & 0xFF == sqlite3.SQLITE_BUSY
    )


class LoopConnection:
    """One ``sqlite3`` connection, answering on the loop's thread unless its thread is busy.

    It offers the few calls ``storage.sql`` makes (the same names as aiosqlite's), so the
    repositories use it like any other connection.
    """

    def __init__(self, path: Path, *, wait_ms: int = WAIT_MS, warm: "LoopConnection | None" = None) -> None:
        # Autocommit (BEGIN and COMMIT are ours), and no busy wait of SQLite's own.
        self._conn = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
        self._warm = warm
        """The writer, for a lookup reader: its queries go there whenever it is idle (:meth:`idle`)."""
        self._closed = False
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-wait")
        self.wait_ms = wait_ms
        """How long a statement that met another process's lock waits for it, on the thread."""
        self.on_loop = True
        self.answered_here = 0
        """Calls answered on the loop's thread so far."""
        self.sent = 0
        """Calls sent to the thread so far (busy, or behind one that was)."""
        self._on_thread = 0

    def __await__(self) -> Generator[Any, None, Self]:
        """Ready once made (``await connect_on_loop(path)``, as with aiosqlite)."""
        return self._connected().__await__()

    async def _connected(self) -> Self:
        return self

    @property
    def connection(self) -> sqlite3.Connection:
        if self._closed:
            raise ValueError("The connection is closed.")
        return self._conn

    @property
    def row_factory(self) -> Any:
        return self.connection.row_factory

    @row_factory.setter
    def row_factory(self, factory: Any) -> None:
        self.connection.row_factory = factory

    @property
    def in_transaction(self) -> bool:
        return self.connection.in_transaction

    @property
    def total_changes(self) -> int:
        return self.connection.total_changes

    async def _execute(self, fn: Callable[..., T], *args: Any) -> T:
        """Every call's one way in: here when nothing waits on the thread, else there."""
        if self.on_loop and not self._on_thread and not self._closed:
            conn = self._conn
            changes = conn.total_changes
            try:
                here = fn(*args)
            except sqlite3.OperationalError as error:
                if not is_busy(error) or conn.total_changes != changes:
                    raise  # a call that wrote some rows before it was refused must not run twice
            else:
                self.answered_here += 1
                return here
        return await self._on_its_thread(partial(fn, *args))

    async def _on_its_thread(self, call: Callable[[], T]) -> T:
        """Send ``call`` to the thread. It counts as there until the thread has answered, even
        when its caller stops waiting (cancelled): until then nothing may run here, where it
        would wait for the connection the thread is using."""
        self._on_thread += 1
        self.sent += 1
        answer = asyncio.get_running_loop().run_in_executor(self._thread, self._waiting, call)
        answer.add_done_callback(self._answered)
        return await asyncio.shield(answer)

    def _answered(self, answer: "asyncio.Future[Any]") -> None:
        self._on_thread -= 1
        if not answer.cancelled():
            answer.exception()  # retrieved: a caller that stopped waiting has no use for it

    def _waiting(self, call: Callable[[], T]) -> T:
        """Run ``call`` on the thread, waiting up to :attr:`wait_ms` for a lock."""
        conn = self.connection
        conn.execute(f"PRAGMA busy_timeout = {int(self.wait_ms)}")
        try:
            return call()
        finally:
            with contextlib.suppress(sqlite3.ProgrammingError):  # the call closed the connection
                conn.execute("PRAGMA busy_timeout = 0")

    async def execute(self, sql: str, params: Sequence[object] = ()) -> sqlite3.Cursor:
        return await self._execute(self.connection.execute, sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> sqlite3.Cursor:
        return await self._execute(self.connection.executemany, sql, rows)

    def idle(self) -> bool:
        """Nothing open or waiting here: a query now reads exactly what is committed."""
        return self.on_loop and not self._on_thread and not self._closed and not self._conn.in_transaction

    async def execute_fetchall(self, sql: str, params: Sequence[object] = ()) -> list[Any]:
        """The rows of a query; a lookup reader's goes to the writer when it is :meth:`idle`.

        Any commit by another connection makes SQLite drop a reader's whole page cache at its
        next read, and the writer commits on nearly every interaction, so the lookup reader read
        every page anew (a one-row lookup took 70-110 µs); the writer's cache holds its own
        commits, and the same lookup there took a third less. Idle, it holds no transaction, so
        the query sees what the lookup reader would: the last commit. A ``PRAGMA`` reads this
        connection's own settings, and stays here."""
        warm = self._warm
        if warm is not None and warm.idle() and self.idle() and not sql.startswith("PRAGMA"):
            try:  # counted here, where it was asked; traced by the writer, where it ran
                rows = warm.connection.execute(sql, params).fetchall()
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    raise
            else:
                self.answered_here += 1
                return rows

        def fetched() -> list[Any]:
            return self.connection.execute(sql, params).fetchall()

        return await self._execute(fetched)

    async def execute_insert(self, sql: str, params: Sequence[object] = ()) -> tuple[int] | None:
        """Run an INSERT; ``(rowid,)`` of the new row."""

        def inserted() -> tuple[int] | None:
            rowid = self.connection.execute(sql, params).lastrowid
            return None if rowid is None else (rowid,)

        return await self._execute(inserted)

    async def create_function(self, name: str, args: int, fn: Callable[..., Any]) -> None:
        self._warm = None  # a query here may call it, and the writer does not have it
        await self._execute(self.connection.create_function, name, args, fn)

    async def set_trace_callback(self, trace: Callable[[str], object] | None) -> None:
        await self._execute(self.connection.set_trace_callback, trace)

    async def close(self) -> None:
        """Close on the thread: the last connection to close checkpoints the WAL."""
        self.on_loop = False
        if not self._closed:
            await self._on_its_thread(self._conn.close)
            self._closed = True
        self._thread.shutdown(wait=False)


def connect_on_loop(path: Path, warm: LoopConnection | None = None) -> LoopConnection:
    """A :class:`LoopConnection` to ``path``; ``await`` it to connect. ``warm``: the writer, whose
    page cache a lookup reader's queries use whenever it is idle."""
    return LoopConnection(path, warm=warm)
