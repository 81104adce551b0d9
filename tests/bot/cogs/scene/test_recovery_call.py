"""Recovery is the Narrator's call (docs/rulings.md §5.12), through the real dispatch: a player
recovers in a Breather the Narrator calls, from their Hero's button, or by the Narrator's hand."""

import copy
from typing import Any

from fake_discord.payloads import JSON
from rules.character import CharacterKind, make_character
from storage import StoredCharacter
from testbed.bot_env import BotEnv

NARRATORS_CALL = "Recovery is the Narrator's call"


async def make(env: BotEnv, name: str, owner: str, **parts: Any) -> StoredCharacter:
    character = make_character(name=name, kind=CharacterKind.HERO, owner_id=env.user_id(owner), **parts)
    stored = await env.storage.characters.create(env.guild_id, character)
    await env.storage.active.set(env.guild_id, env.user_id(owner), stored.id)
    return stored


async def stored(env: BotEnv, name: str) -> StoredCharacter:
    return await env.storage.characters.get_by_name(env.guild_id, name)


def labels(message: JSON) -> list[str]:
    return [c.get("label", "") for row in message.get("components", []) for c in row["components"]]


HURT: dict[str, Any] = {
    "attributes": {"physique": 4, "charm": 3, "wits": 3},
    "standings": {"resources": 4, "influence": 3, "spirit": 3},
    "damage": {"health": 4, "reputation": 3},
    "spent": {"influence": 2},
}


async def test_a_player_cannot_recover_on_their_own(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Vin", "player1", **HURT)
    before = await stored(env, "Vin")
    for line in (
        "/sheet recover",
        "/sheet recover standing:Influence",
        "/sheet breather kind:Long",
        "/sheet heal amount:2",
    ):
        refused = await env.slash(line, user="player1")
        assert refused.ephemeral and NARRATORS_CALL in refused.content, refused.content
        assert "/scene breather" in refused.content
    assert (await stored(env, "Vin")).version == before.version  # nothing changed
    spent = await env.slash("/roll stat:Influence", user="player1")
    assert spent.ephemeral and "when the Narrator calls a Breather or recovers it for you" in spent.content
    by_hand = await env.slash("/sheet recover standing:Influence name:Vin", user="narrator")
    assert not by_hand.ephemeral and (await stored(env, "Vin")).character.spent.influence == 0


async def test_a_breather_the_narrator_calls_is_taken_once_by_each_player(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, "Vin", "player1", **HURT)
    await make(env, "Elend", "player2", **HURT)
    refused = await env.slash("/scene breather kind:short", user="player1")
    assert refused.ephemeral and "Only a Narrator" in refused.content

    called = await env.slash('/scene breather kind:short heroes:"Vin, Elend"', user="narrator")
    assert not called.ephemeral and called.message is not None, called.content
    assert all(f"<@{env.user_id(p)}>" in called.content for p in ("player1", "player2"))
    first_shown = copy.deepcopy(called.message)  # as first shown, buttons and all
    assert labels(first_shown) == ["Take the Short Breather — Vin", "Take the Short Breather — Elend"]

    not_yours = await env.harness.click("Take the Short Breather — Vin", message=first_shown, user="player2")
    assert not_yours.ephemeral and "not yours" in not_yours.content
    taken = await env.harness.click("Take the Short Breather — Vin", message=first_shown, user="player1")
    assert not taken.ephemeral, taken.content
    assert taken.followups and not taken.followups[-1].get("flags", 0) & 64
    shown = str(taken.followups)  # the call was edited; the recovery follows it, for all to see
    assert "Reputation +2" in shown and "Spent Influence +2" in shown
    vin = (await stored(env, "Vin")).character
    assert vin.damage.reputation == 1 and vin.damage.health == 4 and vin.spent.influence == 0
    message = env.harness.fake.messages[int(first_shown["id"])]
    assert labels(message) == ["Take the Short Breather — Elend"]

    again = await env.harness.click("Take the Short Breather — Vin", message=first_shown, user="player1")
    assert again.ephemeral and "no Breather waiting" in again.content
    assert (await stored(env, "Vin")).character.damage.reputation == 1  # taken once only

    replayed = await env.harness.send(called.payload)  # the same call, delivered again
    assert replayed.ephemeral
    vin_id = (await stored(env, "Vin")).id
    assert await env.storage.scenes.breathers_waiting(env.guild_id, [vin_id]) == set()


async def test_a_call_the_narrator_replaced_is_refused_from_its_stale_button(bot_env: BotEnv) -> None:
    """A newer call replaces one not yet taken (docs/rulings.md §5.12); the old message's button
    says so and takes nothing, rather than taking the newer call (issue 39)."""
    env = bot_env
    await make(env, "Vin", "player1", **HURT)
    short = await env.slash("/scene breather kind:short heroes:Vin", user="narrator")
    stale = copy.deepcopy(short.message)
    assert stale is not None and labels(stale) == ["Take the Short Breather — Vin"]
    long = await env.slash("/scene breather kind:long heroes:Vin", user="narrator")
    assert long.message is not None
    before = await stored(env, "Vin")
    refused = await env.harness.click("Take the Short Breather — Vin", message=stale, user="player1")
    assert refused.ephemeral, refused.content
    assert "The Narrator replaced this call with a Long Breather: use the new message." in refused.content
    assert (await stored(env, "Vin")).version == before.version  # nothing taken
    taken = await env.harness.click("Take the Long Breather — Vin", message=long.message, user="player1")
    assert not taken.ephemeral, taken.content
    assert (await stored(env, "Vin")).character.damage.health == 0  # the Long Breather, from its own button
