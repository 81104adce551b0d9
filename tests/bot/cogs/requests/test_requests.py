"""``/request``: the Narrator asks for rolls and Contests, each player rolls from a button
(docs/rulings.md §6.13), through the real discord.py path with components as Discord sends them.
"""

import asyncio
import copy
import re
from typing import Any

import pytest

from fake_discord.commandline import CommandLineError
from fake_discord.layout import walk
from fake_discord.records import InteractionRecord
from rules.character import Standing
from rules.character.stats import standing_available
from testbed.bot_env import BotEnv, refused
from testbed.cards import card_text, card_title

JSON = dict[str, Any]
SETUP = [
    ("player1", "/character create name:Vin charm:4 wits:5"),
    ("player1", '/edit trait slot:Specialty text:"Smooth talker"'),
    ("player2", "/character create name:Elend charm:3"),
    ("narrator", "/character create name:Straff kind:villain wits:4"),
]


async def table(env: BotEnv) -> None:
    for user, line in SETUP:
        reply = await env.slash(line, user=user)
        assert not refused(reply), reply.text
    await env.slash("/character create name:Sazed charm:2 owner:player2", user="narrator")


def request_message(env: BotEnv) -> JSON:
    """The newest request message in the channel, as it stands now."""
    found = [m for m in env.harness.fake.messages.values() if card_title(m).startswith("The Narrator asks")]
    assert found, "no request message"
    return env.harness.fake.messages[int(found[-1]["id"])]


def field_text(message: JSON) -> str:
    return card_text(message)


def labels(message: JSON) -> list[str]:
    """The buttons' labels, wherever in the card they sit."""
    return [str(c.get("label")) for c in walk(message.get("components") or []) if c.get("type") == 2]


def said(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_text(record.message)


def titled(record: InteractionRecord) -> str:
    assert record.message is not None
    return card_title(record.message)


async def roll(env: BotEnv, user: str, hero: str, **choices: list[str]) -> InteractionRecord:
    """Press the hero's button, make the choices in the private builder, and roll."""
    opened = await env.harness.click(f"Roll — {hero}", message=request_message(env), user=user)
    assert opened.ephemeral, opened.text
    builder = opened.message
    for placeholder, values in choices.items():
        chosen = await env.harness.select(placeholder, values, message=builder, user=user)
        assert chosen.response_type == 7, chosen.text
        builder = env.harness.fake.messages.get(int(builder["id"]), builder) if builder else builder
        builder = chosen.message or builder
    go = next(
        c["custom_id"]
        for row in (builder or {}).get("components", [])
        for c in row["components"]
        if c.get("custom_id", "").startswith("mab:rqg:")
    )
    rolled = await env.harness.click(go, message=builder, user=user)
    await env.bot.conflicts.idle()
    return rolled


async def test_three_heroes_two_roll_at_once_and_one_never_does(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    asked = await env.slash(
        '/request roll stat:Charm difficulty:2 heroes:"Vin, Elend, Sazed" traits:"Smooth talker"'
    )
    assert not asked.ephemeral, asked.text
    message = request_message(env)
    players = {env.user_id("player1"), env.user_id("player2")}
    assert {int(m) for m in re.findall(r"<@(\d+)>", card_text(message))} == players
    shown = await env.storage.outbox.get(1)  # the body the reply was sent with, as queued
    assert shown is not None and {int(u) for u in shown.payload["allowed_mentions"]["users"]} == players
    assert labels(message) == ["Roll — Vin", "Roll — Elend", "Roll — Sazed", "Close"]
    asked_at_first = copy.deepcopy(message)

    async def vin() -> InteractionRecord:
        return await roll(env, "player1", "Vin", **{"Traits that help (+1 die each)": ["Smooth talker"]})

    async def elend() -> InteractionRecord:
        return await roll(env, "player2", "Elend", Tool=["A fitting Tool (+1 die)"])

    first, second = await asyncio.gather(vin(), elend())
    assert first.ephemeral and "Vin: Charm" in titled(first)
    assert "Charm 4 + Trait = **5**" in said(first), first.text  # the Trait chosen counts
    assert second.ephemeral and "Elend: Charm" in titled(second)
    posted = [m for m in env.harness.fake.messages.values() if "Charm" in card_title(m)]
    assert {card_title(m) for m in posted if card_title(m).endswith(": Charm")} == {
        "Vin: Charm",
        "Elend: Charm",
    }
    now = field_text(request_message(env))
    assert "**Vin**: Outcome" in now and "**Elend**: Outcome" in now and "**Sazed**: not rolled yet" in now
    assert labels(request_message(env)) == ["Roll — Sazed", "Close"]

    with pytest.raises(CommandLineError):  # Vin's button is gone, and a stale one is refused
        await env.harness.click("Roll — Vin", message=request_message(env), user="player1")
    stale = await env.harness.click("Roll — Vin", message=asked_at_first, user="player1")
    assert stale.ephemeral and "already rolled" in stale.content

    refused = await env.harness.click("Roll — Sazed", message=request_message(env), user="player1")
    assert refused.ephemeral and "Sazed" in refused.content  # not player1's Hero
    not_yours = await env.harness.click("Close", message=request_message(env), user="player1")
    assert not_yours.ephemeral
    closed = await env.harness.click("Close", message=request_message(env), user="narrator")
    assert closed.response_type == 7
    assert "never rolled: Sazed" in card_text(request_message(env))
    assert labels(request_message(env)) == []
    history = await env.slash("/history rolls", user="narrator")
    assert str(history.embeds[0]).count("Charm") == 2  # every roll the bot made is logged


async def test_a_request_names_only_heroes_with_the_stat(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    before = len(env.harness.fake.messages)
    refused = await env.slash('/request roll stat:Steel heroes:"Vin"')
    assert refused.ephemeral and "no 'Steel'" in refused.content
    player = await env.slash("/request roll stat:Charm", user="player1")
    assert player.ephemeral and "Narrator" in player.content
    assert len(env.harness.fake.messages) == before + 2  # the two refusals, nothing else
    assert await env.storage.requests.get(env.guild_id, 1) is None


async def test_with_no_names_the_active_heroes_are_asked(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash("/character use name:Vin", user="player1")
    await env.slash("/character use name:Elend", user="player2")
    await env.slash("/request roll stat:Wits")
    assert labels(request_message(env)) == ["Roll — Elend", "Roll — Vin", "Close"]


async def test_a_standing_roll_spends_the_standing(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Resources heroes:"Vin"')
    await roll(env, "player1", "Vin")
    vin = await env.storage.characters.get_by_name(env.guild_id, "Vin")
    assert standing_available(vin.character, Standing.RESOURCES) == vin.character.standings.resources - 1


async def test_a_secret_request_shows_results_to_narrators_only(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    gm = env.world.guild.channels[1]
    await env.slash(f"/setup gm-channel channel:#{gm.name}")
    await env.slash('/request roll stat:Charm heroes:"Vin" secret:true')
    rolled = await roll(env, "player1", "Vin")
    assert rolled.ephemeral and "Outcome" in said(rolled)  # the roller sees their own roll
    text = field_text(request_message(env))
    assert "**Vin**: rolled" in text and "Outcome" not in text
    in_table = [
        m
        for m in env.harness.fake.messages.values()
        if m["channel_id"] == str(env.world.guild.channels[0].id)
        and card_title(m) == "Vin: Charm"
        and not int(m.get("flags") or 0) & 64
    ]
    assert in_table == []
    assert any(  # the Narrators' copy, in the GM channel
        m["channel_id"] == str(gm.id) and card_title(m) == "Vin: Charm"
        for m in env.harness.fake.messages.values()
    )
    player = await env.harness.click("Results (Narrators)", message=request_message(env), user="player2")
    assert player.ephemeral and "Narrator" in player.content
    narrator = await env.harness.click("Results (Narrators)", message=request_message(env), user="narrator")
    assert narrator.ephemeral and "**Vin**: Outcome" in said(narrator)


async def test_a_contest_is_decided_once_both_sides_have_rolled(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request contest stat:Wits heroes:"Vin" opponent:Straff opponent_stat:Wits difficulty:1')
    assert labels(request_message(env)) == ["Roll — Vin", "Roll — Straff", "Close"]
    await roll(env, "player1", "Vin")
    decided = [
        m
        for m in env.harness.fake.messages.values()
        if card_title(m).endswith("wins") or card_title(m) == "Stalemate"
    ]
    assert decided == []  # nothing until both have rolled
    refused = await env.harness.click("Roll — Straff", message=request_message(env), user="player1")
    assert refused.ephemeral
    await roll(env, "narrator", "Straff")
    decided = [
        m
        for m in env.harness.fake.messages.values()
        if card_title(m).endswith("wins") or card_title(m) == "Stalemate"
    ]
    assert len(decided) == 1
    assert "Everyone has rolled." in card_text(request_message(env))


async def test_buttons_and_results_survive_a_restart(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Charm heroes:"Vin, Elend"')
    await env.restart()
    rolled = await roll(env, "player2", "Elend")
    assert rolled.ephemeral and "Elend: Charm" in titled(rolled)
    assert "**Elend**: Outcome" in field_text(request_message(env))


async def test_a_refused_request_reply_is_posted_by_the_outbox_and_works(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    env.harness.fake.inject_fault("POST", r"/interactions/\d+/[^/]+/callback", 404)
    asked = await env.slash('/request roll stat:Charm heroes:"Vin"')
    assert asked.response is None  # Discord refused the answer
    await env.bot.conflicts.idle()
    posted = request_message(env)
    assert "interaction_metadata" not in posted  # a channel post, not the reply
    shown = await env.storage.outbox.get(1)
    assert shown is not None and shown.message_id == int(posted["id"])
    await roll(env, "player1", "Vin")
    assert "**Vin**: Outcome" in field_text(request_message(env))  # the posted message is kept up to date


async def test_a_roll_whose_post_failed_is_shown_once_after_a_restart(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Charm heroes:"Vin"')
    env.bot.conflicts.outbox.retry_delays = ()
    env.harness.fake.inject_fault("POST", r"/channels/\d+/messages", 503, times=20)
    await roll(env, "player1", "Vin")

    def outcomes() -> list[JSON]:
        return [
            m
            for m in env.harness.fake.messages.values()
            if card_title(m) == "Vin: Charm" and not int(m.get("flags") or 0) & 64
        ]

    assert outcomes() == []  # saved, but Discord would not take the post
    env.harness.fake.faults.clear()
    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    assert len(outcomes()) == 1
    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    await env.bot.conflicts.idle()
    assert len(outcomes()) == 1  # and never twice
