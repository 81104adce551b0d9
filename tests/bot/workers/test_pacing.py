"""The bot's budget of background REST calls, shared out over a cluster, and what Discord's
answers do to it (bot.workers.pacing, bot.rest_watch): a global 429 pauses the background work,
a 401 to the bot's token stops the bot, and every refusal is counted."""

import asyncio
import time

import discord
import pytest

from bot import metrics
from bot.cluster import shard_ranges
from bot.config import ShardPlan
from bot.workers.pacing import BOT_PER_SECOND, Pacer
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, board_is_correct

DISCORD_GLOBAL = 50
BOARD_EDIT = r"/channels/\d+/messages/\d+$"
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def refused(status: str) -> float:
    """``mistborn_refused_requests_total`` for ``status``, as Prometheus would read it."""
    samples = (sample for family in metrics.REFUSED.collect() for sample in family.samples)
    return next(s.value for s in samples if s.name.endswith("_total") and s.labels == {"status": status})


@pytest.mark.parametrize(("processes", "shards"), [(1, 1), (2, 2), (2, 8), (3, 8), (5, 16), (10, 40)])
def test_the_processes_of_a_cluster_share_the_bots_budget_whole(processes: int, shards: int) -> None:
    pacers = [
        Pacer(ShardPlan(shards, frozenset(held), True).share) for held in shard_ranges(processes, shards)
    ]
    assert sum(p.per_second for p in pacers) == pytest.approx(BOT_PER_SECOND)
    # The worst second: every bucket full (at least one call each), then the rate.
    assert BOT_PER_SECOND + sum(p.burst for p in pacers) <= DISCORD_GLOBAL


def test_a_lone_process_has_the_whole_budget_and_a_share_must_be_one() -> None:
    assert Pacer(ShardPlan().share).per_second == BOT_PER_SECOND
    for share in (0.0, 1.5):
        with pytest.raises(ValueError):
            Pacer(share)


async def test_a_pause_holds_every_turn_and_ends_without_a_burst() -> None:
    pacer = Pacer(0.25)  # 10 a second, a burst of one
    pacer.pause(0.3)
    started = time.monotonic()
    await asyncio.gather(*(pacer.turn(channel) for channel in range(3)))
    # Paused 0.3 s, then one call per 0.1 s from an empty bucket: the third at 0.3 s + 0.2 s or later.
    assert time.monotonic() - started >= 0.3 + 0.2 - 0.02
    assert not pacer.paused


async def test_a_global_429_pauses_the_background_work_and_is_counted(bot_env: BotEnv) -> None:
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await env.bot.conflicts.idle()
    before = refused("429")
    fake.inject_fault("PATCH", BOARD_EDIT, 429, retry_after=0.5, global_limit=True)
    await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    await env.bot.conflicts.idle()
    assert await board_is_correct(env)  # discord.py sat the 429 out, then the edit went through
    assert env.bot.pacer.pauses == 1 and refused("429") == before + 1


async def test_a_401_to_the_bots_token_stops_the_bot(bot_env: BotEnv) -> None:
    """A token reset while the bot runs: its next call is refused 401, and the bot stops rather
    than be refused at every call; ``start`` ends in ``LoginFailure``, as at a refused login."""
    env, fake = bot_env, bot_env.harness.fake
    await env.play(DUEL)
    await env.bot.conflicts.idle()
    fake.inject_fault("POST", CALLBACK, 401)  # an interaction's token expired: the bot goes on
    await env.slash("/roll dice:2", user="player1")
    assert fake.faults[-1].remaining == 0 and not env.bot.is_closed()

    fake.inject_fault("PATCH", BOARD_EDIT, 401, times=100)
    before = len(fake.invalid)
    await env.slash(THUG_ATTACKS[1], user=THUG_ATTACKS[0])
    task = env.harness.task
    assert task is not None
    with pytest.raises(discord.LoginFailure):
        await asyncio.wait_for(asyncio.shield(task), 5)
    assert env.bot.is_closed() and env.bot.token_refused
    assert [status for _, status, _ in fake.invalid.since(before)] == [401]
