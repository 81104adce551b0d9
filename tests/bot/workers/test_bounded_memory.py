"""What the bot keeps in memory per channel and per attack stays bounded over a long run."""

import asyncio

from bot.workers.bounded import KeyedLocks, Recent, forget_when_done
from bot.workers.grace import PROMPTS_KEPT
from testbed.bot_env import BotEnv

ATTACKS = 10_000


async def test_prompt_times_are_bounded_over_ten_thousand_attacks(bot_env: BotEnv) -> None:
    grace = bot_env.bot.conflicts.grace
    for attack in range(ATTACKS):
        grace.prompted(bot_env.guild_id, attack % 50, attack)
    assert len(grace._prompted) <= PROMPTS_KEPT
    assert (bot_env.guild_id, 49, ATTACKS - 1) in grace._prompted  # the newest are kept
    grace.seconds = 0.0
    grace.prompted(bot_env.guild_id, 1, ATTACKS)
    assert len(grace._prompted) == 1  # past the grace a prompt holds nobody back: forgotten


async def test_locks_and_tasks_are_dropped_once_done() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    tasks: dict[int, asyncio.Task[None]] = {}

    async def use(key: int) -> None:
        async with locks.hold(key % 7):
            await asyncio.sleep(0)

    for key in range(ATTACKS):
        forget_when_done(tasks, key, asyncio.create_task(use(key)))
    assert len(locks) <= 7
    await asyncio.gather(*tasks.values())
    await asyncio.sleep(0)
    assert len(locks) == 0 and tasks == {}


async def test_two_holders_of_one_key_still_take_turns() -> None:
    locks: KeyedLocks[str] = KeyedLocks()
    inside: list[int] = []

    async def hold(n: int) -> None:
        async with locks.hold("channel"):
            inside.append(n)
            assert len(inside) == 1
            await asyncio.sleep(0)
            inside.remove(n)

    await asyncio.gather(*(hold(n) for n in range(20)))
    assert len(locks) == 0


def test_recent_keeps_the_most_recently_used() -> None:
    rows: Recent[int, str] = Recent(3)
    for key in range(ATTACKS):
        rows[key] = str(key)
        if key == 5:
            _ = rows[4]
    assert list(rows) == [ATTACKS - 3, ATTACKS - 2, ATTACKS - 1]


async def test_boards_forget_channels_after_a_conflict_is_played(bot_env: BotEnv) -> None:
    await bot_env.play(
        [
            ("narrator", "/character create name:Thug template:thug"),
            ("player1", "/character create name:Vin physique:3 wits:5"),
            ("narrator", "/conflict start kind:physical stakes:Escape"),
            ("narrator", "/conflict add character:Thug"),
            ("player1", "/conflict join"),
        ]
    )
    flow = bot_env.bot.conflicts
    await flow.idle()
    await asyncio.sleep(0)
    assert len(flow.boards._locks) == 0
    assert flow.boards._tasks == {} and flow.outbox._tasks == {}
