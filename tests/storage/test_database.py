import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import DEFAULT_DB_PATH, GuildSettings, Storage

NARRATORS = GuildSettings(narrator_role_ids=(5,), gm_channel_id=9)


def test_default_path_is_under_data() -> None:
    assert Path("data/mistborn.sqlite3") == DEFAULT_DB_PATH


async def test_open_creates_the_parent_folder(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "bot.sqlite3"
    async with await Storage.open(path):
        pass
    assert path.exists()


async def test_close_twice_is_harmless(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    await storage.close()
    await storage.close()


async def test_a_transaction_commits_all_or_nothing(storage: Storage) -> None:
    with pytest.raises(KeyError):
        async with storage.transaction() as tx:
            await tx.settings.set(1, NARRATORS)
            await tx.conflicts.create(1, 100, "{}")
            assert await tx.settings.get(1) == NARRATORS
            raise KeyError("boom")
    assert await storage.settings.get(1) == GuildSettings()
    assert await storage.conflicts.get(1, 100) is None

    async with storage.transaction() as tx:
        await tx.settings.set(1, NARRATORS)
        await tx.conflicts.create(1, 100, "{}")
    assert await storage.settings.get(1) == NARRATORS
    assert await storage.conflicts.get(1, 100) is not None


async def test_other_readers_never_see_uncommitted_writes(storage: Storage) -> None:
    written = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with storage.transaction() as tx:
            await tx.settings.set(1, NARRATORS)
            written.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await asyncio.wait_for(written.wait(), 5)
    assert await storage.settings.get(1) == GuildSettings()
    release.set()
    await asyncio.wait_for(task, 5)
    assert await storage.settings.get(1) == NARRATORS


@pytest.mark.sqlite_only  # SQLite's one writer and its read-only reader
async def test_a_nested_transaction_raises_instead_of_deadlocking(storage: Storage) -> None:
    async with storage.transaction() as tx:
        await tx.settings.set(1, NARRATORS)
        with pytest.raises(RuntimeError, match="already open"):
            await storage.settings.set(2, NARRATORS)
    assert await storage.settings.get(1) == NARRATORS


async def test_a_cancelled_transaction_rolls_back_and_frees_the_lock(storage: Storage) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with storage.transaction() as tx:
            await tx.settings.set(1, NARRATORS)
            started.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(slow())
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await storage.settings.get(1) == GuildSettings()
    await asyncio.wait_for(storage.settings.set(2, NARRATORS), 5)
    assert await storage.settings.get(2) == NARRATORS


async def test_cancelling_right_after_begin_leaves_no_open_transaction(storage: Storage) -> None:
    for delay in range(20):

        async def body() -> None:
            async with storage.transaction() as tx:
                await tx.settings.set(1, NARRATORS)

        task = asyncio.create_task(body())
        for _ in range(delay):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.wait_for(storage.settings.set(2, NARRATORS), 5)


@pytest.mark.sqlite_only  # SQLite's one writer and its read-only reader
async def test_waits_for_another_process_holding_the_write_lock(storage: Storage, db_path: Path) -> None:
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(0.3, other.execute, "COMMIT")
        await asyncio.wait_for(storage.settings.set(1, NARRATORS), 5)
    finally:
        other.close()
    assert await storage.settings.get(1) == NARRATORS


@pytest.mark.sqlite_only  # SQLite's one writer and its read-only reader
async def test_reader_connection_refuses_writes(storage: Storage) -> None:
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        await storage.sqlite.reader.execute("DELETE FROM guild_settings")
