"""Issue 43's measure: the four-round, five-fighter fight played from the prompts, every move a
button, menu or form (``testbed.prompt_fight``), needs no typed command."""

from fake_discord.layout import IS_COMPONENTS_V2, walk
from testbed.bot_env import BotEnv
from testbed.prompt_fight import PromptFight


async def test_the_four_round_fight_needs_no_typed_command(bot_env: BotEnv) -> None:
    count = await PromptFight(bot_env).fight()
    assert count.typed == [], count.lines()
    assert sorted(count.moves) == [1, 2, 3, 4], count.lines()
    # The rounds rolled on by themselves, and Breeze left from the board's menu in one pick.
    assert "Next round" not in count.narrators and count.narrators["Remove a fighter…"] == 1, count.lines()


async def test_every_message_of_the_fight_keeps_within_discords_component_limits(bot_env: BotEnv) -> None:
    """5 action rows of a classic message, 40 components of a card, 25 options of a menu and
    100 characters of a custom id, whatever the prompts now carry."""
    await PromptFight(bot_env).fight()
    sent = [*bot_env.harness.fake.messages.values()]
    sent += [r.modal for r in bot_env.harness.fake.interactions.values() if r.modal]
    for message in sent:
        parts = list(walk(message.get("components") or []))
        inner = [c["component"] for c in parts if isinstance(c.get("component"), dict)]
        card = int(message.get("flags") or 0) & IS_COMPONENTS_V2
        assert len(parts) <= 40 if card else len(message.get("components") or []) <= 5, message
        for component in [*parts, *inner]:
            assert len(component.get("options") or []) <= 25
            assert len(str(component.get("custom_id", ""))) <= 100
    assert not bot_env.harness.violations
