"""Catching up at start: a restarted bot brings every channel up to what is saved.

The in-process bot is restarted as a new process would be (``BotEnv.restart``: a new client, the
database file opened again, the fake Discord and its messages kept). Between the two, the channel
is left behind the database the way a crash or a moderator leaves it. After the restart the
catch-up (``bot.workers.catchup``) must have the board match the saved state within 3 seconds of the
bot being ready, close boards of Conflicts that ended, forget channels that were deleted, and post
a pending prompt again when the message that asked is gone.
"""

import asyncio
from typing import Any

import pytest

from bot.cogs.conflict.transaction import end_conflict
from storage import MessageKind, NewMessage
from testbed.bot_env import (
    DUEL,
    THUG_ATTACKS,
    BotEnv,
    board_is_correct,
    board_message,
    boards,
    is_board,
    shown,
)

JSON = dict[str, Any]
READY_TO_BOARD = 3.0
"""The board must match the saved state this many seconds after the bot is ready."""


async def restart(env: BotEnv) -> float:
    """Restart the bot; return the seconds from its being ready to the end of its catch-up."""
    await env.restart()
    loop = asyncio.get_running_loop()
    ready = loop.time()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    return loop.time() - ready


def in_channel(env: BotEnv, channel: int) -> list[JSON]:
    return [m for m in env.harness.fake.messages.values() if m["channel_id"] == str(channel)]


@pytest.fixture
async def duel(bot_env: BotEnv) -> BotEnv:
    """Vin (player1) and the Thug have declared; the Thug attacked and Vin's defence is pending."""
    await bot_env.play([*DUEL, THUG_ATTACKS])
    await bot_env.bot.conflicts.idle()
    return bot_env


async def test_a_clean_restart_posts_and_edits_nothing(duel: BotEnv) -> None:
    env = duel
    channel = env.world.guild.channels[0].id
    before = [(m["id"], m["content"], m["embeds"], m["components"]) for m in in_channel(env, channel)]
    activity = len(env.harness.fake.activity)
    assert await restart(env) < READY_TO_BOARD
    after = [(m["id"], m["content"], m["embeds"], m["components"]) for m in in_channel(env, channel)]
    assert after == before
    assert env.harness.fake.activity[activity:] == []  # read to check, never written
    assert await board_is_correct(env)


async def test_a_board_left_behind_is_redrawn_within_3_s_of_ready(duel: BotEnv) -> None:
    env = duel
    board = await board_message(env)
    boards(env).retry_delays = (0.01,)
    env.harness.fake.inject_fault("PATCH", rf"/channels/\d+/messages/{board['id']}$", 503, times=2)
    clicked = await env.harness.click("Don't defend", user="player1")
    assert not clicked.ephemeral, clicked.text
    await env.bot.conflicts.idle()
    assert not await board_is_correct(env)  # the edit gave up: "choose dice below" is still shown
    assert await restart(env) < READY_TO_BOARD
    assert (await board_message(env))["id"] == board["id"]
    assert await board_is_correct(env)


async def test_the_board_of_a_conflict_that_ended_while_down_is_closed(duel: BotEnv) -> None:
    env = duel
    channel = env.world.guild.channels[0].id
    board = await board_message(env)
    await env.harness.bot.close()  # the bot is down...
    await end_conflict(env.storage, env.guild_id, channel)  # ...when the Conflict's last move is saved
    await restart(env)
    assert "Conflict over" in shown(env.harness.fake.messages[int(board["id"])])
    assert await env.storage.boards.row(env.guild_id, channel) is None


async def test_a_board_deleted_by_a_moderator_is_posted_again(duel: BotEnv) -> None:
    env = duel
    board = await board_message(env)
    await env.harness.fake.delete_message(board)
    assert await restart(env) < READY_TO_BOARD
    again = await board_message(env)
    assert again["id"] != board["id"] and await board_is_correct(env)


async def test_a_deleted_prompt_is_asked_again_with_working_buttons(duel: BotEnv) -> None:
    env = duel
    channel = env.world.guild.channels[0].id
    prompt = env.harness.find_component("Don't defend", env.harness.member("player1"))[0]
    await env.harness.fake.delete_message(prompt)
    await restart(env)
    again, _ = env.harness.find_component("Don't defend", env.harness.member("player1"))
    assert again["id"] != prompt["id"] and again["content"].startswith(f"<@{env.user_id('player1')}>")
    board = await env.storage.boards.get(env.guild_id, channel)
    # Asked once: only the new question (and the board card, under Vin) offers the defence.
    asked = [m for m in in_channel(env, channel) if "mab:defend" in str(m["components"]) and not is_board(m)]
    assert asked == [again]
    assert board is not None
    clicked = await env.harness.click("Don't defend", message=again, user="player1")
    assert clicked.response_type == 7 and clicked.followups, clicked.text
    await env.bot.conflicts.idle()
    assert await board_is_correct(env)
    await restart(env)  # asked again only once: the new prompt is remembered
    assert [m for m in in_channel(env, channel) if "mab:defend" in str(m["components"])] == []


async def test_a_deleted_channel_is_forgotten_and_the_others_caught_up(duel: BotEnv) -> None:
    env = duel
    table, ooc = env.world.guild.channels[0].id, env.world.guild.channels[1].id
    await env.storage.outbox.add(
        env.guild_id, ooc, None, [NewMessage(kind=MessageKind.NOTICE, payload={"content": "lost"})]
    )
    await env.storage.boards.set(env.guild_id, ooc, 12345, conflict_id=999, version=1)
    board = await board_message(env)
    await env.harness.fake.delete_message(board)  # and #table's board needs posting again
    await env.harness.fake.delete_channel(ooc)
    await restart(env)
    [dropped] = [
        row
        for row in [await env.storage.outbox.get(i) for i in range(1, 50)]
        if row and row.channel_id == ooc
    ]
    assert dropped.settled and dropped.message_id is None and dropped.failure == "The channel was deleted."
    assert await env.storage.boards.row(env.guild_id, ooc) is None
    assert await board_is_correct(env) and (await board_message(env))["channel_id"] == str(table)
