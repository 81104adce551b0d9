"""Starting the bot as an operator does: failures in one line, a quiet Ctrl-C, the secret
``DATABASE_URL`` used by every command, and one web port for a cluster."""

import asyncio
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import discord
import pytest

from bot import __main__ as entry
from bot.app import make_bot
from bot.config import Settings
from storage import Storage
from testbed.pg_server import PgServer

PASSWORD = "hunter2-secret"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A clean environment; the root logger as it was afterwards (``main`` sets up logging)."""
    root = logging.getLogger()
    handlers, level = {h: list(h.filters) for h in root.handlers}, root.level
    for name in ("DISCORD_TOKEN", "MISTBORN_TOKEN", "DATABASE_URL", "MISTBORN_WEB_PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MISTBORN_DB_PATH", str(tmp_path / "live.sqlite3"))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    for handler, filters in handlers.items():  # main's redaction filter, on pytest's handlers too
        handler.filters[:] = filters
    root.setLevel(level)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def one_line(err: str) -> str:
    text = err.strip()
    assert text.count("\n") == 0 and "Traceback" not in text, text
    return text


@pytest.mark.parametrize("command", [[], ["web"]])
def test_a_refused_database_connection_is_one_line_and_exit_1(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", f"postgresql://mistborn:{PASSWORD}@127.0.0.1:{closed_port()}/db")
    assert entry.main(command) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("Cannot open the database, PostgreSQL (DATABASE_URL):") and PASSWORD not in line


def test_a_refused_login_is_one_line_and_exit_1(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], pg_server: PgServer
) -> None:
    server = urlsplit(pg_server.database_url("postgres"))
    host = server.netloc.rsplit("@", 1)[-1]  # the server's own user, if any, left out
    url = urlunsplit(server._replace(netloc=f"nobody_here:{PASSWORD}@{host}"))
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("DATABASE_URL", url)
    assert entry.main([]) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("Cannot open the database") and "nobody_here" in line and PASSWORD not in line


def test_a_token_discord_refuses_is_one_line_and_exit_1(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def refused(self: discord.Client, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")  # discord.py's, on a 401

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr(discord.Client, "login", refused)
    assert entry.main([]) == 1
    line = one_line(capsys.readouterr().err)
    assert line.startswith("Discord refused DISCORD_TOKEN (401)") and "not-a-token" not in line


def test_a_shard_id_out_of_range_names_the_settings_that_exist(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MISTBORN_SHARD_COUNT", "2")
    monkeypatch.setenv("MISTBORN_SHARD_IDS", "[5]")
    assert entry.main([]) == 2
    line = one_line(capsys.readouterr().err)
    assert "MISTBORN_SETTINGS" not in line
    assert "MISTBORN_SHARD_IDS" in line and "between 0 and 1" in line


def test_ctrl_c_after_sync_global_ends_quietly(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[bool] = []

    async def interrupted(settings: Settings, *, sync_global: bool) -> None:
        seen.append(sync_global)
        raise KeyboardInterrupt  # what asyncio.run raises once Ctrl-C has stopped the bot

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setattr(entry, "run_discord", interrupted)
    assert entry.main(["--sync-global"]) == 0
    assert seen == [True] and "Traceback" not in capsys.readouterr().err


def test_the_database_url_is_a_secret_in_the_settings(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"postgresql://mistborn:{PASSWORD}@db.example:5432/mistborn?sslmode=require"
    monkeypatch.setenv("DATABASE_URL", url)
    settings = Settings()
    assert PASSWORD not in repr(settings) and PASSWORD not in str(settings.model_dump())
    assert settings.database_dsn == url


async def test_python_m_bot_web_opens_the_database_of_database_url(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[dict[str, Any]] = []

    class Opened(Exception):
        pass

    async def fake_open(path: Path, *, url: str | None = None) -> Storage:
        opened.append({"path": path, "url": url})
        raise Opened

    monkeypatch.setattr(Storage, "open", fake_open)
    url = f"postgresql://mistborn:{PASSWORD}@db.example:5432/mistborn"
    settings = Settings(database_url=url, _env_file=None)
    with pytest.raises(entry.StartupError):
        await entry.run_web(settings, asyncio.Event())
    assert opened and opened[0]["url"] == url


def test_in_a_cluster_only_shard_zeros_process_serves_the_web_port(env: Path) -> None:
    def bot_of(held: tuple[int, ...]) -> Any:
        settings = Settings(shard_count=4, shard_ids=held, web_port=8765, web_host="0.0.0.0", _env_file=None)
        return make_bot(settings=settings, storage=None)  # type: ignore[arg-type]

    lead, other = bot_of((0, 1)), bot_of((2, 3))
    assert lead.web_server is not None
    assert other.web_server is None and other.web_url == "http://127.0.0.1:8765"


def test_a_start_logs_no_warning_about_voice_which_the_bot_never_uses(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a fresh process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING):
        make_bot(settings=Settings(_env_file=None), storage=None)  # type: ignore[arg-type]
    assert [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING] == []
