"""Powers on ``/roll`` through the real dispatch: a tap declared on the roll and spent whatever
it does, and each Power's effect named in the pool (docs/rulings.md §9.3, §9.4)."""

from typing import Any

from rules.character import CharacterKind, make_character
from rules.character.feruchemy import Metalmind
from storage import StoredCharacter
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text

STATS: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 4},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
}


async def make(env: BotEnv, name: str, **fields: Any) -> StoredCharacter:
    character = make_character(
        name=name, kind=CharacterKind.HERO, owner_id=env.user_id("player1"), **{**STATS, **fields}
    )
    return await env.storage.characters.create(env.guild_id, character)


def steelmind(charges: int) -> list[dict[str, Any]]:
    return [
        {"name": "Steel bracer", "implement": {"kind": "metalmind", "metal": "Steel", "charges": charges}}
    ]


async def mind_charges(env: BotEnv, name: str) -> int:
    character = (await env.storage.characters.get_by_name(env.guild_id, name)).character
    implement = character.props[0].implement
    assert isinstance(implement, Metalmind)
    return implement.charges


async def test_a_keeper_taps_steel_for_outcome_and_it_is_spent(bot_env: BotEnv) -> None:
    powers = [{"type": "feruchemy", "name": "Steel", "rating": 3}]
    await make(bot_env, "Sazed", powers=powers, props=steelmind(40))
    reply = await bot_env.slash(
        "/roll stat:Physique character:Sazed tap:Steel tap_charges:20 tap_for:outcome", user="player1"
    )
    assert reply.message is not None, reply.content
    text = card_text(reply.message)
    assert "Steel tapped: +2 Outcome on a success." in text and "20 charges of Steel tapped." in text
    assert await mind_charges(bot_env, "Sazed") == 20
    dice = await bot_env.slash("/roll stat:Physique character:Sazed tap:Steel tap_charges:5", user="player1")
    assert dice.message is not None and "Steel tapped 5" in card_text(dice.message)
    assert await mind_charges(bot_env, "Sazed") == 15


async def test_a_bad_tap_is_refused_and_spends_nothing(bot_env: BotEnv) -> None:
    powers = [{"type": "feruchemy", "name": "Steel", "rating": 1}]
    await make(bot_env, "Sazed", powers=powers, props=steelmind(40))
    for line, said in (
        ("/roll stat:Physique character:Sazed tap:Steel tap_charges:11", "1 to 10"),
        ("/roll stat:Physique character:Sazed tap:Steel tap_charges:7 tap_for:nudges", "multiple of 5"),
        ("/roll dice:3 tap:Steel tap_charges:5", "roll a `stat`"),
        ("/roll stat:Physique character:Sazed tap_charges:5", "Name the metal"),
        ("/roll stat:Physique character:Sazed tap:Pewter tap_charges:5", "no Feruchemical Pewter"),
    ):
        reply = await bot_env.slash(line, user="player1")
        assert refused(reply) and said in reply.content, (line, reply.content)
    assert await mind_charges(bot_env, "Sazed") == 40


async def test_burning_tin_is_named_on_a_sense_roll(bot_env: BotEnv) -> None:
    powers = [{"type": "allomancy", "name": "Tin", "rating": 3}]
    await make(bot_env, "Vin", powers=powers, allomancy={"burning": ["Tin"]})
    sense = await bot_env.slash("/roll stat:Wits character:Vin task:senses", user="player1")
    assert sense.message is not None and "Tin 3" in card_text(sense.message)
    plain = await bot_env.slash("/roll stat:Wits character:Vin", user="player1")
    assert plain.message is not None and "Tin" not in card_text(plain.message)
