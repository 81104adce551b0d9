"""What the web view's tests share: a Conflict set up through the real bot, tokens, a client."""

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bench.bot_env import DUEL, BotEnv, make_settings
from bot.config import Settings
from bot.web.app import Clock, make_app
from bot.web.tokens import Kind, link_grant, sign, signing_key

Client = TestClient[web.Request, web.Application]
HOSTILE = "<b>Bold</b>"
"""A Hero's name with HTML in it: the page must show it as typed."""
SCRIPT = [*DUEL, ("player1", f'/character create name:"{HOSTILE}" physique:2')]
"""Vin (player1) against the Narrator's secret Thug (a Villain), and a Hero named with HTML."""


def settings_of(env: BotEnv) -> Settings:
    return make_settings(env.db_path, env.guild_id)


async def link_token(
    env: BotEnv, user: str, *, narrator: bool, guild_id: int | None = None, now: float | None = None
) -> str:
    grant = link_grant(
        guild_id if guild_id is not None else env.guild_id,
        env.user_id(user),
        narrator=narrator,
        manages_server=narrator,
        narrator_roles=(),
        now=time.time() if now is None else now,
    )
    return sign(grant, await signing_key(settings_of(env), env.storage))


async def session_token(env: BotEnv, user: str, *, narrator: bool, guild_id: int) -> str:
    grant = link_grant(
        guild_id,
        env.user_id(user),
        narrator=narrator,
        manages_server=narrator,
        narrator_roles=(),
        now=time.time(),
    ).session(time.time())
    assert grant.kind is Kind.SESSION
    return sign(grant, await signing_key(settings_of(env), env.storage))


@asynccontextmanager
async def web_client(env: BotEnv, clock: Clock = time.time) -> AsyncIterator[Client]:
    """The web view over the bot's own database, served on 127.0.0.1 for aiohttp's client."""
    app = make_app(env.storage, settings_of(env), clock=clock)
    async with TestClient(TestServer(app)) as client:
        yield client


async def logged_in(client: Client, env: BotEnv, user: str, *, narrator: bool) -> None:
    response = await client.get("/login", params={"t": await link_token(env, user, narrator=narrator)})
    assert response.status == 200, await response.text()
