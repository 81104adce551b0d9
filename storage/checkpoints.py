"""Checkpoints of the WAL, run off the event loop.

In WAL mode a commit appends to the ``-wal`` file; a checkpoint copies those pages back into
the database file and syncs both. That sync is the one slow disk operation left with
``synchronous = NORMAL``, and by default the commit that crosses 1,000 pages runs it. The
writer runs on the loop's thread (``storage.loop_connection``), so it must never run one: it is
opened with ``wal_autocheckpoint = 0``, and this task runs a PASSIVE checkpoint every
:data:`EVERY` seconds on a connection of its own, in aiosqlite's thread, whenever the writer
has changed anything since the last one. PASSIVE never waits for readers or the writer: it
copies what it can, and the next one copies the rest. The WAL file's size is bounded by what a
second of writes adds (a few MB at 500 interactions/s), and the file restarts from its
beginning once a checkpoint has copied it all.
"""

import asyncio
import contextlib
import logging
import sqlite3
from pathlib import Path
from typing import Protocol

import aiosqlite

from storage.loop_connection import WAIT_MS

log = logging.getLogger(__name__)

EVERY = 1.0
"""Seconds between checkpoints, when something was written."""


class Changes(Protocol):
    """The writer, as the checkpointer watches it: how many rows it has changed so far."""

    @property
    def total_changes(self) -> int: ...


class Checkpointer:
    """Copies the WAL back into the database file every :data:`EVERY` seconds, off the loop."""

    def __init__(self, conn: aiosqlite.Connection, writer: Changes, every: float = EVERY) -> None:
        self._conn = conn
        self._writer = writer
        self._every = every
        self._task: asyncio.Task[None] | None = None
        self._seen = -1
        self.done = 0
        """Checkpoints run so far (for the tests)."""

    @classmethod
    async def open(cls, path: Path, writer: Changes, every: float = EVERY) -> "Checkpointer":
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {WAIT_MS}")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, writer, every)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="sqlite-checkpoints")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            await self.checkpoint()

    async def checkpoint(self) -> tuple[int, int] | None:
        """One PASSIVE checkpoint, if the writer changed anything since the last one: the WAL's
        frames and how many of them are now copied back (None when there was nothing to do)."""
        changes = self._writer.total_changes
        if changes == self._seen:
            return None
        try:
            async with self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
                row = await cursor.fetchone()
        except sqlite3.Error:
            log.warning("A WAL checkpoint failed; the next one will copy what it left", exc_info=True)
            return None
        self._seen = changes
        self.done += 1
        return (0, 0) if row is None else (int(row[1]), int(row[2]))

    async def close(self) -> None:
        """Stop checkpointing and close the connection (the writer's close checkpoints last)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._conn.close()
