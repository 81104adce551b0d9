"""``python -m bot`` as an operator meets it: a clear refusal of a bad setting, and backups."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import __main__ as entry
from storage import GuildSettings, Storage


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("DISCORD_TOKEN", "MISTBORN_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MISTBORN_DB_PATH", str(tmp_path / "live.sqlite3"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_invalid_log_level_is_one_clear_line_and_exit_2(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MISTBORN_LOG_LEVEL", "LOUD")
    assert entry.main([]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert err.startswith("Invalid setting MISTBORN_LOG_LEVEL:") and "'LOUD' is not a log level" in err


def test_a_log_level_in_any_case_is_accepted(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MISTBORN_LOG_LEVEL", " debug ")
    assert entry.load_settings() is not None


def test_backup_copies_the_live_database_with_what_sits_in_the_wal(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def write() -> Storage:
        storage = await Storage.open(env / "live.sqlite3")
        await storage.settings.set(7, GuildSettings(gm_channel_id=70))
        return storage

    storage = asyncio.run(write())  # left open: its last commit is still in the WAL
    try:
        assert entry.main(["backup", str(env / "copy.sqlite3")]) == 0
    finally:
        asyncio.run(storage.close())
    with sqlite3.connect(env / "copy.sqlite3") as copy:
        assert copy.execute("SELECT gm_channel_id FROM guild_settings WHERE guild_id = 7").fetchone() == (70,)
    assert "Backed up" in capsys.readouterr().err


def test_backup_without_a_database_fails_clearly(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["backup", str(env / "copy.sqlite3")]) == 1
    assert capsys.readouterr().err.startswith("Backup failed: No database at")
