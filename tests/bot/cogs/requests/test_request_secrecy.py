"""``/request`` keeps the Narrator's secrets and says only what is so (docs/rulings.md §6.13,
§7.1): a Contest shows nothing of a side before both have rolled, a hidden Villain shows as its
name and dice, every mention list names a member once, and a closed request asks nobody."""

import asyncio
import re
from typing import Any

from fake_discord.layout import texts
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.requests.test_requests import labels, request_message, roll, said, table

JSON = dict[str, Any]


def public_with(env: BotEnv, text: str) -> list[JSON]:
    """Channel messages everyone sees whose cards mention ``text``."""
    return [
        m
        for m in env.harness.fake.messages.values()
        if text in card_text(m) and not int(m.get("flags") or 0) & 64
    ]


def side(message: JSON, name: str) -> str:
    """What a decided Contest's card says of the side ``name``, below its name."""
    for text in texts(message.get("components") or []):
        if text.startswith(f"**{name}**\n"):
            return text.split("\n", 1)[1]
    raise AssertionError(f"no side {name!r} in {card_text(message)}")


def ping_line(message: JSON) -> str:
    """The line above a request's card (where its pings are)."""
    return texts(message.get("components") or [])[0]


async def test_a_contest_shows_nothing_before_both_sides_and_a_hidden_villain_only_its_dice(
    bot_env: BotEnv,
) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request contest stat:Wits heroes:"Vin" opponent:Straff opponent_stat:Wits')
    vin = await roll(env, "player1", "Vin")
    fields = card_text(request_message(env))
    assert "**Vin**: rolled" in fields and "Outcome" not in fields and "Result" not in fields
    card = said(vin)
    assert "Success" not in card and "Failure" not in card, card  # the Contest decides, not the roll
    assert "decided once both sides have rolled" in card
    await roll(env, "narrator", "Straff")
    [decided] = [m for m in public_with(env, "Contest Outcome")]
    straff = side(decided, "Straff")
    assert straff.startswith("4 dice\n"), straff  # the dice it threw, not its rating
    assert "Wits" not in straff
    assert "Wits 5" in side(decided, "Vin")  # a Hero's pool is the table's to see
    history = await env.slash("/history rolls", user="player2")
    assert "Straff" not in str(history.embeds), "a hidden Villain's roll is logged as secret"
    narrator = await env.slash("/history rolls", user="narrator")
    assert "Straff" in str(narrator.embeds)


async def test_a_revealed_villain_shows_its_pool(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash("/character reveal name:Straff")
    await env.slash('/request contest stat:Wits heroes:"Vin" opponent:Straff opponent_stat:Wits')
    await roll(env, "player1", "Vin")
    await roll(env, "narrator", "Straff")
    [decided] = public_with(env, "Contest Outcome")
    assert "Wits 4" in side(decided, "Straff")


async def test_the_suggested_traits_show_only_to_the_acting_side(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash(
        '/request contest stat:Wits heroes:"Vin" opponent:Straff opponent_stat:Wits traits:"Smooth talker"'
    )
    acting = await env.harness.click("Roll — Vin", message=request_message(env), user="player1")
    assert "The Narrator suggests" in str(acting.embeds)
    opposing = await env.harness.click("Roll — Straff", message=request_message(env), user="narrator")
    assert opposing.ephemeral and "The Narrator suggests" not in str(opposing.embeds)


async def test_two_heroes_of_one_player_ping_that_player_once(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)  # Elend and Sazed are both player2's
    player2 = env.user_id("player2")
    asked = await env.slash('/request roll stat:Charm heroes:"Elend, Sazed"')
    assert asked.response is not None and not asked.errors, asked.text
    assert [int(u) for u in asked.response["data"]["allowed_mentions"]["users"]] == [player2]
    queued = await env.storage.outbox.get(1)
    assert queued is not None and [int(u) for u in queued.payload["allowed_mentions"]["users"]] == [player2]
    contest = await env.slash('/request contest stat:Charm heroes:"Elend" opponent:Sazed opponent_stat:Charm')
    assert contest.response is not None and not contest.errors, contest.text
    assert [int(u) for u in contest.response["data"]["allowed_mentions"]["users"]] == [player2]
    assert env.harness.fake.violations == []


async def test_a_closed_request_asks_nobody(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Charm heroes:"Vin, Elend"')
    assert "<@" in ping_line(request_message(env))
    await roll(env, "player1", "Vin")
    await env.harness.click("Close", message=request_message(env), user="narrator")
    content = ping_line(request_message(env))
    assert not re.search(r"<@\d+>", content) and "asks you" not in content, content
    assert content.startswith("Closed")


async def test_a_roll_saved_before_a_crash_shows_on_the_request_after_the_restart(bot_env: BotEnv) -> None:
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Charm heroes:"Vin, Elend"')
    # The roll is saved, then the process dies before the request's message is edited: as
    # here, where Discord never takes that edit.
    env.harness.fake.inject_fault("PATCH", r"/channels/\d+/messages/\d+", 404)
    rolled = await roll(env, "player1", "Vin")
    assert rolled.ephemeral and "Vin: Charm" in said(rolled)
    assert "**Vin**: not rolled yet" in card_text(request_message(env))
    await env.restart()
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    message = request_message(env)
    assert (
        "**Vin**: Outcome" in card_text(message)
        and "not rolled yet" not in card_text(message).split("Elend")[0]
    )
    assert labels(message) == ["Roll — Elend", "Close"]
    assert f"<@{env.user_id('player1')}>" not in ping_line(message)
    await env.restart()  # a message already up to date is looked at, not edited again
    await asyncio.wait_for(env.bot.catch_up.done.wait(), 10)
    assert request_message(env)["edited_timestamp"] == message["edited_timestamp"]
