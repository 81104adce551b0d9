"""The "Sessions" pages' bounds: a member, and a server, loading them by the dozen at once get
429 past a few; and the view's heavy work runs on its own workers, not the loop's default pool."""

import asyncio
import threading
from collections import Counter
from typing import Any

import pytest
from aiohttp import ClientResponse

from bot.web import app
from bot.web.limits import PAGE_BURST, SERVER_BURST
from testbed.bot_env import BotEnv
from tests.web.support import Client, logged_in, web_client

LOADS = 60


async def a_night(env: BotEnv) -> int:
    await env.slash('/session start title:"The alley"')
    await env.slash("/roll dice:3", user="player1")
    await env.slash("/session end")
    [session] = await env.storage.journal.sessions(env.guild_id)
    return session.id


def pages(env: BotEnv, session_id: int) -> list[str]:
    """The Sessions list and the night's journal, in turn, :data:`LOADS` in all."""
    both = [f"/g/{env.guild_id}/sessions", f"/g/{env.guild_id}/sessions/{session_id}"]
    return [both[n % 2] for n in range(LOADS)]


async def statuses(responses: list[ClientResponse]) -> Counter[int]:
    for refused in (r for r in responses if r.status == 429):
        assert int(refused.headers["Retry-After"]) >= 1
    return Counter(r.status for r in responses)


async def test_one_member_loading_the_sessions_pages_sixty_at_once_gets_429s(bot_env: BotEnv) -> None:
    session_id = await a_night(bot_env)
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "player1", narrator=False)
        responses = await asyncio.gather(*(client.get(url) for url in pages(bot_env, session_id)))
        seen = await statuses(responses)
    assert 1 <= seen[200] <= PAGE_BURST and seen[429] == LOADS - seen[200], seen


async def sessions_of(client: Client, env: BotEnv, count: int) -> list[str]:
    """``count`` sessions of members of the server (each login a session of its own), as cookies."""
    found = []
    for number in range(count):
        user = ("narrator", "player1", "player2")[number % 3]
        await logged_in(client, env, user, narrator=user == "narrator")
        found.append(next(c.value for c in client.session.cookie_jar if c.key.startswith("mistborn_")))
    client.session.cookie_jar.clear()
    return found


async def test_a_server_whose_members_load_sixty_pages_at_once_gets_429s(bot_env: BotEnv) -> None:
    """Twenty sessions, each within its own bound (three loads), still meet the server's."""
    session_id = await a_night(bot_env)
    async with web_client(bot_env) as client:
        cookies = await sessions_of(client, bot_env, 20)
        name = f"mistborn_{bot_env.guild_id}"
        loads = [
            client.get(url, headers={"Cookie": f"{name}={cookies[n % len(cookies)]}"})
            for n, url in enumerate(pages(bot_env, session_id))
        ]
        seen = await statuses(await asyncio.gather(*loads))
    assert LOADS // len(cookies) < PAGE_BURST
    assert 1 <= seen[200] <= SERVER_BURST and seen[429] == LOADS - seen[200], seen


async def test_the_sessions_pages_are_built_on_the_views_own_workers(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    session_id = await a_night(bot_env)
    threads: list[str] = []
    for name in ("sessions_page", "journal_page"):
        original = getattr(app, name)

        def recording(*args: Any, original: Any = original, **options: Any) -> str:
            threads.append(threading.current_thread().name)
            return str(original(*args, **options))

        monkeypatch.setattr(app, name, recording)
    async with web_client(bot_env) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        for url in pages(bot_env, session_id)[:2]:
            assert (await client.get(url)).status == 200
    assert len(threads) == 2 and all(t.startswith("web-view") for t in threads), threads
