import asyncio
import signal
from pathlib import Path

from storage import Storage
from storage.sql import fetch_all
from tests.support import integrity, start_test_module

BATCHES_BEFORE_KILL = 30


async def test_killed_writer_keeps_every_committed_row(db_path: Path) -> None:
    proc = await start_test_module("tests.storage.crash_writer", str(db_path))
    assert proc.stdout is not None
    committed: list[int] = []
    try:
        for _ in range(BATCHES_BEFORE_KILL):
            line = await asyncio.wait_for(proc.stdout.readline(), 20)
            assert line, "the writer exited early"
            committed += map(int, line.split())
    finally:
        proc.send_signal(signal.SIGKILL)
        rest = await asyncio.wait_for(proc.stdout.read(), 20)
        await proc.wait()
    committed += map(int, rest.split())  # Printed before the kill landed: committed too.
    assert proc.returncode == -signal.SIGKILL
    assert len(committed) >= BATCHES_BEFORE_KILL * 5

    async with await Storage.open(db_path) as storage:
        assert await integrity(storage) == [("ok",)]
        rows = await fetch_all(storage.database.reader, "SELECT id FROM roll_log")
        present = {int(row["id"]) for row in rows}
        assert set(committed) <= present
        # Whole transactions only: every batch of five is all there or all gone.
        assert len(present) % 5 == 0
