"""A Keeper taps Zinc for the declaring order through the real dispatch (docs/rulings.md §9.4):
the Wits count from the next round, and `/roll` refuses the tap, which is a Conflict's."""

from rules.character import CharacterKind, make_character
from rules.character.feruchemy import MindSize
from testbed.bot_env import BotEnv, refused
from tests.bot.cogs.conflict.test_conflict_pushes import gathering, thug


async def zinc_keeper(env: BotEnv) -> None:
    """A Keeper of Zinc at 3 (Wits 1, so the slowest) with a Zincmind of 40."""
    mind = {"kind": "metalmind", "metal": "Zinc", "size": MindSize.AVERAGE, "charges": 40}
    character = make_character(
        name="Tindwyl",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player1"),
        powers=[{"type": "feruchemy", "name": "Zinc", "rating": 3}],
        attributes={"physique": 3, "charm": 3, "wits": 1},
        standings={"resources": 4, "influence": 3, "spirit": 3},
        props=[{"name": "Zinc ring", "implement": mind}],
    )
    await env.storage.characters.create(env.guild_id, character)


async def test_a_keeper_taps_zinc_to_declare_after_the_thug_next_round(bot_env: BotEnv) -> None:
    env = bot_env
    await zinc_keeper(env)
    await thug(env, [])  # Wits 2
    await env.play(gathering("player1", "Tindwyl"))
    early = await env.slash("/declare who:Thug action:no-roll")
    assert refused(early) and "Tindwyl's turn to declare" in early.content
    declared = await env.slash(
        "/declare action:full-defence stat:Physique tap:Zinc tap_charges:3 tap_for:wits", user="player1"
    )
    assert not refused(declared), declared.content
    assert "+3 Wits to declare by next round" in str(declared.messages)
    await env.play([("narrator", "/declare who:Thug action:no-roll"), ("narrator", "/conflict next-round")])
    late = await env.slash("/declare action:no-roll", user="player1")
    assert refused(late) and "Thug's turn to declare" in late.content
    stored = await env.storage.characters.get_by_name(env.guild_id, "Tindwyl")
    (ring,) = stored.character.props
    assert ring.implement is not None and getattr(ring.implement, "charges", None) == 37


async def test_roll_refuses_a_tap_for_wits_privately(bot_env: BotEnv) -> None:
    env = bot_env
    await zinc_keeper(env)
    await env.play([("player1", "/character use name:Tindwyl")])
    reply = await env.slash("/roll stat:Wits tap:Zinc tap_charges:3 tap_for:wits", user="player1")
    assert refused(reply) and reply.ephemeral
    assert "tap it on /declare" in reply.content
