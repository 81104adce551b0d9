"""``/session end`` while a Conflict still runs at the table (issue 39), through the real
dispatch: the Narrator is warned privately first, and a session ended anyway says in its recap
that the fight is still running."""

import copy

import pytest

from storage.conflict_moves import current_conflict
from testbed.bot_env import ALLEY_BRAWL, BotEnv, fight_in_a_session_thread, refused
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, card_text
from tests.bot.cogs.sessions.test_sessions_time import vin

RUNNING = "The physical Conflict for {stakes} was still running when the session ended (round 1)"


async def fight_in_the_channel(env: BotEnv) -> tuple[int, str]:
    await vin(env)
    await env.slash("/character create name:Thug template:thug")
    await env.slash('/session start title:"The Keep"')
    await env.play(ALLEY_BRAWL[:4])
    return env.world.guild.channels[0].id, RUNNING.format(stakes="A brawl in the alley")


async def fight_in_a_thread(env: BotEnv) -> tuple[int, str]:
    await fight_in_a_session_thread(env)
    fought = env.harness.channel.id
    env.harness.channel = env.world.guild.channels[0]  # the Narrator ends the night at the table
    return fought, RUNNING.format(stakes="A brawl")


@pytest.mark.parametrize("where", [fight_in_the_channel, fight_in_a_thread])
async def test_ending_a_session_mid_fight_warns_then_says_the_fight_runs_on(
    bot_env: BotEnv, where: object
) -> None:
    env = bot_env
    fought, running = await where(env)  # type: ignore[operator]
    warned = await env.slash("/session end", user="narrator")
    assert warned.ephemeral and f"still running at this table (<#{fought}>)" in warned.content, warned.content
    assert await env.storage.journal.open_in(env.guild_id, env.world.guild.channels[0].id) is not None
    assert warned.message is not None
    stale = copy.deepcopy(warned.message)

    ended = await env.harness.click("End the session anyway", message=warned.message, user="narrator")
    table = [m for m in ended.messages if not m.get("flags", 0) & EPHEMERAL]
    assert table and running in card_text(table[0]), ended.messages
    assert await env.storage.journal.open_in(env.guild_id, env.world.guild.channels[0].id) is None
    assert await current_conflict(env.storage, env.guild_id, fought) is not None  # the fight goes on
    again = await env.slash("/session recap", user="player1")
    assert running in card_text(again.messages[-1])
    twice = await env.harness.click("End the session anyway", message=stale, user="narrator")
    assert refused(twice) and "already ended" in twice.content


async def test_a_session_with_no_fight_running_ends_at_once(bot_env: BotEnv) -> None:
    env = bot_env
    await fight_in_the_channel(env)
    await env.slash("/conflict end")
    ended = await env.slash("/session end")
    assert not ended.ephemeral and "still running" not in card_text(ended.messages[0])
