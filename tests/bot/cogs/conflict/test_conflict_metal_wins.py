"""Metal in a body and a won deflection's extras through the real dispatch (docs/rulings.md §9.3,
§9.7): a Coinshot tearing at a Thug's spike needs Outcome 5, and a Thug burning Iron catches a
coin with 2 Nudges or may draw it in."""

import pytest

from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make, thug


async def _kel_burns_steel(env: BotEnv, thug_burns: list[str]) -> None:
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, thug_burns)
    await env.play(
        [
            *gathering("player1", "Kel"),
            *(("narrator", f"/burn metal:{m} who:Thug") for m in thug_burns),
            ("narrator", "/declare who:Thug action:no-roll"),
            ("player1", "/burn metal:Steel"),
        ]
    )


@pytest.mark.parametrize(
    ("thug_faces", "said"),
    [
        ("1 2", "The metal tears free of **Thug**'s body. If it was a spike"),
        ("1 1", "**Kel** wins by Outcome 4, short of the 5 it needs"),
    ],
)
async def test_metal_in_a_body_moves_only_on_outcome_five(
    bot_env: BotEnv, thug_faces: str, said: str
) -> None:
    env = bot_env
    await _kel_burns_steel(env, [])
    declared = await env.slash(
        "/declare action:action target:Thug stat:Steel held:true inside:true", user="player1"
    )
    assert not refused(declared), declared.content
    assert "on metal in their body" in str(declared.messages)
    await env.play([("player1", "/act dice:5")])
    rolled = await env.slash(
        f'/defend dice:2 attacker_faces:"5 5 1 2 3" faces:"{thug_faces}"', user="narrator"
    )
    assert not refused(rolled), rolled.content
    text = str(rolled.messages)
    assert said in text
    assert "disarmed or knocked down" not in text


async def test_inside_without_held_is_refused_privately(bot_env: BotEnv) -> None:
    env = bot_env
    await _kel_burns_steel(env, [])
    reply = await env.slash("/declare action:action target:Thug stat:Steel inside:true", user="player1")
    assert refused(reply) and reply.ephemeral
    assert "add held" in reply.content


@pytest.mark.parametrize(
    ("thug_faces", "said"),
    [
        ("5 5 6 6", "**Thug** deflects it with Iron and catches it, with 2 Nudges."),
        ("5 5 6 1", "**Thug** deflects it with Iron: it misses, and Iron may draw it in."),
    ],
)
async def test_a_won_deflection_catches_the_coin_or_draws_it_in(
    bot_env: BotEnv, thug_faces: str, said: str
) -> None:
    env = bot_env
    await _kel_burns_steel(env, ["Iron"])
    await env.play(
        [
            ("player1", "/declare action:attack target:Thug stat:Steel push:small"),
            ("player1", "/act dice:5"),
        ]
    )
    rolled = await env.slash(
        f'/defend dice:4 deflect:true attacker_faces:"3 3 1 1 1" faces:"{thug_faces}"', user="narrator"
    )
    assert not refused(rolled), rolled.content
    assert said in str(rolled.messages)
