"""One batch of the one writer (``storage.writer``): its units in one transaction, and what
each caller hears.

The batch opens with ``SAVEPOINT batch`` and runs the queued units in turn, each in its own
savepoint: a body in its caller's task (its *turn*), a prepared unit sent and checked here, and
shared writes last, sent with the ``COMMIT`` that ends the batch. It ends with the queue empty,
:data:`MAX_BATCH` units kept, or :data:`BATCH_BUDGET` spent; only then does anyone's write return.
"""

import asyncio
import logging
import sqlite3
from typing import Any

import aiosqlite

from storage.errors import StorageError, StorageUnavailableError
from storage.prepared import run_all
from storage.shared_run import OPEN_BATCH, send_run
from storage.sql import rollback
from storage.write_queue import Body, Held, Queue, Queued, QueuedUnit, QueuedWrite, next_in_batch, take_writes

log = logging.getLogger(__name__)

MAX_BATCH = 64
"""Units one transaction takes at most: a bound on how long the first of them waits for its
commit while others keep arriving."""
BATCH_BUDGET = 0.020
"""Seconds a batch's transaction stays open to take more units before it commits: under load
each turn costs a few wake-ups of a busy loop (milliseconds each), so a shorter budget commits
after a unit or two and spends the writer's time on opening and committing instead."""

LOST = "I can't save right now: the database refused the write. Nothing was changed; try again later."
"""What every unit of a batch hears when the batch's transaction as a whole was lost."""


def lost_as(error: BaseException) -> BaseException:
    """What every unit of a lost batch hears: the database's own error, or words a player reads."""
    return error if isinstance(error, sqlite3.Error | StorageError) else StorageUnavailableError(LOST)


class Batch:
    """One transaction's worth of the writer's queue (``queue`` and ``holders`` are the writer's)."""

    def __init__(
        self, conn: aiosqlite.Connection, queue: Queue, holders: "set[asyncio.Task[Any] | None]"
    ) -> None:
        self._conn = conn
        self._queue = queue
        self._holders = holders

    async def run(self) -> int | None:
        """Run the queued units in one transaction, each in its savepoint, and commit once;
        how many units were committed, or None when the batch was lost.

        The transaction opens with ``SAVEPOINT batch`` rather than ``BEGIN IMMEDIATE``: a
        savepoint opened outside a transaction begins a deferred one and cannot fail for want
        of the file's lock, which the batch's first write takes instead (waiting for it on
        aiosqlite's thread when another process holds it, ``storage.loop_connection``; only
        that write fails if it must). ``COMMIT`` ends it, savepoint or not.
        """
        loop = asyncio.get_running_loop()
        first = self._queue.popleft()  # the oldest: shared writes going first never starve a body
        if isinstance(first, QueuedWrite):
            return await self._writes([first, *take_writes(self._queue, MAX_BATCH - 1)], [], begin=True)
        started = loop.time()
        held: list[Held] = []
        unit: Queued | None = first
        try:
            await self._conn.execute(OPEN_BATCH)
            while unit is not None:
                if isinstance(unit, QueuedWrite):  # shared writes end the batch, sent with its COMMIT
                    run = [unit, *take_writes(self._queue, MAX_BATCH - len(held) - 1)]
                    return await self._writes(run, held, begin=False)
                if isinstance(unit, QueuedUnit):
                    outcome = await self._run_prepared(unit)
                    if isinstance(outcome, BaseException):
                        raise outcome
                    if outcome is not None:
                        held.append(outcome)
                elif not unit.turn.done():  # else cancelled while queued: skip it
                    kept = await self._turn(unit)
                    if isinstance(kept, BaseException):
                        raise kept
                    if kept:
                        held.append((unit.committed, None))
                full = len(held) >= MAX_BATCH or loop.time() - started > BATCH_BUDGET
                unit = next_in_batch(self._queue) if self._queue and not full else None
            await self._conn.execute("COMMIT")
        except BaseException as error:
            await roll_back(self._conn, error)
            lost = lost_as(error)
            for future, _ in held:
                if not future.done():  # else settled by _writes before it was cancelled
                    future.set_exception(lost)
            if not isinstance(error, sqlite3.Error | StorageError):
                raise
            return None
        for future, value in held:
            future.set_result(value)
        return len(held)

    async def _writes(self, run: list[QueuedWrite], held: list[Held], *, begin: bool) -> int | None:
        """Run ``run`` with the batch's ``COMMIT`` (and, with ``begin``, its opening)
        (:mod:`storage.shared_run`), then settle every unit of the batch: ``held``, whose
        bodies ran before, and the writes."""
        try:
            outcome = await send_run(self._conn, [unit.write for unit in run], begin=begin)
        except BaseException as error:  # cancelled (the writer is stopping): tell nobody it was saved
            lost = lost_as(error)
            for future in [future for future, _ in held] + [unit.committed for unit in run]:
                if not future.done():
                    future.set_exception(lost)
            raise
        if outcome.lost is not None:
            await roll_back(self._conn, outcome.lost)
            lost = lost_as(outcome.lost)
            for future, _ in held:
                future.set_exception(lost)
            for unit, result in zip(run, outcome.results, strict=True):
                unit.committed.set_exception(result if isinstance(result, BaseException) else lost)
            return None
        saved = 0
        for unit, result in zip(run, outcome.results, strict=True):
            if isinstance(result, BaseException):
                unit.committed.set_exception(result)
            else:
                saved += 1
                unit.committed.set_result(result)
        for future, value in held:
            future.set_result(value)
        return len(held) + saved

    async def _run_prepared(self, unit: QueuedUnit) -> Held | BaseException | None:
        """Run a prepared unit's statements inside its ``SAVEPOINT`` and check them: kept (its
        caller's future and result), refused (None: undone alone, its caller told why), or the
        error that lost the whole transaction.

        Nobody is handed the connection: no task wakes up to run the statements or to say it
        is done.
        """
        try:
            await self._conn.execute("SAVEPOINT unit")
            outcomes = await run_all(self._conn, unit.prepared.statements)
            if not self._conn.in_transaction:
                raise StorageUnavailableError(LOST)
            try:
                result = unit.prepared.finish(outcomes)
            except Exception as refused:
                await self._conn.execute("ROLLBACK TO unit")
                await self._conn.execute("RELEASE unit")
                unit.committed.set_exception(refused)
                return None
            await self._conn.execute("RELEASE unit")
        except BaseException as error:
            return told_lost(unit.committed, error)
        return (unit.committed, result)

    async def _turn(self, unit: Body) -> bool | BaseException:
        """Give ``unit`` the connection (a transaction body inside its savepoint): whether it
        is kept, or the error that lost the whole transaction.

        A lone repository write takes no savepoint: it is one statement (``Database.writing``),
        which SQLite rolls back alone when it fails, inside a transaction as in autocommit.
        """
        if unit.savepoint:
            try:
                await self._conn.execute("SAVEPOINT unit")
            except BaseException as error:
                return told_lost(unit.turn, error)
            if unit.turn.done():  # cancelled while its savepoint opened
                await self._conn.execute("RELEASE unit")
                return False
        self._holders.add(unit.task)
        unit.turn.set_result(None)
        raised = await unit.done
        self._holders.discard(unit.task)
        if raised is None or not unit.savepoint:
            if unit.savepoint:
                try:
                    await self._conn.execute("RELEASE unit")
                except sqlite3.Error as error:
                    unit.committed.set_exception(lost_as(error))
                    return error
            if self._conn.in_transaction:
                return raised is None
            lost = raised if isinstance(raised, sqlite3.Error) else StorageUnavailableError(LOST)
            if raised is None:  # the body swallowed an error that ended the whole transaction
                unit.committed.set_exception(lost)
            return lost
        try:
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


def told_lost(caller: "asyncio.Future[Any]", error: BaseException) -> BaseException:
    """Tell ``caller`` that nothing of its unit was saved (unless it was told already), and
    return what it heard. A cancellation (the writer stopping) goes on up once it is told, so
    nobody waits forever for a batch that will never commit."""
    lost = lost_as(error)
    if not caller.done():
        caller.set_exception(lost)
    if not isinstance(error, Exception):
        raise error
    return lost


async def roll_back(conn: aiosqlite.Connection, cause: BaseException) -> None:
    """Roll back after ``cause``; if even that fails, the original error is the one to report.

    SQLite rolls back by itself on some errors (a full disk, an I/O error); a ROLLBACK
    that fails then must not hide why the transaction failed in the first place.
    """
    try:
        await rollback(conn)
    except sqlite3.Error:
        log.warning("ROLLBACK failed after %r", cause, exc_info=True)
