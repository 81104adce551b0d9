"""A database that cannot take writes refuses them cleanly, keeps nothing partial, and recovers.

Real SQLite files in ``tmp_path`` with the faults of ``disk.py`` switched on the writer: each
write either commits whole or raises a :class:`StorageUnavailableError` whose message a player
can read, reads keep working, and the same write succeeds once the fault is gone.
"""

import sqlite3
from pathlib import Path

import pytest

from storage import GuildSettings, Storage
from storage.errors import DatabaseBusyError, StorageError, StorageUnavailableError
from storage.sql import fetch_all
from tests.faults.disk import disk_full, fill_disk, filler_roll, read_only
from tests.support import integrity

GUILD, USER = 1, 10
NARRATORS = GuildSettings(narrator_role_ids=(5,), gm_channel_id=9)


async def roll_count(storage: Storage) -> int:
    rows = await fetch_all(storage.sqlite.reader, "SELECT COUNT(*) FROM roll_log")
    return int(rows[0][0])


async def write_batch(storage: Storage, rolls: int) -> None:
    """Settings plus many rolls in ONE transaction: too big for a full disk, all or nothing."""
    async with storage.transaction() as tx:
        await tx.settings.set(GUILD, NARRATORS)
        for _ in range(rolls):
            await tx.rolls.append(filler_roll(GUILD, USER))


async def test_a_full_disk_refuses_the_whole_transaction_and_recovers(storage: Storage) -> None:
    await storage.rolls.append(filler_roll(GUILD, USER))
    async with disk_full(storage):
        with pytest.raises(StorageUnavailableError, match="disk is full") as refused:
            await write_batch(storage, 500)
        assert isinstance(refused.value.__cause__, sqlite3.OperationalError)
        assert refused.value.__cause__.sqlite_errorcode == sqlite3.SQLITE_FULL
        # Nothing of the transaction is kept, not even the small write that came first.
        assert await storage.settings.get(GUILD) == GuildSettings()
        assert await roll_count(storage) == 1
        assert await storage.rolls.recent(GUILD)  # reads still answer
    await write_batch(storage, 500)
    assert await storage.settings.get(GUILD) == NARRATORS
    assert await roll_count(storage) == 501
    assert await integrity(storage) == [("ok",)]


async def test_a_filled_disk_refuses_the_next_small_write_too(storage: Storage) -> None:
    async with disk_full(storage):
        added = await fill_disk(storage, GUILD, USER)
        with pytest.raises(StorageUnavailableError, match="disk is full"):
            await storage.rolls.append(filler_roll(GUILD, USER).model_copy(update={"label": "a real roll"}))
        assert await roll_count(storage) == added
    await storage.rolls.append(filler_roll(GUILD, USER))
    assert await roll_count(storage) == added + 1


async def test_a_read_only_database_refuses_writes_and_recovers(storage: Storage) -> None:
    async with read_only(storage):
        with pytest.raises(StorageUnavailableError, match="read-only") as refused:
            await storage.settings.set(GUILD, NARRATORS)
        assert isinstance(refused.value, StorageError)  # so the bot shows it, privately
        assert "Nothing was changed" in str(refused.value)
        assert await storage.settings.get(GUILD) == GuildSettings()
    await storage.settings.set(GUILD, NARRATORS)
    assert await storage.settings.get(GUILD) == NARRATORS


async def test_a_lock_held_past_the_busy_timeout_is_reported_as_busy(storage: Storage, db_path: Path) -> None:
    """Another process (a backup, a second bot) holds the write lock for longer than we wait."""
    storage.sqlite.writer.wait_ms = 50  # not 5 s, so the test stays fast
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusyError, match="busy") as refused:
            await storage.settings.set(GUILD, NARRATORS)
        assert isinstance(refused.value, StorageUnavailableError)
        other.execute("ROLLBACK")
    finally:
        other.close()
    await storage.settings.set(GUILD, NARRATORS)
    assert await storage.settings.get(GUILD) == NARRATORS


@pytest.mark.parametrize(
    ("code", "words"),
    [(sqlite3.SQLITE_IOERR_WRITE, "disk reported an error"), (sqlite3.SQLITE_CANTOPEN, "cannot be opened")],
)
async def test_disk_errors_inside_a_transaction_roll_it_back(storage: Storage, code: int, words: str) -> None:
    """An I/O error cannot be provoked portably; raise SQLite's own error where SQLite would."""
    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = code
    with pytest.raises(StorageUnavailableError, match=words):
        async with storage.transaction() as tx:
            await tx.settings.set(GUILD, NARRATORS)
            raise error
    assert await storage.settings.get(GUILD) == GuildSettings()


async def test_other_sqlite_errors_are_not_disguised(storage: Storage) -> None:
    """A malformed statement is a bug, not an outage: it must reach the log as itself."""
    with pytest.raises(sqlite3.OperationalError, match="syntax error"):
        async with storage.sqlite.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, narrator_role_ids) VALUES (1, '[5]')")
            await conn.execute("SELEC 1")
    assert await storage.settings.get(GUILD) == GuildSettings()
