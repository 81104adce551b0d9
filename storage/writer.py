"""Group commit: concurrent writes share one ``COMMIT`` on the one writer connection.

A roll is logged before its reply, so every write used to pay a whole commit alone, one after
another behind a lock. Here writes still run one at a time on one connection (answering on the
event loop's thread, ``storage.loop_connection``), but those that queue up while the writer is
busy run together in ONE ``SAVEPOINT batch … COMMIT``, each inside its own ``SAVEPOINT``:

- a **unit** is one repository write (``Database.writing``) or one ``Storage.transaction()``
  body. Bodies are the callers' own async code (reads and writes interleaved with awaits), so
  a unit runs in its caller's task: the writer hands it the connection (its *turn*), waits
  until the body ends, and hands the connection to the next unit of the same transaction;
- a *shared write* (``Statement``: one statement depending on no read, such as a roll's log
  entry) is not run by its caller: it waits in the queue as data, and the writer runs every
  shared write then queued with the batch's ``COMMIT`` (:mod:`storage.shared_run`). Under load
  each hand-over between tasks waits behind everything else the loop has queued; a caller
  running its own statement paid a turn and a hand-back. Shared writes go ahead of
  transaction bodies and end the batch they join, and each batch starts with the oldest
  unit: a roll waits for one body at most, a body for one run of rolls;
- a *prepared unit* (``storage.prepared``: a Conflict move's writes and a check of their
  results) is not run by its caller either: the writer runs it inside its savepoint, checks
  it, and keeps or undoes it (``storage.write_batch``);
- a transaction unit that raises is rolled back to its savepoint alone (a failing lone
  statement SQLite undoes by itself): its caller gets its exception, the units before and
  after it commit. Each unit sees every unit before it (same connection, same transaction),
  so a version read and then written cannot go stale;
- the batch commits once the queue is empty, ``MAX_BATCH`` units have run or the transaction
  has been open ``BATCH_BUDGET`` (``storage.write_batch``); only then does every caller's
  write return.
  So "durably logged before the reply" holds: nobody is answered before its ``COMMIT``;
- when the transaction as a whole is lost (SQLite rolls everything back by itself on a full
  disk or an I/O error, or ``COMMIT`` fails), every unit of the batch gets the error: nothing
  of the batch was saved, and nobody was told otherwise. A ``kill -9`` mid-batch leaves only
  whole committed batches, hence whole units.

When the writer is idle and nobody waits, a write takes it at once, as the lock did: a lone
statement in autocommit, a lone transaction between ``BEGIN IMMEDIATE`` and ``COMMIT``. Since
those answer within the step that asked, the writer is rarely found busy: writes queue behind a
transaction body that awaits something else, or behind another process's lock, whose wait
happens on aiosqlite's thread. A quiet bot pays nothing for the batching; a busy one pays one
commit per batch and a ``SAVEPOINT``/``RELEASE`` pair per transaction (``bench/storage_bench.py``
measures both).
"""

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import aiosqlite

from storage.prepared import Prepared, run_prepared
from storage.sql import Statement, run_statement
from storage.write_batch import Batch, roll_back
from storage.write_queue import (
    Body,
    Queue,
    QueuedUnit,
    QueuedWrite,
    retrieved,
)

log = logging.getLogger(__name__)
T = TypeVar("T")


class GroupWriter:
    """The one writer connection, handed to one unit at a time, committing them in batches."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._queue: Queue = deque()
        self._busy = False
        self._holders: set[asyncio.Task[Any] | None] = set()
        """The task holding the connection now (a transaction body, or a lone write)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._drained: list[asyncio.Future[None]] = []
        self.closed = False
        self.batches = 0
        """Batched transactions committed so far (for the benchmarks)."""
        self.batched_units = 0
        """Units committed inside those batches (for the benchmarks)."""

    @property
    def waiting(self) -> int:
        """Units queued for the writer right now: how far writes are behind."""
        return len(self._queue)

    def _check(self) -> "asyncio.Task[Any] | None":
        if self.closed:
            raise RuntimeError("The database is closed.")
        task = asyncio.current_task()
        if task is not None and task in self._holders:
            raise RuntimeError("A transaction is already open in this task; use the repositories it yielded.")
        return task

    @contextlib.asynccontextmanager
    async def statement(self) -> AsyncIterator[aiosqlite.Connection]:
        """The writer for one repository call: alone in autocommit, or a unit of a batch."""
        task = self._check()
        if self._busy or self._queue:
            async with self._unit(task, savepoint=False):
                yield self._conn
            return
        with self._alone(task):
            yield self._conn

    async def write(self, write: Statement) -> int:
        """Run one shared write: at once in autocommit when the writer is free, else with the
        next batch. Returns once committed: the new row's id, or the rows it changed."""
        task = self._check()
        if not (self._busy or self._queue):
            with self._alone(task):
                return int(await run_statement(self._conn, write))
        return int(await self._wait_for(QueuedWrite(asyncio.get_running_loop(), write)))

    async def prepared(self, prepared: Prepared[T]) -> T:
        """Run a prepared unit: at once in its own savepoint when the writer is free, else in
        the next batch, sent and checked by the writer itself. Returns once committed."""
        task = self._check()
        if not (self._busy or self._queue):
            with self._alone(task):
                return await run_prepared(self._conn, prepared)
        result: T = await self._wait_for(QueuedUnit(asyncio.get_running_loop(), prepared))
        return result

    async def _wait_for(self, queued: QueuedWrite | QueuedUnit) -> Any:
        self._queue.append(queued)
        self._kick()
        try:
            return await asyncio.shield(queued.committed)
        except asyncio.CancelledError:
            with contextlib.suppress(ValueError):
                self._queue.remove(queued)  # not taken yet: it never runs
            queued.committed.add_done_callback(retrieved)  # taken: it runs, and nobody reads how
            raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """The writer for one transaction body: alone (``BEGIN`` … ``COMMIT``), or a unit of a batch."""
        task = self._check()
        if self._busy or self._queue:
            async with self._unit(task, savepoint=True):
                yield
            return
        with self._alone(task):
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                await self._conn.execute("COMMIT")
            except BaseException as error:
                await roll_back(self._conn, error)
                raise

    @contextlib.contextmanager
    def _alone(self, task: "asyncio.Task[Any] | None") -> Any:
        self._busy = True
        self._holders.add(task)
        try:
            yield
        finally:
            self._busy = False
            self._holders.clear()
            self._settle()

    @contextlib.asynccontextmanager
    async def _unit(self, task: "asyncio.Task[Any] | None", *, savepoint: bool) -> AsyncIterator[None]:
        """Queue, wait for the turn, run the body, and return only once its batch committed."""
        unit = Body(asyncio.get_running_loop(), task, savepoint)
        self._queue.append(unit)
        self._kick()
        try:
            await unit.turn
        except BaseException:
            if unit.turn.done() and not unit.turn.cancelled() and unit.turn.exception() is None:
                unit.done.set_result(asyncio.CancelledError())  # granted, then cancelled before the body ran
            else:
                unit.turn.cancel()
                with contextlib.suppress(ValueError):
                    self._queue.remove(unit)
            raise
        try:
            yield
        except BaseException as error:
            self._holders.discard(task)  # this task may write again before the writer wakes up
            unit.done.set_result(error)
            raise
        self._holders.discard(task)
        unit.done.set_result(None)
        await asyncio.shield(unit.committed)

    def _kick(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="sqlite-group-writer")
        self._wake.set()

    def _settle(self) -> None:
        """The writer just fell idle: start the next batch, or tell ``drain`` all is written."""
        if self._queue:
            self._kick()
        elif not self._busy:
            for waiter in self._drained:
                if not waiter.done():
                    waiter.set_result(None)
            self._drained.clear()

    async def drain(self) -> None:
        """Wait until no write runs or waits (before closing)."""
        if self._busy or self._queue:
            waiter = asyncio.get_running_loop().create_future()
            self._drained.append(waiter)
            await waiter

    async def stop(self) -> None:
        self.closed = True
        await self.drain()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue and not self._busy:
                self._busy = True
                try:
                    committed = await Batch(self._conn, self._queue, self._holders).run()
                    if committed is not None:
                        self.batches += 1
                        self.batched_units += committed
                except Exception:
                    log.exception("The group writer failed; its batch was rolled back.")
                finally:
                    self._busy = False
                    self._holders.clear()
                self._settle()
