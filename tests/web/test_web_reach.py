"""The web view's Sessions pages read only what was said where the member can read (issue 39,
docs/rulings.md §7.6), learning the channels from Discord as a view without a gateway must
(``bot.web.reach``), and View Channel worked out as discord.py works it out."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast
from unittest import mock

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.web.journal_pages import UNKNOWN
from bot.web.reach import REACH_SECONDS, RETRY_SECONDS, DiscordReaches, views_channel
from fake_discord.permissions import ADMINISTRATOR, SEND_MESSAGES, VIEW_CHANNEL
from fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeOverwrite, FakeRole, FakeUser
from fake_discord.world_json import guild_create_json, member_json
from testbed.bot_env import BotEnv, running_bot_env
from tests.bot.rooms import (
    OOC_TITLE,
    TABLE_ROLL,
    TABLE_TITLE,
    WHISPER_ROLL,
    WHISPER_WOUND,
    Rooms,
    play_the_rooms,
    rooms_world,
)
from tests.web.support import logged_in, web_client
from tests.web.test_web_sessions import Clock


@pytest.fixture
async def rooms(tmp_path: Path) -> AsyncIterator[tuple[BotEnv, Rooms]]:
    async with running_bot_env(tmp_path / "bot.sqlite3", rooms_world()) as env:
        yield env, await play_the_rooms(env)


async def seen(env: BotEnv, user: str, night: Rooms, **options: Any) -> tuple[str, int, str]:
    """The member's Sessions list, the status of ``#ooc``'s session page, and ``#table``'s page."""
    async with web_client(env, **options) as client:
        await logged_in(client, env, user, narrator=user == "narrator")
        listed = await (await client.get(f"/g/{env.guild_id}/sessions")).text()
        ooc = await client.get(f"/g/{env.guild_id}/sessions/{night.ooc_session}")
        table = await client.get(f"/g/{env.guild_id}/sessions/{night.table_session}")
        return listed, ooc.status, await table.text() if table.status == 200 else ""


async def test_a_players_sessions_pages_hold_only_what_they_can_read(rooms: tuple[BotEnv, Rooms]) -> None:
    env, night = rooms
    listed, ooc, table = await seen(env, "player2", night)
    assert TABLE_TITLE in listed and OOC_TITLE not in listed
    assert ooc == 404  # told as no such session
    assert TABLE_ROLL in table and WHISPER_ROLL not in table and WHISPER_WOUND not in table
    for user in ("player1", "narrator"):  # player1 took part in #whisper and views #ooc
        listed, ooc, table = await seen(env, user, night)
        assert TABLE_TITLE in listed and OOC_TITLE in listed and ooc == 200, user
        assert WHISPER_ROLL in table and WHISPER_WOUND in table, user


async def test_a_view_that_cannot_ask_discord_shows_a_player_nothing_and_says_why(
    rooms: tuple[BotEnv, Rooms],
) -> None:
    env, night = rooms
    listed, ooc, table = await seen(env, "player1", night, asks_channels=False)
    assert UNKNOWN in listed and TABLE_TITLE not in listed and ooc == 404 and table == ""
    listed, ooc, _ = await seen(env, "narrator", night, asks_channels=False)
    assert UNKNOWN not in listed and OOC_TITLE in listed and ooc == 200  # a Narrator asks nothing


async def test_a_members_channels_are_asked_again_after_a_while(rooms: tuple[BotEnv, Rooms]) -> None:
    env, _ = rooms
    clock, asked = Clock(), []
    discord_reaches = DiscordReaches(env.bot.http)

    async def flaky(guild_id: int, user_id: int) -> frozenset[int]:
        asked.append(clock.now)
        if len(asked) == 1:
            raise OSError("network unreachable")
        return await discord_reaches(guild_id, user_id)

    ooc = env.world.guild.channel("ooc")
    player1 = env.world.guild.member("player1")
    assert ooc is not None and player1 is not None
    url = f"/g/{env.guild_id}/sessions"
    async with web_client(env, clock, reaches=flaky) as client:
        await logged_in(client, env, "player1", narrator=False)
        assert UNKNOWN in await (await client.get(url)).text()
        assert UNKNOWN in await (await client.get(url)).text() and len(asked) == 1  # not asked at once
        clock.now += RETRY_SECONDS + 1
        assert OOC_TITLE in await (await client.get(url)).text()
        ooc.overwrites.append(FakeOverwrite(id=player1.user.id, type=1, deny=VIEW_CHANNEL))
        assert OOC_TITLE in await (await client.get(url)).text()  # still the answer of a moment ago
        clock.now += REACH_SECONDS + 1
        assert OOC_TITLE not in await (await client.get(url)).text()
        assert len(asked) == 3


BITS = st.sampled_from([0, VIEW_CHANNEL, SEND_MESSAGES, VIEW_CHANNEL | SEND_MESSAGES])


@st.composite
def overwrite_sets(draw: st.DrawFn, targets: list[tuple[int, int]]) -> list[FakeOverwrite]:
    chosen = draw(st.lists(st.sampled_from(targets), unique=True))
    return [FakeOverwrite(id=i, type=kind, allow=draw(BITS), deny=draw(BITS)) for i, kind in chosen]


@settings(max_examples=300, deadline=None)
@given(
    everyone=st.sampled_from([VIEW_CHANNEL | SEND_MESSAGES, SEND_MESSAGES]),
    roles=st.lists(st.sampled_from([0, VIEW_CHANNEL, SEND_MESSAGES, ADMINISTRATOR]), max_size=3),
    held=st.lists(st.booleans(), min_size=3, max_size=3),
    owner=st.booleans(),
    data=st.data(),
)
def test_view_channel_is_worked_out_as_discord_py_works_it_out(
    everyone: int, roles: list[int], held: list[bool], owner: bool, data: st.DataObject
) -> None:
    """``views_channel`` (over REST's JSON) against discord.py's ``permissions_for`` (over the
    guild cache), for @everyone, roles and the member, their overwrites, Administrator, owner."""
    guild_id, user_id = 1000, 77
    role_list = [FakeRole(guild_id, "@everyone", everyone)]
    role_list += [FakeRole(2000 + n, f"r{n}", bits, position=n + 1) for n, bits in enumerate(roles)]
    member = FakeMember(FakeUser(user_id, "m"), [2000 + n for n in range(len(roles)) if held[n]])
    targets = [(guild_id, 0), (user_id, 1), *((2000 + n, 0) for n in range(len(roles)))]
    channel = FakeChannel(3000, "room", overwrites=data.draw(overwrite_sets(targets)))
    guild = FakeGuild(guild_id, "g", user_id if owner else 5, role_list, [channel], [member])
    payload = guild_create_json(guild)
    state = mock.MagicMock()
    state.self_id = 1
    state.member_cache_flags = discord.MemberCacheFlags.none()
    state.store_user.side_effect = lambda user, cache=True: discord.User(state=state, data=user)
    cached = discord.Guild(data=cast(Any, payload), state=state)
    as_member = discord.Member(data=cast(Any, member_json(guild, member)), guild=cached, state=state)
    expected = cached.channels[0].permissions_for(as_member).view_channel
    rest = {"id": str(guild_id), "owner_id": payload["owner_id"], "roles": payload["roles"]}
    assert views_channel(rest, frozenset(member.role_ids), user_id, payload["channels"][0]) is expected
