"""A run of shared writes sent to SQLite in one go with their ``COMMIT``, and what came of it.

The one writer (``storage.writer``) takes shared writes (``storage.sql.Statement``) as data
and sends a run of them to aiosqlite's thread back to back, with the batch's ``COMMIT`` behind
them and, when they open the batch, its opening savepoint ahead. aiosqlite runs statements in
the order they were sent, so nothing waits for anything but the last of them: one trip to the
database for the whole run. What the outcome means:

- ``COMMIT`` succeeded: everything in the transaction is saved. A write that failed by itself
  (a constraint) was undone alone by SQLite, and its caller gets its error;
- the batch could not be opened: no transaction was open, so each write ran alone in
  autocommit and its own outcome is final; the ``COMMIT`` had nothing to commit. (It opens
  with a savepoint, which does not wait for the file's lock: the writes do, each up to the busy
  timeout when another process holds it, and each fails alone if it must);
- otherwise the transaction as a whole was lost (a full disk, an I/O error): the caller rolls
  it back, and nobody is told a write was saved.
"""

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from storage.sql import Statement, run_statement

log = logging.getLogger(__name__)

OPEN_BATCH = "SAVEPOINT batch"
"""How a batch's transaction begins: a savepoint outside a transaction begins a deferred one
(``storage.write_batch.Batch.run`` says why)."""


@dataclass(frozen=True, slots=True)
class RunOutcome:
    results: list[Any]
    """Each write's new row id or count of rows changed, or the error it failed with by itself."""
    lost: BaseException | None
    """Why the transaction as a whole was lost (nothing of it was saved), or None."""


async def send_run(
    conn: aiosqlite.Connection,
    writes: Sequence[Statement],
    *,
    begin: bool,
    after: Sequence["asyncio.Future[Any]"] = (),
) -> RunOutcome:
    """Send ``writes`` and ``COMMIT`` (and, with ``begin``, the batch's opening first) in one go.

    ``after``: statements of the same transaction already sent (its savepoints), whose outcome
    is waited for with the run's. Cancelling this cancels the wait, not what was sent.
    """
    steps: list[Awaitable[Any]] = [conn.execute(OPEN_BATCH)] if begin else []
    steps += [run_statement(conn, write) for write in writes]
    steps.append(conn.execute("COMMIT"))
    sent = [asyncio.ensure_future(step) for step in steps]  # started, and so sent, in this order
    everything = await asyncio.gather(*after, *sent, return_exceptions=True)
    earlier = everything[: len(after)]
    began = everything[len(after)] if begin else None
    results, committed = everything[len(after) + begin : -1], everything[-1]
    if isinstance(began, BaseException):
        return RunOutcome(results, None)
    if isinstance(committed, BaseException):
        return RunOutcome(results, committed)
    if any(isinstance(raised, BaseException) for raised in earlier):
        log.warning("A savepoint of a committed batch failed: %r", earlier)
    return RunOutcome(results, None)
