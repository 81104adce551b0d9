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

from datetime import datetime

from storage.session import Session
from storage.sql import Params, execute

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


async def prune_oldest(
    session: Session, table: str, key: str, old: str, params: Params, *, batch: int = PRUNE_BATCH
) -> int:
    """Delete the rows of ``table`` that ``old`` picks, for a table whose primary key ``key``
    grows with time; return how many.

    Each statement looks at the ``batch`` rows of least key only (read through the primary key)
    and deletes those of them that are old; it goes on while a statement deletes any. So a
    prune with nothing old reads one batch, whatever the table's size, and never needs an index
    on the time. A row stamped out of order (two writers' clocks, a stamp taken before waiting
    for the writer) behind a batch of younger ones waits for the next prune, when they are old
    too: it is kept a few hours longer, never deleted early. ``table``, ``key`` and ``old`` are
    the caller's SQL, never user text."""
    sql = f"DELETE FROM {table} WHERE {key} IN (SELECT {key} FROM {table} ORDER BY {key} LIMIT ?) AND {old}"
    deleted = 0
    while True:
        async with session.writing() as conn:
            count = await execute(conn, sql, (batch, *params))
        deleted += count
        if count == 0:
            return deleted
