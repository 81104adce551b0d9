"""The Narrator's scene: Circumstances only ever the Narrator's (docs/rulings.md §1.6), through the
real dispatch: ``/scene circumstances``, and every roll a player makes in the channel."""

from typing import Any

from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from rules.character import CharacterKind, make_character
from storage.conflict_moves import current_conflict
from testbed.bot_env import BotEnv
from testbed.cards import card_fields

REFUSED = "Circumstances are the Narrator's call"
MISTS = '/scene circumstances value:1 note:"in the mists"'


def fields(record: InteractionRecord | JSON) -> dict[str, str]:
    message = record.message if isinstance(record, InteractionRecord) else record
    assert message is not None
    return card_fields(message)


async def hero(env: BotEnv, name: str = "Vin", owner: str = "player1", **parts: Any) -> None:
    character = make_character(name=name, kind=CharacterKind.HERO, owner_id=env.user_id(owner), **parts)
    stored = await env.storage.characters.create(env.guild_id, character)
    await env.storage.active.set(env.guild_id, env.user_id(owner), stored.id)


async def test_a_player_rolls_with_the_scenes_circumstances_never_their_own(bot_env: BotEnv) -> None:
    env = bot_env
    own = await env.slash("/roll dice:4 circumstances:1", user="player1")
    assert own.ephemeral and REFUSED in own.content, own.content
    assert await env.storage.rolls.recent(env.guild_id) == []  # refused before anything was rolled

    not_theirs = await env.slash(MISTS, user="player1")
    assert not_theirs.ephemeral and "Only a Narrator" in not_theirs.content
    set_here = await env.slash(MISTS, user="narrator")
    assert not set_here.ephemeral and "+1" in set_here.content and "in the mists" in set_here.content

    rolled = await env.slash("/roll dice:4", user="player1")
    assert fields(rolled)["Pool"].startswith("Dice 4 + Circumstances = **5**")
    assert fields(rolled)["Circumstances"] == "+1 (the Narrator's, for this scene: in the mists)"
    seen = await env.slash("/scene circumstances", user="player2")
    assert seen.ephemeral and "+1" in seen.content and "in the mists" in seen.content

    narrator = await env.slash("/roll dice:4 circumstances:-1", user="narrator")
    assert fields(narrator)["Pool"].startswith("Dice 4 − Circumstances = **3**")
    assert fields(narrator)["Circumstances"] == "-1 (the Narrator's, for this roll)"

    cleared = await env.slash("/scene circumstances value:0", user="narrator")
    assert "cleared" in cleared.content
    plain = await env.slash("/roll dice:4", user="player1")
    assert fields(plain)["Pool"].startswith("Dice 4 = **4**") and "Circumstances" not in fields(plain)


async def test_a_contests_acting_side_carries_the_scenes_circumstances(bot_env: BotEnv) -> None:
    env = bot_env
    own = await env.slash("/contest actor_dice:4 opponent_dice:3 circumstances:1", user="player1")
    assert own.ephemeral and REFUSED in own.content, own.content
    await env.slash(MISTS, user="narrator")
    contest = await env.slash("/contest actor_dice:4 opponent_dice:3", user="player1")
    assert not contest.ephemeral, contest.content
    assert fields(contest)["Circumstances"] == "+1 (the Narrator's, for this scene: in the mists)"
    acting, opposing = await env.storage.rolls.recent(env.guild_id)  # newest first
    assert {acting.dice, opposing.dice} == {5, 3}


async def test_a_players_declaration_carries_the_scenes_circumstances(bot_env: BotEnv) -> None:
    env = bot_env
    await hero(env, attributes={"physique": 4})
    for user, line in [
        ("narrator", '/conflict start kind:physical stakes:"Out in the mists"'),
        ("player1", "/conflict join"),
        ("narrator", "/conflict begin"),
        ("narrator", '/scene circumstances value:-1 note:"thick mist"'),
    ]:
        reply = await env.slash(line, user=user)
        assert not reply.ephemeral, reply.content
    own = await env.slash("/declare action:full-defence stat:Physique circumstances:1", user="player1")
    assert own.ephemeral and REFUSED in own.content, own.content
    declared = await env.slash("/declare action:full-defence stat:Physique", user="player1")
    assert not declared.ephemeral, declared.content
    conflict = await current_conflict(env.storage, env.guild_id, env.world.guild.channels[0].id)
    assert conflict is not None
    [vin] = conflict.participants
    assert vin.round.defense_dice == 3  # Physique 4, less the scene's adverse Circumstances


async def test_a_request_carries_the_narrators_circumstances_not_the_players(bot_env: BotEnv) -> None:
    env = bot_env
    await hero(env, attributes={"charm": 4})
    await env.slash(MISTS, user="narrator")
    asked = await env.slash("/request roll stat:Charm heroes:Vin", user="narrator")
    assert not asked.ephemeral, asked.content
    assert fields(asked)["Circumstances (the Narrator's)"] == "+1 die: in the mists"
    opened = await env.harness.click("Roll — Vin", message=asked.message, user="player1")
    assert opened.ephemeral and opened.message is not None
    placeholders = [c.get("placeholder") for row in opened.message["components"] for c in row["components"]]
    assert "Circumstances" not in placeholders  # nothing for the player to pick
    go = next(
        c["custom_id"]
        for row in opened.message["components"]
        for c in row["components"]
        if c.get("custom_id", "").startswith("mab:rqg:")
    )
    rolled = await env.harness.click(go, message=opened.message, user="player1")
    assert "Charm 4 + Circumstances = **5**" in fields(rolled)["Pool"], rolled.text

    own = await env.slash("/request roll stat:Charm heroes:Vin circumstances:-1", user="narrator")
    assert fields(own)["Circumstances (the Narrator's)"] == "-1 die"
