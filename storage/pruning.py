"""Deleting old rows a batch at a time, so no prune holds the writer (or the loop) for long.

On SQLite the writer answers on the event loop's own thread (``storage.loop_connection``): one
``DELETE`` of 30,000 rows held it for half a second, and every interaction on every server with
it. A batch of :data:`PRUNE_BATCH` rows takes a few milliseconds; each batch is its own
statement, so other writes (a roll, a Conflict move) get the writer in between.
"""

from storage.session import Session
from storage.sql import Params, execute

PRUNE_BATCH = 500
"""Rows deleted per statement: short enough that a roll waiting for the writer barely notices."""


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
