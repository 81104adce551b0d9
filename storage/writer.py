"""Group commit: concurrent writes share one ``COMMIT`` on the one writer connection.

A roll is logged before its reply, so every write used to pay a whole commit (and its trips
to aiosqlite's thread) alone, one after another behind a lock. Here writes still run one at a
time on one connection, but those that queue up while the writer is busy run together in ONE
``SAVEPOINT batch … COMMIT``, each inside its own ``SAVEPOINT``:

- a **unit** is one repository write (``Database.writing``) or one ``Storage.transaction()``
  body. Bodies are the callers' own async code (reads and writes interleaved with awaits), so
  a unit runs in its caller's task: the writer hands it the connection (its *turn*), waits
  until the body ends, and hands the connection to the next unit of the same transaction;
- a *shared write* (``Statement``: one statement depending on no read, such as a roll's log
  entry) is not run by its caller: it waits in the queue as data, and the writer sends every
  shared write then queued with the batch's ``COMMIT`` in one trip (:mod:`storage.shared_run`).
  Under load each trip and each hand-over between tasks waits behind everything else the
  loop has queued; a caller running its own statement paid a turn, a trip and a hand-back.
  Shared writes go ahead of transaction bodies and end the batch they join, and each batch
  starts with the oldest unit: a roll waits for one body at most, a body for one run of rolls;
- a transaction unit that raises is rolled back to its savepoint alone (a failing lone
  statement SQLite undoes by itself): its caller gets its exception, the units before and
  after it commit. Each unit sees every unit before it (same connection, same transaction),
  so a version read and then written cannot go stale;
- the batch commits once the queue is empty, :data:`MAX_BATCH` units have run or the
  transaction has been open :data:`BATCH_BUDGET`; only then does every caller's write return.
  So "durably logged before the reply" holds: nobody is answered before its ``COMMIT``;
- when the transaction as a whole is lost (SQLite rolls everything back by itself on a full
  disk or an I/O error, or ``COMMIT`` fails), every unit of the batch gets the error: nothing
  of the batch was saved, and nobody was told otherwise. A ``kill -9`` mid-batch leaves only
  whole committed batches, hence whole units.

When the writer is idle and nobody waits, a write takes it at once, as the lock did: a lone
statement in autocommit (one trip to aiosqlite's thread), a lone transaction with ``BEGIN``
queued ahead of its first read. A quiet bot pays nothing for the batching; a busy one pays one
commit per batch and a ``SAVEPOINT``/``RELEASE`` pair per transaction, queued behind its
statements rather than waited for (``bench/storage_bench.py`` measures both).
"""

import asyncio
import contextlib
import logging
import sqlite3
from collections import deque
from collections.abc import AsyncIterator
from typing import Any, TypeVar

import aiosqlite

from storage.errors import StorageError, StorageUnavailableError
from storage.prepared import Prepared, run_prepared, send
from storage.shared_run import OPEN_BATCH, send_run
from storage.sql import Statement, rollback, run_statement
from storage.write_queue import (
    Body,
    Held,
    Queue,
    Queued,
    QueuedUnit,
    QueuedWrite,
    next_in_batch,
    retrieved,
    take_writes,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BATCH = 64
"""Units one transaction takes at most: a bound on how long the first of them waits for its
commit while others keep arriving."""
BATCH_BUDGET = 0.020
"""Seconds a batch's transaction stays open to take more units before it commits: under load
each turn costs a few wake-ups of a busy loop (milliseconds each), so a shorter budget commits
after a unit or two and spends the writer's time on BEGIN and COMMIT instead."""

LOST = "I can't save right now: the database refused the write. Nothing was changed; try again later."
"""What every unit of a batch hears when the batch's transaction as a whole was lost."""

Begun = asyncio.Future[Any] | None
"""A lone transaction's ``BEGIN``, queued and perhaps not run yet; None inside a batch, whose
opening savepoint is queued ahead of every unit's statements."""


def _lost(error: BaseException) -> BaseException:
    """What every unit of a lost batch hears: the database's own error, or words a player reads."""
    return error if isinstance(error, sqlite3.Error | StorageError) else StorageUnavailableError(LOST)


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
    async def transaction(self) -> AsyncIterator[Begun]:
        """The writer for one transaction body: alone (``BEGIN`` … ``COMMIT``), or a unit of a batch.

        Alone, ``BEGIN`` is queued on the writer's thread but not waited for: the body's first
        statement (a read, as a rule) runs right behind it, which saves a trip. Writes wait
        for it (``TransactionSession.writing``), and so does ``COMMIT``.
        """
        task = self._check()
        if self._busy or self._queue:
            async with self._unit(task, savepoint=True):
                yield None
            return
        with self._alone(task):
            begun = asyncio.ensure_future(self._conn.execute("BEGIN IMMEDIATE"))
            try:
                await asyncio.sleep(0)  # the task above queues BEGIN before the body queues anything
                yield begun
                await begun
                await self._conn.execute("COMMIT")
            except BaseException as error:
                await asyncio.gather(begun, return_exceptions=True)  # BEGIN has run (or failed)
                await self._roll_back(error)
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
                    await self._batch()
                except Exception:
                    log.exception("The group writer failed; its batch was rolled back.")
                finally:
                    self._busy = False
                    self._holders.clear()
                self._settle()

    async def _batch(self) -> None:
        """Run the queued units in one transaction, each in its savepoint, and commit once.

        The transaction opens with ``SAVEPOINT batch``, queued ahead of the first unit's
        statements rather than waited for, as ``BEGIN IMMEDIATE`` would have to be: a
        savepoint opened outside a transaction begins a deferred one and cannot fail for want
        of the file's lock, which the batch's first write takes instead (waiting up to the busy
        timeout when another process holds it; only that write fails if it must). Under load
        that saves every batch a trip. ``COMMIT`` ends it, savepoint or not.
        """
        loop = asyncio.get_running_loop()
        first = self._queue.popleft()  # the oldest: shared writes going first never starve a body
        if isinstance(first, QueuedWrite):
            await self._writes([first, *take_writes(self._queue, MAX_BATCH - 1)], [], [], begin=True)
            return
        started = loop.time()
        held: list[Held] = []
        queued: list[asyncio.Future[Any]] = [asyncio.ensure_future(self._conn.execute(OPEN_BATCH))]
        unit: Queued | None = first
        try:
            while unit is not None:
                if isinstance(unit, QueuedWrite):  # shared writes end the batch, sent with its COMMIT
                    run = [unit, *take_writes(self._queue, MAX_BATCH - len(held) - 1)]
                    await self._writes(run, held, queued, begin=False)
                    return
                if isinstance(unit, QueuedUnit):
                    outcome = await self._run_prepared(unit, queued)
                    if isinstance(outcome, BaseException):
                        raise outcome
                    if outcome is not None:
                        held.append(outcome)
                elif not unit.turn.done():  # else cancelled while queued: skip it
                    kept = await self._turn(unit, queued)
                    if isinstance(kept, BaseException):
                        raise kept
                    if kept:
                        held.append((unit.committed, None))
                full = len(held) >= MAX_BATCH or loop.time() - started > BATCH_BUDGET
                unit = next_in_batch(self._queue) if self._queue and not full else None
            await asyncio.gather(*queued)
            await self._conn.execute("COMMIT")
        except BaseException as error:
            await asyncio.gather(*queued, return_exceptions=True)
            await self._roll_back(error)
            lost = _lost(error)
            for future, _ in held:
                if not future.done():  # else settled by _writes before it was cancelled
                    future.set_exception(lost)
            if not isinstance(error, sqlite3.Error | StorageError):
                raise
            return
        self.batches += 1
        self.batched_units += len(held)
        for future, value in held:
            future.set_result(value)

    async def _writes(
        self, run: list[QueuedWrite], held: list[Held], queued: list[asyncio.Future[Any]], *, begin: bool
    ) -> None:
        """Send ``run`` with the batch's ``COMMIT`` (and, with ``begin``, its opening) in one
        trip (:mod:`storage.shared_run`), then settle every unit of the batch: ``held``, whose
        bodies ran before, and the writes."""
        try:
            outcome = await send_run(self._conn, [unit.write for unit in run], begin=begin, after=queued)
        except BaseException as error:  # cancelled (the writer is stopping): tell nobody it was saved
            lost = _lost(error)
            for future in [future for future, _ in held] + [unit.committed for unit in run]:
                if not future.done():
                    future.set_exception(lost)
            raise
        if outcome.lost is not None:
            await self._roll_back(outcome.lost)
            lost = _lost(outcome.lost)
            for future, _ in held:
                future.set_exception(lost)
            for unit, result in zip(run, outcome.results, strict=True):
                unit.committed.set_exception(result if isinstance(result, BaseException) else lost)
            return
        saved = 0
        for unit, result in zip(run, outcome.results, strict=True):
            if isinstance(result, BaseException):
                unit.committed.set_exception(result)
            else:
                saved += 1
                unit.committed.set_result(result)
        for future, value in held:
            future.set_result(value)
        self.batches += 1
        self.batched_units += len(held) + saved

    async def _run_prepared(
        self, unit: QueuedUnit, queued: list[asyncio.Future[Any]]
    ) -> Held | BaseException | None:
        """Send a prepared unit's statements behind its ``SAVEPOINT`` in one trip and check them:
        kept (its caller's future and result), refused (None: undone alone, its caller told
        why), or the error that lost the whole transaction.

        Nobody is handed the connection: no task wakes up to queue the statements or to say it
        is done. ``RELEASE`` (or ``ROLLBACK TO``) is queued, not waited for, and checked with
        the batch's ``COMMIT``, as a body's is.
        """
        opened = asyncio.ensure_future(self._conn.execute("SAVEPOINT unit"))
        sent = send(self._conn, unit.prepared.statements)
        outcomes = await asyncio.gather(opened, *sent, return_exceptions=True)
        failed = outcomes[0] if isinstance(outcomes[0], BaseException) else None
        if failed is not None or not self._conn.in_transaction:
            lost = _lost(failed) if failed is not None else StorageUnavailableError(LOST)
            unit.committed.set_exception(lost)
            return lost
        try:
            result = unit.prepared.finish(list(outcomes[1:]))
        except Exception as refused:
            queued.append(asyncio.ensure_future(self._conn.execute("ROLLBACK TO unit")))
            queued.append(asyncio.ensure_future(self._conn.execute("RELEASE unit")))
            unit.committed.set_exception(refused)
            return None
        queued.append(asyncio.ensure_future(self._conn.execute("RELEASE unit")))
        return (unit.committed, result)

    async def _turn(self, unit: Body, queued: list[asyncio.Future[Any]]) -> bool | BaseException:
        """Give ``unit`` the connection (a transaction body inside its savepoint): whether it
        is kept, or the error that lost the whole transaction.

        A lone repository write takes no savepoint: it is one statement (``Database.writing``),
        which SQLite rolls back alone when it fails, inside a transaction as in autocommit. A
        savepoint costs two more trips to aiosqlite's thread, more than the commit it shares.

        ``SAVEPOINT`` and ``RELEASE`` are queued, not waited for: aiosqlite runs statements
        in order, and a task created now takes its first step (queueing the statement) before
        the unit wakes up to queue its own. Their results are checked before ``COMMIT``.
        """
        savepoint = asyncio.ensure_future(self._conn.execute("SAVEPOINT unit")) if unit.savepoint else None
        self._holders.add(unit.task)
        unit.turn.set_result(None)
        raised = await unit.done
        self._holders.discard(unit.task)
        if raised is None or savepoint is None:
            if savepoint is not None:
                queued.append(savepoint)
                queued.append(asyncio.ensure_future(self._conn.execute("RELEASE unit")))
            if self._conn.in_transaction:
                return raised is None
            lost = raised if isinstance(raised, sqlite3.Error) else StorageUnavailableError(LOST)
            if raised is None:  # the body swallowed an error that ended the whole transaction
                unit.committed.set_exception(lost)
            return lost
        try:
            await savepoint
            await self._conn.execute("ROLLBACK TO unit")
            await self._conn.execute("RELEASE unit")
        except sqlite3.Error as error:
            log.warning(
                "Rolling back one unit of a batch failed; the whole batch is rolled back", exc_info=True
            )
            return raised if isinstance(raised, sqlite3.Error) else error
        if self._conn.in_transaction:
            return False
        return raised if isinstance(raised, sqlite3.Error) else StorageUnavailableError(LOST)

    async def _roll_back(self, cause: BaseException) -> None:
        """Roll back after ``cause``; if even that fails, the original error is the one to report.

        SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
        that fails then must not hide why the transaction failed in the first place.
        """
        try:
            await rollback(self._conn)
        except sqlite3.Error:
            log.warning("ROLLBACK failed after %r", cause, exc_info=True)
