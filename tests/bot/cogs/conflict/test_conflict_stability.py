"""Brass cannot touch a kandra blessed with Stability, whoever the target, through the real
dispatch (docs/rulings.md §9.6, §9.10): refused privately when the table may read the target's
sheet; a hidden Villain's Blessing stays the Narrator's secret (§7.1)."""

import pytest

from rules.character import CharacterKind
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, make


@pytest.mark.parametrize(("revealed", "refusal"), [(True, True), (False, False)])
async def test_brass_at_a_stability_blessed_villain(bot_env: BotEnv, revealed: bool, refusal: bool) -> None:
    env = bot_env
    await make(env, "Breeze", "player1", ["Brass"])
    thug = {"physique": 5, "charm": 2, "wits": 2}
    await make(
        env, "Thug", "narrator", [], kind=CharacterKind.VILLAIN, attributes=thug,
        hemalurgy={"blessings": ["stability"]},
    )  # fmt: skip
    if revealed:
        await env.slash("/character reveal name:Thug")
    await env.play([*gathering("player1", "Breeze"), ("narrator", "/declare who:Thug action:no-roll")])
    await env.play([("player1", "/burn metal:Brass flare:true")])
    declared = await env.slash("/declare action:attack target:Thug stat:Brass", user="player1")
    if refusal:
        assert refused(declared) and declared.ephemeral
        assert "blessed with Stability: Brass cannot touch them" in declared.content
    else:
        assert not refused(declared), declared.content
        assert "Stability" not in str(declared.messages)
