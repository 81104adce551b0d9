"""A kandra's Blessings and an Inquisitor's Copper spike set their place in the declaring order,
through the real dispatch (docs/rulings.md §9.5, §9.6)."""

import pytest

from rules.character import CharacterKind, make_character
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, thug


async def kandra(env: BotEnv, blessings: list[str], spikes: int) -> None:
    """TenSoon at Wits 1: slower than the Thug (Wits 2) unless a Power lifts him."""
    character = make_character(
        name="TenSoon",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        attributes={"physique": 3, "charm": 3, "wits": 1},
        standings={"resources": 4, "influence": 3, "spirit": 3},
        hemalurgy={"blessings": blessings, "spikes": [{"metal": "Copper"}] * spikes},
    )
    await env.storage.characters.create(env.guild_id, character)


@pytest.mark.parametrize(
    ("blessings", "spikes", "first"),
    [
        ([], 0, "TenSoon"),  # Wits 1 before the Thug's 2
        (["awareness"], 0, "Thug"),  # 1 + 2 for the order
        (["presence"], 0, "Thug"),  # Presence: Wits 3
        ([], 2, "Thug"),  # two Copper spikes: Wits 3
    ],
)
async def test_powers_move_a_kandra_in_the_declaring_order(
    bot_env: BotEnv, blessings: list[str], spikes: int, first: str
) -> None:
    env = bot_env
    await kandra(env, blessings, spikes)
    await thug(env, [])
    await env.play(gathering("player1", "TenSoon"))
    user, who = ("narrator", " who:Thug") if first == "TenSoon" else ("player1", "")
    early = await env.slash(f"/declare{who} action:no-roll", user=user)
    assert refused(early) and f"{first}'s turn to declare" in early.content
