"""The web view on its own (``python -m bot web``) and the bound on open event streams."""

import asyncio
import socket

from aiohttp import ClientSession, CookieJar

from bot.__main__ import parse_args, run_web
from bot.web.state import MAX_STREAMS
from testbed.bot_env import BotEnv, make_settings
from tests.web.support import SCRIPT, link_token, logged_in, web_client


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_python_m_bot_web_serves_the_view_over_the_bots_database(bot_env: BotEnv) -> None:
    assert parse_args(["web"]).command == "web"
    await bot_env.play(SCRIPT)
    port = free_port()
    settings = make_settings(bot_env.db_path, bot_env.guild_id, web_port=port)
    stop = asyncio.Event()
    served = asyncio.create_task(run_web(settings, stop))
    base = f"http://127.0.0.1:{port}"
    try:
        async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as http:
            for _ in range(200):
                try:
                    await http.get(base + "/")
                    break
                except OSError:
                    await asyncio.sleep(0.01)
            token = await link_token(bot_env, "narrator", narrator=True)  # signed by the bot's side
            assert (await http.get(f"{base}/login", params={"t": token})).status == 200
            data = await (await http.get(f"{base}/g/{bot_env.guild_id}/data")).json()
            assert [c["stakes"] for c in data["conflicts"]] == ["A brawl"]
    finally:
        stop.set()
        await served


async def test_open_event_streams_are_bounded_per_member(bot_env: BotEnv) -> None:
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/events"
        streams = [await client.get(url) for _ in range(MAX_STREAMS)]
        assert all(s.status == 200 for s in streams)
        assert (await client.get(url)).status == 429
        streams[0].close()
        for _ in range(100):  # the stream notices its closed connection at its next poll
            again = await client.get(url)
            if again.status == 200:
                again.close()
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a closed stream's place was never freed")
        for stream in streams[1:]:
            stream.close()
