"""The Stunts catalogue through the real dispatch: offered per metal on ``/edit stunt-add``,
added as often as it may be, and biting on rolls and damage while its metal burns
(docs/rulings.md §9.7)."""

from typing import Any

from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


async def make(env: BotEnv, name: str, *metals: str, **fields: Any) -> StoredCharacter:
    powers = [{"type": "allomancy", "name": m, "rating": 4} for m in metals]
    character = make_character(
        name=name,
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        powers=powers,
        **{**STATS, **fields},
    )
    return await env.storage.characters.create(env.guild_id, character)


async def test_stunt_add_offers_the_metals_own_stunts_and_keeps_free_text(bot_env: BotEnv) -> None:
    await make(bot_env, "Ham", "Pewter")
    found = await bot_env.harness.autocomplete("/edit stunt-add power:Pewter name:Ham stunt:", user="player1")
    values = [c["value"] for c in found.choices]
    assert values == ["Denser Tissues", "Prodigious Strength", "Extreme Speed"]
    assert found.choices[0]["name"] == "Denser Tissues — −1 damage from each physical attack"
    for _ in range(2):
        added = await bot_env.slash(
            '/edit stunt-add power:Pewter stunt:"Denser Tissues" name:Ham', user="player1"
        )
        assert not refused(added), added.content
    third = await bot_env.slash(
        '/edit stunt-add power:Pewter stunt:"Denser Tissues" name:Ham', user="player1"
    )
    assert refused(third) and "may be taken 2 times" in third.content
    wrong = await bot_env.slash('/edit stunt-add power:Pewter stunt:"Long Range" name:Ham', user="player1")
    assert refused(wrong) and "Stunt of Allomantic Steel or Iron" in wrong.content
    free = await bot_env.slash(
        '/edit stunt-add power:Pewter stunt:"Shrugs off a horse" name:Ham', user="player1"
    )
    assert not refused(free), free.content


async def test_denser_tissues_eases_a_hit_only_while_pewter_burns(bot_env: BotEnv) -> None:
    powers = [{"type": "allomancy", "name": "Pewter", "rating": 4, "stunts": ["Denser Tissues"]}]
    character = make_character(
        name="Ham", kind=CharacterKind.HERO, owner_id=bot_env.user_id("player1"), powers=powers, **STATS
    )
    await bot_env.storage.characters.create(bot_env.guild_id, character)
    cold = await bot_env.slash("/sheet damage amount:3 name:Ham", user="player1")
    assert "Stunt" not in str(cold.embeds[0])
    await bot_env.slash("/power burn metal:Pewter name:Ham", user="player1")
    hit = await bot_env.slash("/sheet damage amount:3 name:Ham", user="player1")
    assert (
        "Denser Tissues: 1 less damage." in str(hit.embeds[0])
        and ": 2 Health damage" in hit.embeds[0]["title"]
    )
    graze = await bot_env.slash("/sheet damage amount:1 name:Ham", user="player1")
    assert "Denser Tissues takes the whole hit" in graze.embeds[0]["description"]
    stored = await bot_env.storage.characters.get_by_name(bot_env.guild_id, "Ham")
    assert stored.character.damage.health == 5


async def test_prodigious_strength_is_named_on_a_strength_roll(bot_env: BotEnv) -> None:
    powers = [{"type": "allomancy", "name": "Pewter", "rating": 3, "stunts": ["Prodigious Strength"]}]
    character = make_character(
        name="Ham",
        kind=CharacterKind.HERO,
        owner_id=bot_env.user_id("player1"),
        powers=powers,
        allomancy={"burning": ["Pewter"]},
        **STATS,
    )
    await bot_env.storage.characters.create(bot_env.guild_id, character)
    lift = await bot_env.slash("/roll stat:Physique character:Ham task:strength", user="player1")
    assert lift.message is not None and "Prodigious Strength 1" in card_text(lift.message)
