"""``/advancement``: a Hero's ledger through the real dispatch (docs/rulings.md §9.1): what the
table and the Narrator are told, what is stored, and the journal entry saved with it."""

from typing import Any

from rules.character import CharacterKind, make_character
from rules.character.advancement import Advancements
from storage import StoredCharacter
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, journal_of


async def make(env: BotEnv, name: str = "Vin", owner: str = "player1", **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(name=name, owner_id=env.user_id(owner), **fields)
    return await env.storage.characters.create(env.guild_id, character)


async def ledger(env: BotEnv, name: str = "Vin") -> Advancements:
    return (await env.storage.characters.get_by_name(env.guild_id, name)).character.advancements


async def test_an_award_is_told_stored_and_journaled(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env)
    await env.slash("/session start", user="narrator")
    reply = await env.slash('/advancement award name:Vin amount:2 reason:"The Keep\'s plan"')
    assert not reply.ephemeral
    assert reply.content == "Vin earns 2 Advancements (The Keep's plan). Now 2 held."
    assert await ledger(env) == Advancements(held=2, earned=2)
    shown = await env.slash("/character show name:Vin", user="player2")
    assert shown.message is not None
    assert "**Advancements**\n2 held of 20 (2 earned, 0 spent)" in card_text(shown.message)
    await env.slash("/session end", user="narrator")
    text = journal_of(env, await env.slash("/session journal", user="player2"))
    assert "Vin earns 2 Advancements (The Keep's plan). Now 2 held." in text


async def test_past_twenty_the_rest_is_lost_and_the_narrator_is_told(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, advancements={"held": 19, "earned": 25, "spent": 6})
    reply = await env.slash("/advancement award name:Vin amount:3")
    assert reply.content == "Vin earns 3 Advancements; 2 lost over the 20 a Hero holds. Now 20 held."
    private = [m for m in reply.followups if m.get("flags", 0) & EPHEMERAL]
    assert len(private) == 1 and "2 Advancements of this award are lost" in private[0]["content"]
    assert await ledger(env) == Advancements(held=20, earned=28, spent=6, lost=2)


async def test_only_a_narrator_awards_and_only_heroes_keep_a_ledger(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env)
    await make(env, "Thug", owner="narrator", kind=CharacterKind.VILLAIN)
    refused = await env.slash("/advancement award name:Vin amount:5", user="player1")
    assert refused.ephemeral and "Only a Narrator can award Advancements" in refused.content
    villain = await env.slash("/advancement award name:Thug amount:1")
    assert villain.ephemeral and "Only Heroes keep Advancements" in villain.content
    assert await ledger(env) == Advancements()


async def test_taking_back_never_goes_below_none_held(bot_env: BotEnv) -> None:
    env = bot_env
    await make(env, advancements={"held": 3, "earned": 3})
    too_many = await env.slash("/advancement take_back name:Vin amount:4")
    assert too_many.ephemeral and "Only 3 Advancements held" in too_many.content
    taken = await env.slash('/advancement take_back name:Vin amount:2 reason:"given twice"')
    assert taken.content == "The Narrator takes back 2 Advancements from Vin (given twice). Now 1 held."
    assert await ledger(env) == Advancements(held=1, earned=1)
    shown = await env.slash("/advancement show name:Vin", user="player2")
    assert shown.ephemeral and shown.content == "**Vin**: 1 held of 20 (1 earned, 0 spent)."
