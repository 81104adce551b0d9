"""Group commit: concurrent writes share one ``COMMIT`` on the one writer connection.

A roll is logged before its reply, so every write used to pay a whole commit (and its trips
to aiosqlite's thread) alone, one after another behind a lock. Here writes still run one at a
time on one connection, but those that queue up while the writer is busy run together in ONE
``BEGIN IMMEDIATE … COMMIT``, each inside its own ``SAVEPOINT``:

- a **unit** is one repository write (``Database.writing``) or one ``Storage.transaction()``
  body. Bodies are the callers' own async code (reads and writes interleaved with awaits), so
  a unit runs in its caller's task: the writer hands it the connection (its *turn*), waits
  until the body ends, and hands the connection to the next unit of the same transaction;
- statements declared *shared* (one statement depending on no read: a roll's log entry) get
  their turns together, wherever they wait in the queue (:meth:`GroupWriter._take_shared`):
  each is atomic by itself, aiosqlite runs them in order, and a busy loop's wake-ups (several
  per turn, each behind everything else the loop has queued) no longer add up one write after
  another. Any other write keeps the connection to itself for its turn (a count before an
  insert, a repository's own savepoint);
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
from typing import Any

import aiosqlite

from storage.errors import StorageError, StorageUnavailableError
from storage.sql import rollback

log = logging.getLogger(__name__)

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
``BEGIN`` has run before any unit's turn."""


class _Unit:
    """One caller's write: its turn on the connection, how its body ended, its commit."""

    __slots__ = ("committed", "done", "savepoint", "shared", "task", "turn")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, task: "asyncio.Task[Any] | None", savepoint: bool, shared: bool
    ) -> None:
        self.task = task
        self.savepoint = savepoint
        """A transaction body runs in a savepoint; a lone statement is atomic by itself."""
        self.shared = shared
        """One statement that depends on no read: it may run beside others like it."""
        self.turn: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[BaseException | None] = loop.create_future()
        """What the body raised (or what kept it from running), None when it ended normally."""
        self.committed: asyncio.Future[None] = loop.create_future()


class GroupWriter:
    """The one writer connection, handed to one unit at a time, committing them in batches."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._queue: deque[_Unit] = deque()
        self._busy = False
        self._holders: set[asyncio.Task[Any] | None] = set()
        """Tasks holding the connection now: one, or a run of lone statements (see ``_statements``)."""
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
    async def statement(self, *, shared: bool = False) -> AsyncIterator[aiosqlite.Connection]:
        """The writer for one repository call: alone in autocommit, or a unit of a batch.

        ``shared``: the block is ONE statement that depends on nothing it read, so in a batch
        it gets its turn together with the shared statements queued next to it.
        """
        task = self._check()
        if self._busy or self._queue:
            async with self._unit(task, savepoint=False, shared=shared):
                yield self._conn
            return
        with self._alone(task):
            yield self._conn

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Begun]:
        """The writer for one transaction body: alone (``BEGIN`` … ``COMMIT``), or a unit of a batch.

        Alone, ``BEGIN`` is queued on the writer's thread but not waited for: the body's first
        statement (a read, as a rule) runs right behind it, which saves a trip. Writes wait
        for it (``TransactionSession.writing``), and so does ``COMMIT``.
        """
        task = self._check()
        if self._busy or self._queue:
            async with self._unit(task, savepoint=True, shared=False):
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
    async def _unit(
        self, task: "asyncio.Task[Any] | None", *, savepoint: bool, shared: bool
    ) -> AsyncIterator[None]:
        """Queue, wait for the turn, run the body, and return only once its batch committed."""
        unit = _Unit(asyncio.get_running_loop(), task, savepoint, shared)
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
        """Run the queued units in one transaction, each in its savepoint, and commit once."""
        loop = asyncio.get_running_loop()
        first = self._queue.popleft()
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            await self._roll_back(error)
            if not first.turn.done():
                first.turn.set_exception(error)  # it waited the busy timeout; the next unit tries anew
            return
        started = loop.time()
        held: list[_Unit] = []
        queued: list[asyncio.Future[Any]] = []
        unit: _Unit | None = first
        try:
            while unit is not None:
                if unit.shared:
                    run = [unit, *self._take_shared(MAX_BATCH - len(held) - 1)]
                    if (lost := await self._statements(run, held)) is not None:
                        raise lost
                elif not unit.turn.done():  # else cancelled while queued: skip it
                    kept = await self._turn(unit, queued)
                    if isinstance(kept, BaseException):
                        raise kept
                    if kept:
                        held.append(unit)
                full = len(held) >= MAX_BATCH or loop.time() - started > BATCH_BUDGET
                unit = self._queue.popleft() if self._queue and not full else None
            await asyncio.gather(*queued)
            await self._conn.execute("COMMIT")
        except BaseException as error:
            await asyncio.gather(*queued, return_exceptions=True)
            await self._roll_back(error)
            lost = error if isinstance(error, sqlite3.Error | StorageError) else StorageUnavailableError(LOST)
            for gone in held:
                gone.committed.set_exception(lost)
            if not isinstance(error, sqlite3.Error | StorageError):
                raise
            return
        self.batches += 1
        self.batched_units += len(held)
        for done in held:
            done.committed.set_result(None)

    def _take_shared(self, limit: int) -> list[_Unit]:
        """Up to ``limit`` shared statements out of the queue, ahead of the other units.

        Safe to move forward: a shared statement depends on nothing it read, and whatever its
        caller depends on was committed before it asked (the units it passes are not visible
        to anyone yet). It spares a busy loop one wake-up per shared statement.
        """
        taken = [unit for unit in self._queue if unit.shared][: max(0, limit)]
        if taken:
            chosen = set(map(id, taken))
            self._queue = deque(unit for unit in self._queue if id(unit) not in chosen)
        return taken

    async def _statements(self, run: list[_Unit], held: list[_Unit]) -> BaseException | None:
        """Give a run of shared statements the connection all at once; None, or the error that
        lost the whole transaction.

        Each is one statement that depends on no read (``Database.writing(shared=True)``),
        atomic by itself, and aiosqlite runs them in the order they were sent, so they need not
        wait for each other: the run costs
        the loop a few wake-ups in all, not a few per write, which is what held a busy bot's
        writes back (each wake-up waits behind everything else the loop has to do).
        """
        live = [unit for unit in run if not unit.turn.done()]  # the others were cancelled while queued
        for unit in live:
            self._holders.add(unit.task)
            unit.turn.set_result(None)
        outcomes = await asyncio.gather(*(unit.done for unit in live))
        for unit in live:
            self._holders.discard(unit.task)
        if not self._conn.in_transaction:
            errors = [raised for raised in outcomes if isinstance(raised, sqlite3.Error)]
            lost = errors[0] if errors else StorageUnavailableError(LOST)
            for unit, raised in zip(live, outcomes, strict=True):
                if raised is None:
                    unit.committed.set_exception(lost)
            return lost
        held.extend(unit for unit, raised in zip(live, outcomes, strict=True) if raised is None)
        return None

    async def _turn(self, unit: _Unit, queued: list[asyncio.Future[Any]]) -> bool | BaseException:
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
