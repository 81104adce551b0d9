"""``/advancement``: a Hero's ledger through the real dispatch (docs/rulings.md §10.1): what the
table and the Narrator are told, what is stored, and the journal entry saved with it."""

from pathlib import Path
from typing import Any

import pytest

from bot.web.sheets import sheet_data
from rules.character import CharacterKind, make_character
from rules.character.advancement import Advancements
from rules.journal import EntryKind, JournalEntry
from storage import StoredCharacter
from storage.journal import JournalRepository
from storage.places import Origin
from storage.sql import utc_now
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, journal_of


async def make(env: BotEnv, name: str = "Vin", owner: str = "player1", **fields: Any) -> StoredCharacter:
    fields.setdefault("kind", CharacterKind.HERO)
    character = make_character(name=name, owner_id=env.user_id(owner), **fields)
    return await env.storage.characters.create(env.guild_id, character)


async def ledger(env: BotEnv, name: str = "Vin") -> Advancements:
    return (await env.storage.characters.get_by_name(env.guild_id, name)).character.advancements


async def burden_gave_dice(env: BotEnv, hero: StoredCharacter, burden: str) -> None:
    """The journal's entry a declaration leaves when ``hero``'s ``burden`` gave someone dice."""
    used = JournalEntry(
        at=utc_now(),
        kind=EntryKind.BURDEN_USED,
        text=f"Thug counted {hero.name}'s Burden {burden} in a declaration.",
        character_id=hero.id,
        hero=hero.name,
        character_kind=CharacterKind.HERO,
        burden=burden,
    )
    await env.storage.journal.add(env.guild_id, Origin(channel_id=env.harness.channel.id), [used])


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


async def test_tonights_awards_fill_in_the_burden_trigger_and_reach_the_recap(bot_env: BotEnv) -> None:
    env = bot_env
    vin = await make(env, advancements={"held": 19, "earned": 19})
    await make(env, "Elend", owner="player2")
    await make(env, "Thug", owner="narrator", kind=CharacterKind.VILLAIN)
    refused = await env.slash("/advancement night")
    assert refused.ephemeral and "No session is open" in refused.content
    await env.slash("/session start", user="narrator")
    await env.slash("/sheet damage amount:1 name:Vin", user="player1")
    await env.slash("/sheet damage amount:1 name:Elend", user="player2")
    await env.slash("/sheet damage amount:1 name:Thug", user="narrator")
    used = [
        JournalEntry(
            at=utc_now(),
            kind=EntryKind.BURDEN_USED,
            text=f"Thug counted Vin's Burden {name} in a declaration.",
            character_id=vin.id,
            hero="Vin",
            character_kind=CharacterKind.HERO,
            burden=name,
        )
        for name in ("Tin-eye", "tin-eye", "Reckless")
    ]
    await env.storage.journal.add(env.guild_id, Origin(channel_id=env.harness.channel.id), used)
    player = await env.slash("/advancement night", user="player1")
    assert player.ephemeral and "Only a Narrator" in player.content
    panel = await env.slash("/advancement night")
    assert panel.ephemeral and panel.message is not None
    text = panel.message["content"]
    assert "**Elend**: 0" in text and "**Vin**: 2 · Burden trigger 2: Tin-eye, Reckless" in text
    assert "Thug" not in text  # Villains earn no Advancements
    chose = await env.harness.select(
        "mab:awsel:1:" + str((await env.storage.characters.get_by_name(env.guild_id, "Elend")).id),
        ["Elend: 3 Advancements"],
        message=panel.message,
    )
    assert chose.message is not None and "**Elend**: 3" in chose.message["content"]
    given = await env.harness.click("Give these awards", message=panel.message)
    public = [m for m in given.followups if not m.get("flags", 0) & EPHEMERAL]
    private = [m for m in given.followups if m.get("flags", 0) & EPHEMERAL]
    assert "Elend earns 3 Advancements tonight (3 Advancements for the night)." in public[0]["content"]
    burdens = "the Burden Tin-eye gave dice; the Burden Reckless gave dice"
    assert f"Vin earns 2 Advancements tonight ({burdens})." in public[0]["content"]
    assert "Vin lost 1 over the 20 a Hero holds." in private[0]["content"]
    assert await ledger(env) == Advancements(held=20, earned=21, lost=1)
    assert await ledger(env, "Elend") == Advancements(held=3, earned=3)
    ended = await env.slash("/session end", user="narrator")
    recap = card_text(ended.messages[0])
    assert "**Advancements**" in recap and "Elend earns 3 Advancements tonight" in recap


async def test_a_failure_between_the_award_and_its_journal_entry_keeps_neither(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = bot_env
    await make(env)
    await env.slash("/session start", user="narrator")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away between the sheet and the journal")

    monkeypatch.setattr(JournalRepository, "add", broken)
    failed = await env.slash("/advancement award name:Vin amount:2")
    assert failed.ephemeral
    assert await ledger(env) == Advancements()  # the sheet's write went with the journal's
    monkeypatch.undo()
    again = await env.slash("/advancement award name:Vin amount:2")
    assert again.content == "Vin earns 2 Advancements. Now 2 held."
    assert await ledger(env) == Advancements(held=2, earned=2)


async def test_the_session_end_offers_tonights_awards_and_the_recap_shows_them(bot_env: BotEnv) -> None:
    env = bot_env
    vin = await make(env)
    await make(env, "Elend", owner="player2")
    await env.slash("/session start", user="narrator")
    await env.slash("/sheet damage amount:1 name:Elend", user="player2")
    first = await env.slash("/session end", user="narrator")
    [stale] = [m for m in first.messages if m["flags"] & EPHEMERAL and "Tonight's awards" in m["content"]]
    await env.slash("/session start title:Second", user="narrator")
    late = await env.harness.click("Give these awards", message=stale)
    assert late.ephemeral and "That session has ended: its awards are closed." in late.content
    assert await ledger(env, "Elend") == Advancements()
    await env.slash("/sheet damage amount:1 name:Elend", user="player2")
    await burden_gave_dice(env, vin, "Reckless")
    ended = await env.slash("/session end", user="narrator")
    recap = ended.messages[0]
    assert not recap["flags"] & EPHEMERAL and "Advancements" not in card_text(recap)
    offer = [m for m in ended.messages if m["flags"] & EPHEMERAL and "Tonight's awards" in m["content"]]
    assert len(offer) == 1, "the Narrator is offered the night's awards, privately"
    panel = offer[0]
    assert "**Vin**: 1 · Burden trigger 1: Reckless" in panel["content"]
    assert "**Elend**: 0" in panel["content"]
    assert "Given for: schemes and goals pursued" in panel["content"]
    elend = (await env.storage.characters.get_by_name(env.guild_id, "Elend")).id
    await env.harness.select(f"mab:awsel:2:{elend}", ["Elend: 2 Advancements"], message=panel)
    given = await env.harness.click("Give these awards", message=panel)
    assert "Vin earns 1 Advancement tonight (the Burden Reckless gave dice)." in given.followups[0]["content"]
    assert await ledger(env) == Advancements(held=1, earned=1)
    assert await ledger(env, "Elend") == Advancements(held=2, earned=2)
    shown = card_text(env.harness.fake.messages[int(recap["id"])])
    assert "**Advancements**" in shown and "Elend earns 2 Advancements tonight" in shown
    again = await env.slash("/session recap", user="player1")
    assert "Vin earns 1 Advancement tonight" in card_text(again.messages[0])


async def test_the_ledger_travels_in_an_export_and_shows_on_the_web_view(
    bot_env: BotEnv, tmp_path: Path
) -> None:
    env = bot_env
    await make(env, advancements={"held": 5, "earned": 9, "spent": 4})
    exported = await env.slash("/character export name:Vin", user="player1")
    assert exported.message is not None
    path = tmp_path / "vin.json"
    path.write_bytes(env.harness.fake.file_bytes(exported.message["attachments"][0]))
    copied = await env.slash(f'/character import file:"{path}" name:Valette', user="player1")
    assert copied.message is not None and "Imported **Valette**" in card_text(copied.message)
    assert await ledger(env, "Valette") == Advancements(held=5, earned=9, spent=4)
    stored = await env.storage.characters.get_by_name(env.guild_id, "Valette")
    assert sheet_data(stored)["advancements"] == "5 held of 20 (9 earned, 4 spent)"
