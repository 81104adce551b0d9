"""The one writer (``storage.database``) and the pool of readers.

Writes queued behind a busy writer run one after another, in order: a unit that raises leaves
nothing and the others commit; each unit sees the ones before it; a queued write cancelled
never runs; a ``kill -9`` among many writers leaves only whole units, and every unit a caller
saw returned. A slow read holds no other.
"""

import asyncio
import signal
import sqlite3
import threading
from pathlib import Path

import pytest

from rules.character import CharacterKind, make_character
from storage import GuildSettings, Storage
from storage.errors import AlreadyExistsError, DatabaseBusyError
from storage.sql import fetch_all, fetch_one
from tests.storage.group_crash_writer import ROWS_PER_UNIT
from tests.storage.group_crash_writer import record as roll
from tests.support import integrity, start_test_module

pytestmark = pytest.mark.sqlite_only  # SQLite's one writer and its pool of readers

UNITS_BEFORE_KILL = 300


class Refused(Exception):
    pass


async def hold_writer(storage: Storage) -> tuple[asyncio.Task[None], asyncio.Event, asyncio.Event]:
    """A transaction that keeps the writer until released, so that the writes after it queue."""
    holding, release = asyncio.Event(), asyncio.Event()

    async def body() -> None:
        async with storage.transaction() as tx:
            await tx.settings.set(999, GuildSettings(gm_channel_id=999))
            holding.set()
            await release.wait()

    task = asyncio.create_task(body())
    await asyncio.wait_for(holding.wait(), 5)
    return task, holding, release


async def queued(storage: Storage, count: int) -> None:
    """Wait until ``count`` writes are queued for the writer."""
    for _ in range(1000):
        if storage.database.waiting >= count:
            return
        await asyncio.sleep(0.001)
    raise AssertionError(f"only {storage.database.waiting} writes queued, expected {count}")


async def test_a_failing_unit_is_rolled_back_alone_and_the_others_commit(storage: Storage) -> None:
    blocker, _, release = await hold_writer(storage)

    async def lone(guild_id: int) -> None:
        await storage.settings.set(guild_id, GuildSettings(gm_channel_id=guild_id))

    async def failing() -> None:
        async with storage.transaction() as tx:
            await tx.settings.set(50, GuildSettings(gm_channel_id=50))
            await tx.conflicts.create(50, 500, "{}")
            raise Refused

    async def pair(guild_id: int) -> None:
        async with storage.transaction() as tx:
            await tx.settings.set(guild_id, GuildSettings(gm_channel_id=guild_id))
            await tx.conflicts.create(guild_id, guild_id * 10, "{}")

    tasks = [asyncio.create_task(lone(g)) for g in range(1, 6)]
    tasks.append(asyncio.create_task(failing()))
    tasks += [asyncio.create_task(pair(g)) for g in range(6, 11)]
    await queued(storage, len(tasks))
    release.set()
    results = await asyncio.gather(blocker, *tasks, return_exceptions=True)

    assert [type(r) for r in results].count(Refused) == 1
    assert [r for r in results if not isinstance(r, Refused)] == [None] * 11
    for guild_id in range(1, 11):
        assert await storage.settings.get(guild_id) == GuildSettings(gm_channel_id=guild_id)
    for guild_id in range(6, 11):
        assert await storage.conflicts.get(guild_id, guild_id * 10) is not None
    assert await storage.settings.get(50) == GuildSettings()
    assert await storage.conflicts.get(50, 500) is None


async def test_a_failing_lone_write_among_lone_writes_changes_nothing_else(storage: Storage) -> None:
    await storage.characters.create(1, make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1))
    blocker, _, release = await hold_writer(storage)
    names = ["Kelsier", "Vin", "Sazed", "Elend"]  # "Vin" is taken: that write alone fails
    tasks = [
        asyncio.create_task(
            storage.characters.create(1, make_character(name=name, kind=CharacterKind.HERO, owner_id=1))
        )
        for name in names
    ]
    await queued(storage, len(tasks))
    release.set()
    results = await asyncio.gather(blocker, *tasks, return_exceptions=True)
    assert isinstance(results[2], AlreadyExistsError)
    assert [r for r in results if isinstance(r, BaseException)] == [results[2]]
    kept = await storage.characters.summaries(1)
    assert sorted(c.name for c in kept) == ["Elend", "Kelsier", "Sazed", "Vin"]


async def test_shared_writes_facing_another_process_lock_are_each_refused_as_busy(
    storage: Storage, db_path: Path
) -> None:
    """Another process holds the file's write lock past the busy timeout: each write of the
    batch waits it out and fails alone, and every caller hears "busy"; nothing is saved."""
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        storage.sqlite.writer.wait_ms = 50  # not 5 s, so the test stays fast
        async with storage.sqlite.writing():  # holds the writer while the writes queue
            other.execute("BEGIN IMMEDIATE")
            tasks = [asyncio.create_task(storage.rolls.append(roll(user))) for user in range(1, 4)]
            await queued(storage, 3)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert [type(result) for result in results] == [DatabaseBusyError] * 3
    assert await fetch_all(storage.database.reader, "SELECT id FROM roll_log") == []
    assert await storage.rolls.append(roll(9)) > 0  # the lock gone, the next write goes through


async def test_a_cancelled_queued_shared_write_is_never_run(storage: Storage) -> None:
    blocker, _, release = await hold_writer(storage)
    cancelled = asyncio.create_task(storage.rolls.append(roll(1)))
    kept = asyncio.create_task(storage.rolls.append(roll(2)))
    await queued(storage, 2)
    cancelled.cancel()
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(blocker, kept)
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    rows = await fetch_all(storage.database.reader, "SELECT user_id FROM roll_log")
    assert [int(row["user_id"]) for row in rows] == [2]
    assert storage.database.waiting == 0


async def test_each_unit_sees_the_units_before_it(storage: Storage) -> None:
    blocker, _, release = await hold_writer(storage)

    async def append(role: int) -> None:
        async with storage.transaction() as tx:
            current = await tx.settings.get(1)
            await asyncio.sleep(0)  # other units are queued, none may slip in between
            await tx.settings.set(1, GuildSettings(narrator_role_ids=(*current.narrator_role_ids, role)))

    tasks = [asyncio.create_task(append(role)) for role in range(1, 21)]
    await queued(storage, len(tasks))
    release.set()
    await asyncio.gather(blocker, *tasks)
    assert (await storage.settings.get(1)).narrator_role_ids == tuple(range(1, 21))


async def test_a_write_returns_only_once_its_batch_committed(storage: Storage) -> None:
    blocker, _, release = await hold_writer(storage)
    seen: list[GuildSettings] = []

    async def write_then_read(guild_id: int) -> None:
        await storage.settings.set(guild_id, GuildSettings(gm_channel_id=guild_id))
        seen.append(await storage.settings.get(guild_id))  # through a reader: committed state only

    tasks = [asyncio.create_task(write_then_read(g)) for g in range(1, 9)]
    await queued(storage, len(tasks))
    release.set()
    await asyncio.gather(blocker, *tasks)
    assert sorted(s.gm_channel_id or 0 for s in seen) == list(range(1, 9))


async def test_a_cancelled_queued_unit_writes_nothing_and_frees_its_place(storage: Storage) -> None:
    blocker, _, release = await hold_writer(storage)
    cancelled = asyncio.create_task(storage.settings.set(1, GuildSettings(gm_channel_id=1)))
    kept = asyncio.create_task(storage.settings.set(2, GuildSettings(gm_channel_id=2)))
    await queued(storage, 2)
    cancelled.cancel()
    release.set()
    await asyncio.gather(blocker, kept)
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert await storage.settings.get(1) == GuildSettings()
    assert await storage.settings.get(2) == GuildSettings(gm_channel_id=2)
    assert storage.database.waiting == 0


async def test_killed_during_batches_keeps_whole_units_and_every_one_reported(db_path: Path) -> None:
    proc = await start_test_module("tests.storage.group_crash_writer", str(db_path))
    assert proc.stdout is not None
    committed: list[int] = []
    try:
        for _ in range(UNITS_BEFORE_KILL):
            line = await asyncio.wait_for(proc.stdout.readline(), 20)
            assert line, "the writer exited early"
            committed.append(int(line))
    finally:
        proc.send_signal(signal.SIGKILL)
        rest = await asyncio.wait_for(proc.stdout.read(), 20)
        await proc.wait()
    committed += map(int, rest.split())  # Printed before the kill landed: committed too.
    assert proc.returncode == -signal.SIGKILL

    async with await Storage.open(db_path) as storage:
        assert await integrity(storage) == [("ok",)]
        rows = await fetch_all(
            storage.database.reader, "SELECT user_id, COUNT(*) AS n FROM roll_log GROUP BY user_id"
        )
        present = {int(row["user_id"]): int(row["n"]) for row in rows}
    assert set(committed) <= set(present)
    assert set(present.values()) == {ROWS_PER_UNIT}  # whole units only
    assert not [unit for unit in present if unit % 7 == 0]  # a unit that raised left nothing


async def test_a_slow_read_does_not_hold_another_read(storage: Storage) -> None:
    gate = threading.Event()

    def hold() -> int:
        gate.wait(10)
        return 1

    for reader in storage.sqlite.readers:
        await reader.create_function("hold", 0, hold)
    assert len(storage.sqlite.readers) >= 2
    try:
        slow = asyncio.create_task(fetch_one(storage.database.reader, "SELECT hold() AS held"))
        await asyncio.sleep(0.05)  # it is running on its reader's thread, blocked on the gate
        assert not slow.done()
        row = await asyncio.wait_for(fetch_one(storage.database.reader, "SELECT 2 AS n"), 5)
        assert row is not None and row["n"] == 2
        assert await storage.settings.get(1) == GuildSettings()
        assert not slow.done()  # the quick reads were answered while the slow one still ran
    finally:
        gate.set()
    held = await asyncio.wait_for(slow, 10)
    assert held is not None and held["held"] == 1
