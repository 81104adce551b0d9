"""Discord fails to edit the Conflict board: the round goes on, and the board catches up.

The board (``bot/workers/board.py``) is refreshed in the background; the fake answers
its PATCH with injected errors. discord.py retries some errors itself (429 after
``retry_after``, and 500/502/504 after sleeping 1, 3, 5, 7, 9 s: five tries, 25 s) and raises the
others (503) at once; what it finally raises, the board retries after ``retry_delays``, set
small here. Correct means: the board message shows exactly what ``status_embed`` renders for
the Conflict as stored (the board checks are in ``testbed/bot_env.py``, shared with the soak run).
"""

import logging
from typing import Any

import pytest

from storage.conflict_moves import current_conflict
from testbed.bot_env import DISCORD_TRIES, DUEL, BotEnv, board_is_correct, board_message, boards, shown

JSON = dict[str, Any]


@pytest.fixture
async def duel(bot_env: BotEnv) -> BotEnv:
    """Vin (player1) and the Narrator's Thug have declared attacks; the board is posted."""
    env = bot_env
    await env.play(DUEL)
    boards(env).retry_delays = (0.01, 0.01, 0.02)
    await boards(env).idle()
    return env


def patch_board(env: BotEnv, board: JSON, status: int, times: int) -> None:
    env.harness.fake.inject_fault(
        "PATCH", rf"/channels/\d+/messages/{board['id']}$", status, times=times, retry_after=0.01
    )


async def test_a_500_is_retried_by_discord_py_and_the_board_catches_up(duel: BotEnv) -> None:
    env = duel
    board = await board_message(env)
    patch_board(env, board, 500, times=1)  # discord.py sleeps 1 s, then tries again
    acted = await env.slash("/act dice:5 who:Thug", user="narrator")
    assert not acted.ephemeral, acted.text
    await boards(env).idle()
    assert env.harness.fake.faults[-1].remaining == 0
    assert (await board_message(env))["id"] == board["id"]
    assert await board_is_correct(env)


async def test_a_503_is_retried_by_the_board_itself(duel: BotEnv) -> None:
    """discord.py raises a 503 at once; the board's own backoff tries again and succeeds."""
    env = duel
    board = await board_message(env)
    patch_board(env, board, 503, times=2)
    acted = await env.slash("/act dice:5 who:Thug", user="narrator")
    assert not acted.ephemeral, acted.text
    await boards(env).idle()
    assert env.harness.fake.faults[-1].remaining == 0
    assert await board_is_correct(env)


async def test_when_discord_keeps_failing_the_board_gives_up_and_the_next_change_fixes_it(
    duel: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """429s past discord.py's five tries, on every one of the board's own attempts: the board
    gives up for now (logged), the Conflict goes on, and the next change shows the right state."""
    env = duel
    caplog.set_level(logging.WARNING, logger="bot.workers.board")
    board = await board_message(env)
    stale = shown(board)
    attempts = 1 + len(boards(env).retry_delays)
    patch_board(env, board, 429, times=attempts * DISCORD_TRIES)

    acted = await env.slash("/act dice:5 who:Thug", user="narrator")
    assert not acted.ephemeral, acted.text
    await boards(env).idle()
    assert env.harness.fake.faults[-1].remaining == 0
    warnings = [r for r in caplog.records if "Could not update the Conflict board" in r.getMessage()]
    assert len(warnings) == attempts
    assert shown(await board_message(env)) == stale  # gave up: still the old board
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None and conflict.pending is not None  # the round went on regardless
    assert not await board_is_correct(env)

    clicked = await env.harness.click("Don't defend", user="player1")
    assert not clicked.ephemeral, clicked.text
    await boards(env).idle()
    assert (await board_message(env))["id"] == board["id"]
    assert await board_is_correct(env)
