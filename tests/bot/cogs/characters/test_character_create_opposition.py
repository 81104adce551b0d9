"""``/character create`` of a Villain or Extra with only a name (docs/rulings.md §6.11): the
builder is a player's, so the Narrator is told how to fill the sheet, and nothing is made."""

import pytest

from testbed.bot_env import BotEnv
from testbed.cards import card_text


@pytest.mark.parametrize("kind", ["Villain", "Extra"])
async def test_a_villain_or_extra_with_only_a_name_says_how_to_fill_the_sheet(
    bot_env: BotEnv, kind: str
) -> None:
    reply = await bot_env.slash(f"/character create name:Straff kind:{kind}")
    assert reply.ephemeral and reply.modal is None
    assert reply.content.startswith("Nothing was made: give Straff its numbers"), reply.content
    assert "`template`" in reply.content and "`physique`" in reply.content
    assert await bot_env.storage.characters.summaries(bot_env.guild_id) == []
    made = await bot_env.slash(f"/character create name:Straff kind:{kind} wits:5")
    assert made.message is not None and made.ephemeral and f"## Straff — {kind}" in card_text(made.message)


async def test_a_koloss_from_its_template_rolls_its_spikes_on_strength(bot_env: BotEnv) -> None:
    """The koloss's four Iron spikes are spikes (docs/rulings.md §6.11, §9.5), not words: +5 dice on
    a strength roll, Charm 1 as its spikes leave it."""
    made = await bot_env.slash("/character create name:Koloss template:koloss")
    assert made.message is not None, made.content
    stored = (await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Koloss")).character
    assert [s.metal for s in stored.hemalurgy.spikes] == ["Iron"] * 4 and stored.powers == ()
    hidden = await bot_env.slash("/roll stat:Physique task:strength character:Koloss")
    assert hidden.message is not None and "Iron spikes" not in card_text(hidden.message)  # §7.1
    await bot_env.slash("/character reveal name:Koloss")
    lift = await bot_env.slash("/roll stat:Physique task:strength character:Koloss")
    assert lift.message is not None and "Iron spikes 5" in card_text(lift.message)
    charm = await bot_env.slash("/roll stat:Charm character:Koloss")
    assert charm.message is not None and "Charm 5 − Spikes 4 = **1**" in card_text(charm.message)
