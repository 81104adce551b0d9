"""What a stranger can send: tokens are refused unread unless signed, never logged, and the
signing secret is long enough to be one."""

import base64
import logging

import pytest
from aiohttp import ClientSession
from pydantic import ValidationError

from bot import __main__ as entry
from bot.config import Settings
from bot.web.server import WebServer
from testbed.bot_env import BotEnv, make_settings
from tests.web.support import link_token, web_client


async def test_the_access_log_never_holds_a_links_token(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    server = WebServer(bot_env.storage, make_settings(bot_env.db_path, bot_env.guild_id, web_port=0))
    url = await server.start()
    token = await link_token(bot_env, "narrator", narrator=True)
    try:
        with caplog.at_level(logging.INFO, logger="aiohttp.access"):
            async with ClientSession() as http:
                assert (await http.get(f"{url}/login", params={"t": token})).status == 200
                assert (await http.get(f"{url}/login", params={"t": "forged.token"})).status == 403
    finally:
        await server.stop()
    logged = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(logged) == 2 and all("GET /login" in line for line in logged)
    assert not any(token in line or "forged" in line or "t=" in line for line in logged)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.mark.parametrize("body", [b"[" * 5000, b"[" * 700, b'{"kind": "link"}' + b" " * 5000])
async def test_a_crafted_token_is_refused_unread(
    bot_env: BotEnv, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    token = f"{_b64(body)}.{_b64(b'x' * 32)}"
    async with web_client(bot_env) as client:
        with caplog.at_level(logging.ERROR):
            response = await client.get("/login", params={"t": token})
            cookie = await client.get(
                f"/g/{bot_env.guild_id}/data", headers={"Cookie": f"mistborn_{bot_env.guild_id}={token}"}
            )
    assert response.status == 403 and cookie.status == 403
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("secret", ["x", "a" * 31, "é" * 15])
def test_a_short_web_secret_is_refused(secret: str) -> None:
    with pytest.raises(ValidationError, match="32 bytes or more"):
        Settings(web_secret=secret, _env_file=None)


def test_a_web_secret_of_32_bytes_is_taken() -> None:
    settings = Settings(web_secret="k" * 32, _env_file=None)
    assert settings.web_secret is not None


def test_a_short_web_secret_stops_the_start_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    monkeypatch.setenv("MISTBORN_WEB_SECRET", "short")
    monkeypatch.chdir(str(tmp_path))
    assert entry.main(["web"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("Invalid setting MISTBORN_WEB_SECRET:")
