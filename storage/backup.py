"""A consistent copy of the live database, taken while the bot runs.

Copying the file with ``cp`` loses what still sits in the write-ahead log (every commit since the
last checkpoint) and may catch a page half-written. SQLite's online backup API copies the
database as one committed snapshot, WAL included, page by page, without stopping writers for
long. The copy is written under a temporary name and renamed when complete, so a crash halfway
never leaves a truncated file under the name asked for.
"""

import asyncio
import os
import sqlite3
from pathlib import Path

from storage.database import PRIVATE_FILE

PAGES_PER_STEP = 1024
"""Pages copied per step; between steps writers may commit (the copy then restarts its pass)."""


def backup_file(source: Path, target: Path) -> None:
    """Copy the database at `source` to `target` (mode 0600), atomically."""
    if not source.exists():
        raise FileNotFoundError(f"No database at {source}")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_CREAT | os.O_RDWR, PRIVATE_FILE))
    live, copy = sqlite3.connect(source), sqlite3.connect(partial)
    try:
        live.execute("PRAGMA busy_timeout = 5000")
        live.backup(copy, pages=PAGES_PER_STEP)
        copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
    finally:
        live.close()
        copy.close()
    os.replace(partial, target)


async def backup(source: Path, target: Path) -> None:
    """:func:`backup_file` in a worker thread, so the bot keeps answering meanwhile."""
    await asyncio.to_thread(backup_file, source, target)
