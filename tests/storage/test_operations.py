"""Running the bot for real: private files, a backup taken while it writes."""

import asyncio
import stat
from pathlib import Path

import pytest

from storage import GuildSettings, Storage
from storage.backup import backup, backup_file

pytestmark = pytest.mark.sqlite_only
"""These test the SQLite file itself (its migrations, its backups)."""


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_the_database_folder_and_files_are_private_after_first_start(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        await storage.settings.set(1, GuildSettings(gm_channel_id=9))
        files = [db_path, *(db_path.with_name(db_path.name + s) for s in ("-wal", "-shm"))]
        assert all(f.exists() for f in files)
        assert mode(db_path.parent) == 0o700
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


async def test_an_existing_database_file_is_made_private(db_path: Path) -> None:
    db_path.parent.mkdir()
    db_path.touch(mode=0o644)
    async with await Storage.open(db_path):
        assert mode(db_path) == 0o600


async def test_a_backup_taken_under_load_restores_every_acknowledged_write(
    storage: Storage, db_path: Path, tmp_path: Path
) -> None:
    acknowledged: list[int] = []

    async def writer(first: int) -> None:
        for guild in range(first, first + 400, 4):
            await storage.settings.set(guild, GuildSettings(gm_channel_id=guild))
            acknowledged.append(guild)

    writers = [asyncio.create_task(writer(first)) for first in range(1, 5)]
    while len(acknowledged) < 200:
        await asyncio.sleep(0)
    before = list(acknowledged)
    target = tmp_path / "copy.sqlite3"
    await backup(db_path, target)
    await asyncio.gather(*writers)
    assert mode(target) == 0o600
    async with await Storage.open(target) as restored:
        for guild in before:
            assert (await restored.settings.get(guild)).gm_channel_id == guild


async def test_a_backup_replaces_the_target_whole(storage: Storage, db_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.sqlite3"
    target.write_text("an older copy")
    backup_file(db_path, target)
    assert target.read_bytes().startswith(b"SQLite format 3")
    assert not list(tmp_path.glob(".*partial"))
