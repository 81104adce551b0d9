"""``python -m bot`` reaches the offline console only through its entry point.

The bot never imports the fake Discord; ``bot/__main__.py`` looks the console up in the
``mistborn_bot.offline_console`` entry point group and calls it with the settings and the
``--user``/``--player`` options. Without one installed it says what to do and exits 2.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import __main__ as entry
from bot.config import Settings
from fake_discord import bot_console


@dataclass
class FakeEntryPoint:
    name: str
    target: Any

    def load(self) -> Any:
        return self.target


@pytest.fixture
def no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No token from the environment or a .env file; the database in tmp_path."""
    for name in ("DISCORD_TOKEN", "MISTBORN_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MISTBORN_DB_PATH", str(tmp_path / "seam.sqlite3"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_installed_console_is_this_projects(no_token: Path) -> None:
    assert entry.find_offline_console() is bot_console.run


def test_the_console_gets_the_settings_and_the_options(
    no_token: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[Settings, str, bool]] = []

    def console(settings: Settings, *, user: str, player: bool) -> int:
        calls.append((settings, user, player))
        return 7

    def points(group: str) -> list[FakeEntryPoint]:
        assert group == entry.CONSOLE_GROUP
        return [FakeEntryPoint("console", console)]

    monkeypatch.setattr(entry, "entry_points", points)
    assert entry.main(["--user", "alice", "--player"]) == 7
    [(settings, user, player)] = calls
    assert (settings.db_path, user, player) == (no_token / "seam.sqlite3", "alice", True)
    assert "offline console" in capsys.readouterr().err


def test_without_a_console_it_says_so_and_exits_2(
    no_token: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(entry, "entry_points", lambda group: [])
    assert entry.main([]) == 2
    assert capsys.readouterr().err.strip() == entry.NO_CONSOLE
    assert not (no_token / "seam.sqlite3").exists()
