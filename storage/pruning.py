"""Deleting old rows a batch at a time, so no prune holds the writer (or the loop) for long.

On SQLite the writer answers on the event loop's own thread (``storage.loop_connection``): one
``DELETE`` of 30,000 rows held it for half a second, and every interaction on every server with
it. A batch of :data:`PRUNE_BATCH` rows takes a few milliseconds; each batch is its own
statement, so other writes (a roll, a Conflict move) get the writer in between.

The tables every roll writes (the roll log, the journal, the handled interactions) have no index
on their time: each index is more B-tree pages written by every roll, for a prune that runs
every few hours. Their primary key orders them by time instead, so a prune walks it from the
oldest row (:func:`prune_oldest`, :func:`snowflake_before`).
"""

from dataclasses import dataclass
from datetime import datetime

from storage.session import Session
from storage.sql import Params, Statement, execute, is_postgres, run_statement, savepoint

PRUNE_BATCH = 500
"""Rows deleted per statement: short enough that a roll waiting for the writer barely notices."""

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord's epoch (2015-01-01 UTC): a snowflake's top bits count milliseconds since it."""


def snowflake_before(moment: datetime) -> int:
    """The least Discord snowflake made at ``moment`` or later: every id below it was made
    before ``moment`` (an id's bits above the 22nd are its creation time)."""
    ms = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
    return max(ms, 0) << 22


async def prune_in_batches(
    session: Session,
    table: str,
    key: str,
    where: str,
    params: Params,
    *,
    order: str = "",
    batch: int = PRUNE_BATCH,
) -> int:
    """Delete the rows of ``table`` that ``where`` picks, ``batch`` at a time (the oldest first
    when ``order`` names a column); return how many. ``table``, ``key``, ``where`` and ``order``
    are the caller's SQL, never user text."""
    ordered = f" ORDER BY {order}" if order else ""
    sql = f"DELETE FROM {table} WHERE {key} IN (SELECT {key} FROM {table} WHERE {where}{ordered} LIMIT ?)"
    deleted = 0
    while True:
        async with session.writing() as conn:
            count = await execute(conn, sql, (*params, batch))
        deleted += count
        if count < batch:
            return deleted


@dataclass(frozen=True)
class Fold:
    """Totals a prune keeps of the rows it deletes: each batch adds its rows to ``into``, grouped
    by ``by``, in the same unit as the delete, so a row is counted there exactly when it has left
    its table (the roll log's fairness totals, ``storage.rolls``). ``sums`` gives ``into``'s
    other columns, in order, as aggregates of the deleted rows; each is added to what is there.

    On SQLite the sums are read and the rows deleted in one savepoint on the one writer; on
    PostgreSQL in one statement that locks the batch's rows first, so two processes pruning at
    once never both count a row (the second finds it gone and skips it).
    """

    into: str
    by: tuple[str, ...]
    sums: tuple[tuple[str, str], ...]
    """(column of ``into``, aggregate of the deleted rows that is added to it)."""

    def insert(self, table: str, rows: str) -> str:
        """Add the sums over ``table``'s rows that ``rows`` picks to ``into``."""
        by = ", ".join(self.by)
        aggregates = ", ".join(aggregate for _, aggregate in self.sums)
        added = ", ".join(f"{column} = t.{column} + excluded.{column}" for column, _ in self.sums)
        return (
            f"INSERT INTO {self.into} AS t SELECT {by}, {aggregates} FROM {table} WHERE {rows}"
            f" GROUP BY {by} ON CONFLICT ({by}) DO UPDATE SET {added}"
        )


async def prune_oldest(
    session: Session,
    table: str,
    key: str,
    old: str,
    params: Params,
    *,
    batch: int = PRUNE_BATCH,
    fold: Fold | None = None,
) -> int:
    """Delete the rows of ``table`` that ``old`` picks, for a table whose primary key ``key``
    grows with time; return how many.

    Each statement looks at the ``batch`` rows of least key only (read through the primary key)
    and deletes those of them that are old; it goes on while a statement deletes any. So a
    prune with nothing old reads one batch, whatever the table's size, and never needs an index
    on the time. A row stamped out of order (two writers' clocks, a stamp taken before waiting
    for the writer) behind a batch of younger ones waits for the next prune, when they are old
    too: it is kept a few hours longer, never deleted early. ``table``, ``key`` and ``old`` are
    the caller's SQL, never user text. ``fold``: totals kept of what is deleted (:class:`Fold`)."""
    rows = f"{key} IN (SELECT {key} FROM {table} ORDER BY {key} LIMIT ?) AND {old}"
    sql = f"DELETE FROM {table} WHERE {rows}"
    deleted = 0
    while True:
        async with session.writing() as conn:
            if fold is None:
                count = await execute(conn, sql, (batch, *params))
            elif is_postgres(conn):
                locked = f"WITH batch AS (SELECT {key} FROM {table} WHERE {rows} FOR UPDATE),"
                added = fold.insert(table, f"{key} IN (SELECT {key} FROM batch)")
                gone = f" DELETE FROM {table} WHERE {key} IN (SELECT {key} FROM batch)"
                count = await execute(conn, f"{locked} folded AS ({added}){gone}", (batch, *params))
            else:
                async with savepoint(conn, "prune_fold"):
                    await run_statement(conn, Statement(fold.insert(table, rows), (batch, *params)))
                    count = await execute(conn, sql, (batch, *params))
        deleted += count
        if count == 0:
            return deleted
