"""The roll log is pruned after MISTBORN_ROLL_LOG_DAYS; `/history` stays right about what it shows.

`/history rolls` lists what the log keeps and says how long it keeps it; `/history fairness`
counts every roll the bot ever made, pruned or not (the totals a trigger keeps as each roll
is logged).
"""

from datetime import timedelta

from storage.sql import to_text, utc_now
from testbed.bot_env import BotEnv


async def age_rolls(env: BotEnv, label: str, days: int) -> None:
    """Pretend the rolls labelled ``label`` were made ``days`` ago."""
    async with env.storage.database.transaction() as conn:
        await conn.execute(
            "UPDATE roll_log SET at = ? WHERE label = ?", (to_text(utc_now() - timedelta(days=days)), label)
        )


async def test_old_rolls_leave_the_log_but_still_count_for_fairness(bot_env: BotEnv) -> None:
    env = bot_env
    for label in ("ancient", "ancient", "fresh"):
        rolled = await env.slash(f"/roll dice:4 label:{label}", user="player1")
        assert not rolled.ephemeral, rolled.text
    before = await env.slash("/history fairness", user="player2")
    await age_rolls(env, "ancient", 91)
    assert env.bot.settings.roll_log_days == 90
    assert await env.bot.upkeep.prune() == (2, 0)

    listed = await env.slash("/history rolls", user="player2")
    [embed] = listed.embeds
    assert "fresh" in embed["description"] and "ancient" not in embed["description"]
    assert embed["footer"]["text"] == "Rolls are kept for 90 days; /history fairness counts every roll."
    after = await env.slash("/history fairness", user="player2")
    assert after.embeds[0]["fields"] == before.embeds[0]["fields"]
    assert "12 dice" in after.embeds[0]["fields"][1]["value"]  # 3 rolls of 4 dice, 2 of them pruned


async def test_zero_days_keeps_every_roll(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash("/roll dice:2 label:forever", user="player1")
    await age_rolls(env, "forever", 4000)
    env.bot.upkeep.roll_log_days = 0
    assert await env.bot.upkeep.prune() == (0, 0)
    env.bot.settings.roll_log_days = 0
    listed = await env.slash("/history rolls", user="player1")
    assert "forever" in listed.embeds[0]["description"]
    assert listed.embeds[0]["footer"]["text"] == "Every roll is kept."
