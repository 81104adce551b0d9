"""Faults of the database file, made with SQLite's own switches on the bot's writer connection.

Both faults must land on the ONE connection the bot writes through (``Database`` keeps it
private on purpose, so product code cannot bypass its queue); these helpers take it through
``Database.writing``, so a fault never lands in the middle of somebody's transaction.

* Disk full: ``PRAGMA max_page_count`` set to the current page count. SQLite then answers any
  write that needs a new page with SQLITE_FULL ("database or disk is full"), exactly as when the
  file system has no room left. A write that fits in free space inside existing pages still
  succeeds (so does a real one on a full disk), hence :func:`fill_disk`.
* Read-only: ``PRAGMA query_only = ON``, a stand-in for a file system remounted read-only or a
  file whose permissions were taken away. Every write then fails with SQLITE_READONLY
  ("attempt to write a readonly database"), the same code SQLite gives for a read-only file.
  (Changing the file's mode would not do: SQLite keeps its open descriptor, and the tests may
  run as root, whom permissions do not stop.)
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from storage import RollRecord, Storage
from storage.errors import StorageUnavailableError
from storage.sql import fetch_one

MAX_FILLER_ROWS = 20_000


async def _pragma(storage: Storage, pragma: str) -> int | None:
    database = storage.sqlite
    async with database.writing() as writer:  # the writer, alone; see the module docstring
        row = await fetch_one(writer, f"PRAGMA {pragma}")
    return None if row is None else int(row[0])


@asynccontextmanager
async def disk_full(storage: Storage) -> AsyncIterator[None]:
    """The database may not grow by one page inside the block."""
    before = await _pragma(storage, "max_page_count")
    pages = await _pragma(storage, "page_count")
    await _pragma(storage, f"max_page_count = {pages}")
    try:
        yield
    finally:
        await _pragma(storage, f"max_page_count = {before}")


@asynccontextmanager
async def read_only(storage: Storage) -> AsyncIterator[None]:
    """Every write on the bot's writer fails with SQLITE_READONLY inside the block."""
    await _pragma(storage, "query_only = ON")
    try:
        yield
    finally:
        await _pragma(storage, "query_only = OFF")


def filler_roll(guild_id: int, user_id: int) -> RollRecord:
    """The smallest roll-log row one user can have: whatever that user rolls next is bigger."""
    return RollRecord(
        guild_id=guild_id,
        user_id=user_id,
        at=datetime.now(UTC),
        label="",
        dice=0,
        free_nudges=0,
        underflow=0,
        difficulty=0,
        faces=(),
        result=0,
        outcome=0,
        success=False,
    )


async def fill_disk(storage: Storage, guild_id: int, user_id: int) -> int:
    """Inside :func:`disk_full`, use up the room left in the pages ``user_id``'s next roll needs.

    Table rows and both roll-log indexes grow at their right-hand end for one user, so once the
    smallest possible row for that user no longer fits (three times running), that user's next
    real roll cannot fit either. Returns how many filler rows went in.
    """
    added = refused = 0
    for _ in range(MAX_FILLER_ROWS):
        try:
            await storage.rolls.append(filler_roll(guild_id, user_id))
        except StorageUnavailableError:
            refused += 1
            if refused == 3:
                return added
        else:
            added, refused = added + 1, 0
    raise AssertionError(f"the disk never filled up after {MAX_FILLER_ROWS} rows")
