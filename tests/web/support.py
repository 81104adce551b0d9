"""What the web view's tests share: a Conflict set up through the real bot, tokens, a client."""

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.web.app import make_app
from bot.web.reach import DiscordReaches, Reaches
from bot.web.standing import Standings
from bot.web.state import Clock
from bot.web.tokens import Kind, link_grant, sign, signing_key
from testbed.bot_env import DUEL, BotEnv, make_settings

Client = TestClient[web.Request, web.Application]
HOSTILE = "<b>Bold</b>"
"""A Hero's name with HTML in it: the page must show it as typed."""
SCRIPT = [*DUEL, ("player1", f'/character create name:"{HOSTILE}" physique:2')]
"""Vin (player1) against the Narrator's secret Thug (a Villain), and a Hero named with HTML."""


def settings_of(env: BotEnv) -> Settings:
    return make_settings(env.db_path, env.guild_id)


def table_channel(env: BotEnv) -> int:
    """The channel the harness types in unless told otherwise (``#table``)."""
    return env.world.guild.channels[0].id


async def link_token(
    env: BotEnv,
    user: str,
    *,
    narrator: bool,
    guild_id: int | None = None,
    now: float | None = None,
    channel_id: int | None = None,
) -> str:
    """A link as ``/web`` makes it, asked from ``channel_id`` (default ``#table``), in the
    member's current session generation."""
    guild = guild_id if guild_id is not None else env.guild_id
    grant = link_grant(
        guild,
        env.user_id(user),
        narrator=narrator,
        manages_server=narrator,
        narrator_roles=(),
        now=time.time() if now is None else now,
        generation=await env.storage.web.generation(guild, env.user_id(user)),
        channel_id=table_channel(env) if channel_id is None else channel_id,
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
async def web_client(
    env: BotEnv,
    clock: Clock = time.time,
    *,
    standings: Standings | None = None,
    max_streams_in_all: int = 2000,
    reaches: Reaches | None = None,
    asks_channels: bool = True,
) -> AsyncIterator[Client]:
    """The web view over the bot's own database, served on 127.0.0.1 for aiohttp's client. It
    asks the fake Discord which channels a player views (``reaches``, by default through the
    bot's HTTP client; none with ``asks_channels=False``, as a view run without a token)."""
    if reaches is None and asks_channels:
        reaches = DiscordReaches(env.bot.http)
    app = make_app(
        env.storage,
        settings_of(env),
        clock=clock,
        standings=standings,
        max_streams_in_all=max_streams_in_all,
        reaches=reaches,
    )
    async with TestClient(TestServer(app)) as client:
        yield client


async def logged_in(
    client: Client, env: BotEnv, user: str, *, narrator: bool, channel_id: int | None = None
) -> None:
    token = await link_token(env, user, narrator=narrator, channel_id=channel_id)
    response = await client.get("/login", params={"t": token})
    assert response.status == 200, await response.text()
