"""A hidden character's Burdens are the Narrator's (docs/rulings.md §7.1): nothing a player types
in ``burdens:`` tells them whether a guess was right."""

import pytest

from rules.character import CharacterKind, make_character
from testbed.bot_env import ALLEY_BRAWL, BotEnv

BURDEN = "Cracked rib"


@pytest.fixture
async def alley(bot_env: BotEnv) -> BotEnv:
    """Vin (player1's) against the Thug, a hidden Villain with a Burden; Vin declares first."""
    env = bot_env
    guild = env.guild_id
    vin = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=env.user_id("player1"))
    thug = make_character(
        name="Thug",
        kind=CharacterKind.VILLAIN,
        owner_id=env.user_id("narrator"),
        attributes={"wits": 4},
        burdens=[{"name": BURDEN, "severity": "serious"}],
    )
    stored = await env.storage.characters.create(guild, vin)
    await env.storage.characters.create(guild, thug)
    await env.storage.active.set(guild, env.user_id("player1"), stored.id)
    await env.play(ALLEY_BRAWL[:4])
    return env


@pytest.mark.parametrize("guess", [BURDEN, "Broken arm", "cracked", "Cracked rib, Broken arm"])
async def test_a_players_guess_at_a_hidden_burden_gets_one_answer(alley: BotEnv, guess: str) -> None:
    env = alley
    refused = await env.slash(
        f'/declare action:attack target:Thug stat:Physique burdens:"{guess}"', user="player1"
    )
    assert refused.ephemeral
    assert refused.content == (
        "Only a Narrator counts Thug's Burdens toward a roll. Leave burdens out; if the Narrator "
        "says a Burden of theirs helps you, count it with circumstances."
    )
    declared = await env.slash("/declare action:attack target:Thug stat:Physique", user="player1")
    assert not declared.ephemeral, declared.content  # nothing was saved by the refusal


async def test_a_narrator_still_counts_the_burden(alley: BotEnv) -> None:
    env = alley
    vin_burdened = await env.slash(
        f'/declare who:Vin action:attack target:Thug stat:Physique burdens:"{BURDEN}"', user="narrator"
    )
    assert not vin_burdened.ephemeral, vin_burdened.content
