"""The night's award panel through the real dispatch (docs/rulings.md §10.1): it offers every
Hero who took part in the night (a Conflict joined counts, as does a roll or a wound) and
nobody else, and an award is given once however the Narrator clicks."""

import asyncio
import copy

import pytest

from fake_discord.payloads import JSON
from rules.character.advancement import Advancements
from rules.journal import EntryKind
from storage.journal import JournalRepository
from testbed.bot_env import BotEnv
from tests.bot.cogs.campaign.test_advancements import burden_gave_dice, ledger, make
from tests.bot.cogs.sessions.test_sessions import EPHEMERAL, journal_of


def panel_of(messages: list[JSON]) -> JSON:
    [panel] = [m for m in messages if m["flags"] & EPHEMERAL and "Tonight's awards" in m["content"]]
    return panel


async def test_a_hero_who_only_joined_a_conflict_is_offered_an_award_and_nobody_idle_is(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    vin = await make(env)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), vin.id)
    await make(env, "Elend", owner="player2")  # at no table tonight
    await make(env, "Sazed", owner="player2")  # only given Advancements by the Narrator
    await make(env, "Kelsier", owner="player2")  # rolls once
    await make(env, "Marsh", owner="player2", destiny="Bring down the Ministry")  # the story moves
    await env.slash("/character create name:Thug template:thug")
    await env.slash('/session start title:"The alley"')
    await env.slash('/conflict start kind:physical stakes:"A brawl"')
    await env.slash("/conflict join", user="player1")
    await env.slash("/conflict add character:Thug")
    await env.slash("/conflict begin")
    await env.slash("/conflict end")
    await env.slash("/advancement award name:Sazed amount:1")
    await env.slash("/roll stat:Wits character:Kelsier", user="player2")
    await env.slash("/story stage name:Marsh subplot:destiny stage:middle")
    session = await env.storage.journal.open_in(env.guild_id, env.harness.channel.id)
    assert session is not None
    joined = [e for e in await env.storage.journal.all_entries(session) if e.kind is EntryKind.JOINED]
    assert [(e.hero, e.public) for e in joined] == [
        ("Vin", "Vin joined the Conflict."),
        ("Thug", None),  # a hidden Villain's joining is the Narrator's alone (§7.1)
    ]

    ended = await env.slash("/session end")
    text = panel_of(ended.messages)["content"]
    assert "**Vin**: 0" in text and "**Kelsier**: 0" in text
    assert "**Marsh**: 0 · noted: Marsh's Destiny" in text
    for absent in ("Elend", "Sazed", "Thug"):
        assert absent not in text, text


async def test_two_clicks_at_once_give_one_award_and_one_journal_entry(bot_env: BotEnv) -> None:
    env = bot_env
    vin = await make(env)
    await env.slash("/session start", user="narrator")
    await burden_gave_dice(env, vin, "Reckless")
    ended = await env.slash("/session end")
    panel = panel_of(ended.messages)
    assert "**Vin**: 1 · Burden trigger 1: Reckless" in panel["content"]
    stale = copy.deepcopy(panel)

    first, second = await asyncio.gather(
        env.harness.click("Give these awards", message=panel),
        env.harness.click("Give these awards", message=copy.deepcopy(panel)),
    )
    answers = [first, second]
    given = [r for r in answers if any("Vin earns 1 Advancement" in m["content"] for m in r.followups)]
    assert len(given) == 1, [r.content for r in answers]
    [other] = [r for r in answers if r is not given[0]]
    said = [other.content, *(m["content"] for m in other.followups if m["flags"] & EPHEMERAL)]
    assert any("have been given already" in line for line in said), said
    assert await ledger(env) == Advancements(held=1, earned=1)

    later = await env.harness.click("Give these awards", message=stale)  # a third click, later
    assert later.message is not None and not later.message["components"]  # the stale panel closes
    assert [m["content"] for m in later.followups] == [
        "Tonight's awards have been given already; `/advancement award` gives more."
    ]
    assert later.followups[0]["flags"] & EPHEMERAL
    assert await ledger(env) == Advancements(held=1, earned=1)
    chose = await env.harness.select(f"mab:awsel:1:{vin.id}", ["Vin: 3 Advancements"], message=stale)
    assert chose.ephemeral and "award for that Hero has been given already" in chose.content
    assert await env.storage.advancements.proposed(1) == {}
    [session] = await env.storage.journal.sessions(env.guild_id, env.harness.channel.id, limit=1)
    awards = [e for e in await env.storage.journal.all_entries(session) if e.kind is EntryKind.ADVANCEMENT]
    assert [e.text for e in awards] == ["Vin earns 1 Advancement tonight (the Burden Reckless gave dice)."]
    again = await env.slash("/advancement night")
    assert again.ephemeral and "No session is open" in again.content


async def test_a_crash_between_an_award_and_its_journal_entry_loses_neither_and_allows_the_click_again(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = bot_env
    vin = await make(env)
    await env.slash("/session start", user="narrator")
    await burden_gave_dice(env, vin, "Reckless")
    ended = await env.slash("/session end")
    panel = panel_of(ended.messages)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away between the sheet and the journal")

    monkeypatch.setattr(JournalRepository, "add", broken)
    failed = await env.harness.click("Give these awards", message=copy.deepcopy(panel))
    assert failed.ephemeral and "Vin earns" not in failed.content
    assert await ledger(env) == Advancements()  # the sheet's write and the award's key went with it
    assert await env.storage.advancements.awarded(1) == {}
    monkeypatch.undo()
    given = await env.harness.click("Give these awards", message=panel)
    assert any("Vin earns 1 Advancement tonight" in m["content"] for m in given.followups)
    assert await ledger(env) == Advancements(held=1, earned=1)
    assert await env.storage.advancements.awarded(1) == {vin.id: 1}


async def test_a_hero_in_a_fight_that_runs_on_into_the_next_night_is_present_then(bot_env: BotEnv) -> None:
    env = bot_env
    vin = await make(env)
    await env.storage.active.set(env.guild_id, env.user_id("player1"), vin.id)
    await env.slash('/session start title:"One"')
    await env.slash('/conflict start kind:physical stakes:"The long fight"')
    await env.slash("/conflict join", user="player1")
    warned = await env.slash("/session end")
    await env.harness.click("End the session anyway", message=warned.message)
    await env.slash('/session start title:"Two"')  # the fight goes on; Vin does nothing new yet
    warned = await env.slash("/session end")
    ended = await env.harness.click("End the session anyway", message=warned.message)
    assert "**Vin**: 0" in panel_of(ended.messages)["content"]
    journal = await env.slash("/session journal", user="player2")
    assert "Vin is in the Conflict for The long fight, still running." in journal_of(env, journal)
