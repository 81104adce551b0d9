"""A Steelpush in a Conflict through the real dispatch: a Coinshot pushes a medium object at a
Thug, its +2 in the damage (docs/rulings.md §9.3), and nobody else pushes (§9.3)."""

from typing import Any

import pytest

from rules.character import CharacterKind, Resilience, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv, board_message, refused
from testbed.cards import card_text


async def make(env: BotEnv, name: str, owner: str, powers: list[str], **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(
        name=name,
        owner_id=env.user_id(owner),
        powers=[{"type": "allomancy", "name": m, "rating": 5} for m in powers],
        attributes=fields.pop("attributes", {"physique": 4, "charm": 3, "wits": 4}),
        standings={"resources": 4, "influence": 3, "spirit": 3},
        **fields,
    )
    return await env.storage.characters.create(env.guild_id, character)


def gathering(user: str, hero: str) -> list[tuple[str, str]]:
    """The fight in the keep: ``hero`` against the Thug, round 1 begun."""
    return [
        ("narrator", '/conflict start kind:physical stakes:"The keep"'),
        (user, f"/character use name:{hero}"),
        (user, "/conflict join"),
        ("narrator", "/conflict add character:Thug"),
        ("narrator", "/conflict begin"),
    ]


async def thug(env: BotEnv, powers: list[str]) -> None:
    thug_stats = {"physique": 5, "charm": 2, "wits": 2}
    await make(env, "Thug", "narrator", powers, kind=CharacterKind.VILLAIN, attributes=thug_stats)


async def fight(env: BotEnv) -> None:
    await make(env, "Kel", "player1", ["Steel"])
    await thug(env, [])
    await env.play([*gathering("player1", "Kel"), ("narrator", "/declare who:Thug action:no-roll")])


async def test_a_coinshot_pushes_a_medium_object_for_two_more_damage(bot_env: BotEnv) -> None:
    env = bot_env
    await fight(env)
    await env.play([("player1", "/burn metal:Steel")])
    declared = await env.slash("/declare action:attack target:Thug stat:Steel push:medium", user="player1")
    assert not refused(declared), declared.content
    acted = await env.slash("/act dice:3", user="player1")
    assert not refused(acted), acted.content
    rolled = await env.slash('/defend dice:0 attacker_faces:"3 3 1"', user="narrator")
    assert not refused(rolled), rolled.content
    thug = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert thug.character.damage.get(Resilience.HEALTH) == 1 + 2
    assert "pushed medium object 2" in str(rolled.messages)


async def test_only_a_steel_or_iron_burner_pushes(bot_env: BotEnv) -> None:
    env = bot_env
    await fight(env)
    unlit = await env.slash("/declare action:attack target:Thug stat:Physique push:small", user="player1")
    assert refused(unlit) and "must be burning Steel or Iron" in unlit.content
    assert unlit.ephemeral


async def test_a_lurcher_deflects_a_push_and_nobody_else_does(bot_env: BotEnv) -> None:
    """§9.3: deflecting is a defence against a metal attack, for a Steel or Iron burner only;
    §9.7: Improved Redirection's die joins it."""
    env = bot_env
    iron = [{"type": "allomancy", "name": "Iron", "rating": 4, "stunts": ["Improved Redirection"]}]
    lurcher = make_character(
        name="Lurcher",
        kind=CharacterKind.HERO,
        owner_id=env.user_id("player2"),
        powers=iron,
        attributes={"physique": 3, "charm": 3, "wits": 5},
        standings={"resources": 4, "influence": 3, "spirit": 3},
    )
    await env.storage.characters.create(env.guild_id, lurcher)
    await thug(env, ["Steel"])
    await env.play(
        [
            *gathering("player2", "Lurcher"),
            ("narrator", "/burn metal:Steel who:Thug"),
            ("narrator", "/declare who:Thug action:attack target:Lurcher stat:Steel push:small"),
            ("player2", "/declare action:no-roll"),
            ("narrator", "/act who:Thug dice:5"),
        ]
    )
    unlit = await env.slash("/defend dice:2 deflect:true", user="player2")
    assert refused(unlit) and "Only a Steel or Iron burner deflects" in unlit.content
    await env.play([("player2", "/burn metal:Iron")])
    deflected = await env.slash("/defend dice:2 deflect:true", user="player2")
    assert not refused(deflected), deflected.content
    said = str(deflected.messages)
    assert "1 die of Improved Redirection, deflecting with Iron" in said
    assert "Iron 4" in said


@pytest.mark.parametrize(("metals", "hurt"), [(["Steel", "Tin"], 0), (["Steel", "Pewter"], 5)])
async def test_anchoring_to_no_health_defeats_the_pusher_and_ends_every_burn(
    bot_env: BotEnv, metals: list[str], hurt: int
) -> None:
    """§9.3, §9.2: the anchors take Kel's last Health (1 of 8, or of 13 with Pewter's 5 once
    the Narrator's 5 more are dealt); the push still flies, and he is defeated and knocked out,
    every metal out on the sheet and the board."""
    env = bot_env
    await make(env, "Kel", "player1", metals, damage={"health": 7})
    await thug(env, [])
    await env.play(
        [
            *gathering("player1", "Kel"),
            ("narrator", "/declare who:Thug action:no-roll"),
            *(("player1", f"/burn metal:{metal}") for metal in metals),
            *([("narrator", f"/sheet damage amount:{hurt} name:Kel")] if hurt else []),
            ("player1", "/declare action:attack target:Thug stat:Steel push:small anchored:true"),
        ]
    )
    acted = await env.slash("/act dice:3", user="player1")
    assert not refused(acted), acted.content
    said = str(acted.messages)
    assert "Kel is knocked out: every metal stops burning." in said and "defeated" in said.lower()
    kel = await env.storage.characters.get_by_name(env.guild_id, "Kel")
    assert kel.character.allomancy.burning == ()
    await env.bot.conflicts.idle()
    row = next(r for r in card_text(await board_message(env)).splitlines() if r.startswith("**Kel**"))
    assert "burning" not in row and "defeated" in row and "Health 0/8" in row
    rolled = await env.slash('/defend dice:0 attacker_faces:"5 5 1"', user="narrator")
    assert not refused(rolled), rolled.content
    thug_sheet = await env.storage.characters.get_by_name(env.guild_id, "Thug")
    assert thug_sheet.character.damage.get(Resilience.HEALTH) == 1 + 1  # the coin still flies
