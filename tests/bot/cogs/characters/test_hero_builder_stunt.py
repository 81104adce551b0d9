"""A Misting's one starting Stunt in the guided builder, through the real dispatch
(docs/rulings.md §9.7): offered from its metal's catalogue on the Powers step and on the story
step every way passes through, optional, and on the finished sheet."""

import pytest

from testbed.bot_env import BotEnv
from tests.bot.cogs.characters.builder_support import STORY, Builder
from tests.bot.cogs.characters.test_hero_builder_keeps import to_story


def offered(builder: Builder) -> list[str]:
    return [o["label"] for s in builder.selects("stunt") for o in s["options"]]


async def stunts_of(env: BotEnv) -> tuple[str, ...]:
    stored = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    return stored.character.powers[0].stunts


async def test_a_misting_picks_a_stunt_on_the_story_step_and_keeps_it(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "Misting: Pewter")
    assert offered(builder) == ["No Stunt for now", "Denser Tissues", "Prodigious Strength", "Extreme Speed"]
    picked = await builder.choose("stunt", "Denser Tissues")
    assert "Not saved" not in picked.content, picked.content
    powers = next(f for f in builder.message()["embeds"][0]["fields"] if f["name"] == "Powers")
    assert powers["value"] == "Misting: Pewter at 5 (Allomancy); Stunt: Denser Tissues"
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit({**STORY, "Create the Hero when this is sent": True})
    assert await stunts_of(bot_env) == ("Denser Tissues",)


async def test_the_powers_step_offers_it_and_none_can_be_chosen_again(bot_env: BotEnv) -> None:
    builder = await to_story(bot_env, "Misting: Tin")
    await builder.click("Back")
    await builder.click("Back")
    assert offered(builder) == ["No Stunt for now", "Focused Sense"]
    await builder.choose("stunt", "Focused Sense")
    await builder.choose("stunt", "No Stunt for now")
    await builder.click("Next")  # the Traits, written already
    await builder.click("Next")  # opens the story form, empty
    await builder.submit({**STORY, "Create the Hero when this is sent": True})
    assert await stunts_of(bot_env) == ()


@pytest.mark.parametrize("powers", ["Misting: Gold", "Mistborn", "Keeper", "No Powers"])
async def test_only_a_misting_of_a_metal_with_stunts_is_offered_one(bot_env: BotEnv, powers: str) -> None:
    builder = await to_story(bot_env, powers)
    assert offered(builder) == []
