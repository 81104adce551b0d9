"""An aiosqlite connection that runs its statements on the event loop's own thread when it can.

aiosqlite sends each call to a thread of its own and wakes the loop with the answer. Alone,
that trip costs about 30 µs. Under load it costs milliseconds: the thread waits for the GIL
that the busy loop holds, and the answer waits behind everything else the loop has queued.
At 500 interactions/s a trip took 0.7–1.6 ms at the median and 4–8 ms at p90
(``bench/load_bench.py``), while SQLite's own work in it took 20–80 µs. A roll's log entry
and a Conflict move's writes each paid such trips before their reply, so the writing kinds
made nearly all of the slow answers.

The writer's statements and point reads are small: a row or a few, found by an index, and a
commit that appends to the WAL without an fsync (``synchronous = NORMAL``). Run where they
are asked, they cost less than the trip did, and nothing waits for a wake-up. This is the
trade better-sqlite3 makes for Node.js, for the same reason. Running SQLite on the loop's
thread is only safe if nothing there can wait long, so each way it could is closed:

- **another process's lock** (a backup, a second bot): the connection's own busy timeout is
  0, so SQLite answers "busy" at once instead of waiting. That statement is sent to
  aiosqlite's thread, where it waits up to :attr:`LoopConnection.wait_ms` as before. So do
  the statements asked after it, until the thread has answered them all, so their order
  holds (aiosqlite runs a connection's calls in the order sent). A call refused after it had
  written some rows (a multi-row write outside a transaction) is not sent again: it fails;
- **checkpoints**, the only fsyncs in WAL mode: the writer never runs one
  (``wal_autocheckpoint = 0``); ``storage.checkpoints`` does, on a connection of its own;
- **costly reads** (a search walking a crowded server's roster, a long list, the roll log's
  totals) never come here: they keep to the pool of readers on their own threads
  (``Database.reader``). Only reads an index bounds use ``Database.lookup``;
- **closing** a connection may checkpoint: it goes through the thread.

This relies on one private method of aiosqlite, ``Connection._execute``, the funnel through
which every call goes to the thread. pyproject.toml bounds aiosqlite to the versions that
have it, and tests/storage/test_loop_connection.py fails if a statement stops running here.
"""

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")

WAIT_MS = 5000
"""How long a statement waits for another process's lock (on aiosqlite's thread)."""


def is_busy(error: BaseException) -> bool:
    """Whether SQLite refused for want of a lock another connection holds (SQLITE_BUSY)."""
    code = getattr(error, "sqlite_errorcode", None)
    return (
        isinstance(error, sqlite3.OperationalError)
        and code is not None
        and code & 0xFF == sqlite3.SQLITE_BUSY
    )


class LoopConnection(aiosqlite.Connection):
    """aiosqlite's connection, answering on the loop's thread unless its own thread is busy."""

    def __init__(self, connector: Callable[[], sqlite3.Connection], *, wait_ms: int = WAIT_MS) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self.wait_ms = wait_ms
        """How long a statement that met another process's lock waits for it, on the thread."""
        self.on_loop = True
        self.answered_here = 0
        """Calls answered on the loop's thread so far."""
        self.sent = 0
        """Calls sent to aiosqlite's thread so far (busy, or behind one that was)."""
        self._on_thread = 0

    async def _execute(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.on_loop and not self._on_thread and (conn := self._connection) is not None:
            changes = conn.total_changes
            try:
                here = fn(*args, **kwargs)
            except sqlite3.OperationalError as error:
                if not is_busy(error) or conn.total_changes != changes:
                    raise  # a call that wrote some rows before it was refused must not run twice
            else:
                self.answered_here += 1
                return here
        return await self._on_its_thread(partial(fn, *args, **kwargs))

    async def _on_its_thread(self, call: Callable[[], T]) -> T:
        """Send ``call`` to aiosqlite's thread. It counts as there until the thread has answered,
        even when its caller stops waiting (cancelled): until then nothing may run here, where
        it would wait for the connection the thread is using."""
        self._on_thread += 1
        self.sent += 1
        answer: asyncio.Future[T] = asyncio.ensure_future(
            super()._execute(self._waiting, call)  # type: ignore[no-untyped-call]
        )
        answer.add_done_callback(self._answered)
        return await asyncio.shield(answer)

    def _answered(self, answer: "asyncio.Future[Any]") -> None:
        self._on_thread -= 1
        if not answer.cancelled():
            answer.exception()  # retrieved: a caller that stopped waiting has no use for it

    def _waiting(self, call: Callable[[], T]) -> T:
        """Run ``call`` on aiosqlite's thread, waiting up to :attr:`wait_ms` for a lock."""
        conn = self._conn
        conn.execute(f"PRAGMA busy_timeout = {int(self.wait_ms)}")
        try:
            return call()
        finally:
            with contextlib.suppress(sqlite3.ProgrammingError):  # the call closed the connection
                conn.execute("PRAGMA busy_timeout = 0")

    async def close(self) -> None:
        """Close on aiosqlite's thread: the last connection to close checkpoints the WAL."""
        self.on_loop = False
        await super().close()


def connect_on_loop(path: Path) -> LoopConnection:
    """A connection to ``path`` for :class:`LoopConnection`: usable from the loop's thread and
    aiosqlite's, autocommit (BEGIN and COMMIT are ours), and never waiting for a lock itself."""

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)

    return LoopConnection(connector)
