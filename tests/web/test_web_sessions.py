"""A session ends when the right ends: a new ``/web`` or ``/web logout``, and a Narrator's
standing asked of Discord again (the fake answers as Discord does, ``bot.web.standing``)."""

import time

import pytest
from aiohttp import ClientSession, CookieJar

from bot.cogs.web import LOGGED_OUT
from bot.web.standing import (
    ADMINISTRATOR,
    MANAGE_GUILD,
    RECHECK_SECONDS,
    RETRY_SECONDS,
    DiscordStandings,
    Standing,
    standing_of,
)
from testbed.bot_env import BotEnv
from tests.web.support import SCRIPT, logged_in, web_client
from tests.web.test_web_command import link_of


class Clock:
    """The view's clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def test_a_new_web_link_ends_the_sessions_opened_before(web_env: BotEnv) -> None:
    await web_env.play(SCRIPT)
    first = link_of(await web_env.slash("/web"))
    base = first.split("/login")[0]
    data = f"{base}/g/{web_env.guild_id}/data"
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as old:
        assert (await old.get(first)).status == 200
        assert (await old.get(data)).status == 200
        unused = link_of(await web_env.slash("/web"))
        second = link_of(await web_env.slash("/web"))
        assert (await old.get(data)).status == 403  # the old cookie ended with the new link
        assert (await old.get(unused)).status == 403  # and so did a link made before the last
    async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as new:
        assert (await new.get(second)).status == 200
        assert (await new.get(data)).status == 200


async def test_web_logout_ends_every_open_session_of_the_member_only(web_env: BotEnv) -> None:
    await web_env.play(SCRIPT)
    narrator, player = (
        link_of(await web_env.slash("/web")),
        link_of(await web_env.slash("/web", user="player1")),
    )
    data = narrator.split("/login")[0] + f"/g/{web_env.guild_id}/data"
    async with (
        ClientSession(cookie_jar=CookieJar(unsafe=True)) as mine,
        ClientSession(cookie_jar=CookieJar(unsafe=True)) as theirs,
    ):
        assert (await mine.get(narrator)).status == 200 and (await theirs.get(player)).status == 200
        reply = await web_env.slash("/web logout:True")
        assert reply.ephemeral and reply.content == LOGGED_OUT
        assert (await mine.get(data)).status == 403
        assert (await theirs.get(data)).status == 200


async def test_a_narrator_who_loses_manage_server_is_a_player_by_the_next_recheck(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    clock = Clock()
    narrator = bot_env.world.guild.member("narrator")
    role = bot_env.world.guild.role("Narrator")  # Manage Server, and not a /setup Narrator role
    assert narrator is not None and role is not None
    standings = DiscordStandings(bot_env.bot.http)
    async with web_client(bot_env, clock, standings=standings) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/data"
        assert (await (await client.get(url)).json())["narrator"] is True
        narrator.role_ids.remove(role.id)  # taken away in Discord: the bot hears nothing of it
        clock.now += RECHECK_SECONDS + 1
        after = await (await client.get(url)).json()
        assert after["narrator"] is False
        assert all(
            not p["shown"]
            for s in after["conflicts"][0]["sides"]
            for p in s["participants"]
            if p["name"] == "Thug"
        )
        narrator.role_ids.append(role.id)
        bot_env.world.guild.members.remove(narrator)  # kicked
        clock.now += RECHECK_SECONDS + 1
        assert (await client.get(url)).status == 403


async def test_a_narrator_page_that_cannot_ask_discord_turns_into_a_players(bot_env: BotEnv) -> None:
    """``python -m bot web`` without a token: the standing read at ``/web`` lasts a few minutes."""
    await bot_env.play(SCRIPT)
    clock = Clock()
    async with web_client(bot_env, clock) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/data"
        assert (await (await client.get(url)).json())["narrator"] is True
        clock.now += RECHECK_SECONDS + 1
        assert (await (await client.get(url)).json())["narrator"] is False


EVERYONE = 1 << 10  # View Channel


@pytest.mark.parametrize(
    ("owner", "everyone", "roles", "manages"),
    [
        (False, EVERYONE, [], False),
        (True, EVERYONE, [], True),  # the owner holds every permission, with no role at all
        (False, EVERYONE | MANAGE_GUILD, [], True),  # granted to @everyone
        (False, EVERYONE, [MANAGE_GUILD], True),
        (False, EVERYONE, [ADMINISTRATOR], True),  # Administrator implies all
        (False, EVERYONE, [1 << 13], False),
    ],
)
def test_manage_server_is_computed_as_discord_does(
    owner: bool, everyone: int, roles: list[int], manages: bool
) -> None:
    guild_id, user_id = 100, 7
    guild = {
        "id": str(guild_id),
        "owner_id": str(user_id if owner else 8),
        "roles": [{"id": str(guild_id), "permissions": str(everyone)}]
        + [{"id": str(200 + n), "permissions": str(bits)} for n, bits in enumerate(roles)],
    }
    member = {"roles": [str(200 + n) for n in range(len(roles))]}
    standing = standing_of(guild, member, user_id)
    assert standing.manages_server is manages
    assert standing.role_ids == {200 + n for n in range(len(roles))}


async def test_when_discord_cannot_answer_a_narrators_page_is_a_players(bot_env: BotEnv) -> None:
    await bot_env.play(SCRIPT)
    asked: list[int] = []

    async def unreachable(guild_id: int, user_id: int) -> Standing:
        asked.append(user_id)
        raise OSError("network unreachable")

    clock = Clock()
    async with web_client(bot_env, clock, standings=unreachable) as client:
        await logged_in(client, bot_env, "narrator", narrator=True)
        url = f"/g/{bot_env.guild_id}/data"
        assert (await (await client.get(url)).json())["narrator"] is False
        assert (await (await client.get(url)).json())["narrator"] is False
        assert len(asked) == 1  # not asked again at once
        clock.now += RETRY_SECONDS + 1
        await client.get(url)
        assert len(asked) == 2
