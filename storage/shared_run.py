"""A run of shared writes run by the writer with their ``COMMIT``, and what came of it.

The one writer (``storage.writer``) takes shared writes (``storage.sql.Statement``) as data
and runs a run of them one after another, with the batch's ``COMMIT`` behind them and, when
they open the batch, its opening savepoint ahead; nobody else's task is woken to run its own.
What the outcome means:

- ``COMMIT`` succeeded: everything in the transaction is saved. A write that failed by itself
  (a constraint) was undone alone by SQLite, and its caller gets its error;
- the batch could not be opened: no transaction was open, so each write ran alone in
  autocommit and its own outcome is final; the ``COMMIT`` had nothing to commit. (It opens
  with a savepoint, which does not wait for the file's lock: the writes do, each up to the busy
  timeout when another process holds it, and each fails alone if it must);
- otherwise the transaction as a whole was lost (a full disk, an I/O error): the caller rolls
  it back, and nobody is told a write was saved.
"""

from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from storage.sql import Statement, in_order, run_statement

OPEN_BATCH = "SAVEPOINT batch"
"""How a batch's transaction begins: a savepoint outside a transaction begins a deferred one
(``storage.write_batch.Batch.run`` says why)."""


@dataclass(frozen=True, slots=True)
class RunOutcome:
    results: list[Any]
    """Each write's new row id or count of rows changed, or the error it failed with by itself."""
    lost: BaseException | None
    """Why the transaction as a whole was lost (nothing of it was saved), or None."""


async def send_run(conn: aiosqlite.Connection, writes: Sequence[Statement], *, begin: bool) -> RunOutcome:
    """Run ``writes`` and ``COMMIT`` (and, with ``begin``, the batch's opening first), in order."""
    steps: list[Awaitable[Any]] = [conn.execute(OPEN_BATCH)] if begin else []
    steps += [run_statement(conn, write) for write in writes]
    steps.append(conn.execute("COMMIT"))
    everything = await in_order(steps)
    began = everything[0] if begin else None
    results, committed = everything[begin:-1], everything[-1]
    if isinstance(began, BaseException):
        return RunOutcome(results, None)
    if isinstance(committed, BaseException):
        return RunOutcome(results, committed)
    return RunOutcome(results, None)
