"""``/web`` through the real discord.py dispatch: off, and a private link button when on."""

import re

from aiohttp import ClientSession, CookieJar

from bot.cogs.web import NOT_ENABLED
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv
from tests.web.support import SCRIPT


def link_of(reply: InteractionRecord) -> str:
    [row] = reply.components
    [button] = row["components"]
    assert button["style"] == 5 and "custom_id" not in button
    url: str = button["url"]
    return url


async def test_web_says_how_to_enable_the_view_when_it_is_off(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/web")
    assert reply.ephemeral and reply.content == NOT_ENABLED
    assert "MISTBORN_WEB_PORT" in NOT_ENABLED


async def test_web_answers_privately_with_a_link_the_view_in_the_bot_accepts(web_env: BotEnv) -> None:
    await web_env.play(SCRIPT)
    reply = await web_env.slash("/web")
    assert reply.ephemeral and "every live Conflict" in reply.content
    url = link_of(reply)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/login\?t=[\w-]+\.[\w-]+", url)
    player = await web_env.slash("/web", user="player1")
    assert player.ephemeral and "your Heroes" in player.content
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as http:  # an IP address
        opened = await http.get(url)
        assert opened.status == 200
        data = await http.get(url.split("/login")[0] + f"/g/{web_env.guild_id}/data")
        assert (await data.json())["narrator"] is True
