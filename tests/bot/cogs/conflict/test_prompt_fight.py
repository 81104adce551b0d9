"""Issue 43's measure: the four-round, five-fighter fight played from the prompts, every move a
button, menu or form (``testbed.prompt_fight``), needs no typed command."""

from testbed.bot_env import BotEnv
from testbed.prompt_fight import PromptFight


async def test_the_four_round_fight_needs_no_typed_command(bot_env: BotEnv) -> None:
    count = await PromptFight(bot_env).play()
    assert count.typed == [], count.lines()
    assert sorted(count.moves) == [1, 2, 3, 4], count.lines()
    assert count.narrators["Next round"] == 3 and count.narrators["Remove Breeze"] == 1, count.lines()
