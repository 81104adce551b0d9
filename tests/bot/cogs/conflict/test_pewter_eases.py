"""Flared Pewter carries one physical Burden a step lighter while it stays flared (docs/rulings.md
§9.3), through the real dispatch: the attacker counting the Burden gets the lighter dice, and the
pool names why."""

from typing import Any

import pytest

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text

WOUND = "Wounded (Health)"
BRAWL = [
    ("narrator", '/conflict start kind:physical stakes:"A brawl in the alley"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict begin"),
]


async def brawl(env: BotEnv, allomancy: dict[str, Any]) -> BotEnv:
    """Ham (player1's, a Pewterarm with a Grave wound) against the Narrator's Thug."""
    guild = env.guild_id
    ham = make_character(
        name="Ham",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": 4, "wits": 5},
        powers=[{"type": "allomancy", "name": "Pewter", "rating": 3}],
        allomancy=allomancy,
        burdens=[{"name": WOUND, "severity": "grave"}],
    )
    thug = make_character(
        name="Thug",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        attributes={"physique": 4, "wits": 2},
    )
    stored = await env.storage.characters.create(guild, ham)
    await env.storage.characters.create(guild, thug)
    await env.storage.active.set(guild, env.user_id("player1"), stored.id)
    await env.play(BRAWL)
    return env


@pytest.mark.parametrize(
    ("allomancy", "eased"),
    [
        ({"burning": ["Pewter"], "flared": ["Pewter"]}, True),
        ({"burning": ["Pewter"]}, False),
        ({}, False),
    ],
)
async def test_the_thug_counts_hams_wound_a_step_lighter_while_pewter_flares(
    bot_env: BotEnv, allomancy: dict[str, Any], eased: bool
) -> None:
    env = await brawl(bot_env, allomancy)
    declared = await env.slash(
        f'/declare who:Thug action:attack target:Ham stat:Physique burdens:"{WOUND}"', user="narrator"
    )
    assert not declared.ephemeral, declared.content
    text = "\n".join(card_text(m) for m in declared.messages)
    assert ("Flared Pewter: Burden a step lighter 1" in text) is eased
    assert ("5 Action Dice" if eased else "6 Action Dice") in text  # Physique 4 + Grave 2, eased to Serious
