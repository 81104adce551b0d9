"""A drinker of Wits 4 or more is told the vial was impure (docs/rulings.md §9.2), through the
real dispatch of ``/power drink`` and a Conflict's ``/drink``."""

from typing import Any

import pytest

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, refused

SPOTTED = "spots the impurity before drinking"
VIAL = {
    "name": "Steel vial",
    "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3, "impure": True},
}


async def make(env: BotEnv, wits: int) -> None:
    character = make_character(
        name="Vin",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": 4, "charm": 3, "wits": wits},
        powers=[{"type": "allomancy", "name": "Steel", "rating": 4}],
        props=[VIAL],
    )
    stored = await env.storage.characters.create(env.guild_id, character)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), stored.id)


def said(reply: Any) -> str:
    return "\n".join(str(m) for m in reply.messages)


@pytest.mark.parametrize(("wits", "spotted"), [(3, False), (4, True)])
async def test_power_drink_tells_a_sharp_drinker(bot_env: BotEnv, wits: int, spotted: bool) -> None:
    await make(bot_env, wits)
    drunk = await bot_env.slash('/power drink vial:"Steel vial"', user="player1")
    assert not refused(drunk), drunk.content
    assert "was impure" in said(drunk)
    assert (SPOTTED in said(drunk)) is spotted


@pytest.mark.parametrize(("wits", "spotted"), [(3, False), (4, True)])
async def test_a_conflicts_drink_tells_a_sharp_drinker(bot_env: BotEnv, wits: int, spotted: bool) -> None:
    env = bot_env
    await make(env, wits)
    await env.play(
        [
            ("narrator", '/conflict start kind:physical stakes:"The keep"'),
            ("player1", "/conflict join"),
            ("narrator", "/conflict begin"),
        ]
    )
    drunk = await env.slash('/drink vial:"Steel vial"', user="player1")
    assert not refused(drunk), drunk.content
    assert (SPOTTED in said(drunk)) is spotted
    await env.bot.conflicts.idle()
