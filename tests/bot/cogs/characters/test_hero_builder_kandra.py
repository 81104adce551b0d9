"""A kandra Hero in the guided builder, through the real dispatch (docs/rulings.md §9.6): the
Powers step offers Mimicry 5 with one Blessing, and the finished sheet holds both, the Blessing
counted where the stats are read."""

import pytest

from rules.character import PowerType
from rules.character.hemalurgy import Blessing
from rules.character.stats import rating_for
from testbed.bot_env import BotEnv
from tests.bot.cogs.characters.builder_support import STORY
from tests.bot.cogs.characters.test_hero_builder_keeps import to_story


@pytest.mark.parametrize(
    ("label", "blessing", "stat", "rating"),
    [
        ("Kandra: Potency", Blessing.POTENCY, "Physique", 5),
        ("Kandra: Presence", Blessing.PRESENCE, "Wits", 8),
        ("Kandra: Stability", Blessing.STABILITY, "Physique", 3),
        ("Kandra: Awareness", Blessing.AWARENESS, "Wits", 6),
    ],
)
async def test_a_kandra_starts_with_mimicry_and_the_blessing_picked(
    bot_env: BotEnv, label: str, blessing: Blessing, stat: str, rating: int
) -> None:
    builder = await to_story(bot_env, label)
    powers = next(f for f in builder.message()["embeds"][0]["fields"] if f["name"] == "Powers")
    assert powers["value"] == f"Kandra: Mimicry at 5 (Kandra); Blessing of {blessing.label}"
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit({**STORY, "Create the Hero when this is sent": True})
    vin = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Vin")).character
    assert [(p.type, p.name, p.rating) for p in vin.powers] == [(PowerType.KANDRA, "Mimicry", 5)]
    assert vin.hemalurgy.blessings == (blessing,)
    assert rating_for(vin, stat) == rating
