"""Past capacity the bot still answers every interaction, at once, and changes nothing.

The admission control (``bot.admission``) is driven into its "refuse" state through its real
inputs: the event loop's measured lag and the commands in progress. Its background watch is
stopped first so that the lag stays where the test put it.
"""

import pytest

from bot.admission import BACKLOG, BUSY, LAG_LIMIT
from testbed.bot_env import BotEnv
from testbed.cards import is_card


def overload(env: BotEnv, *, late: bool) -> None:
    admission = env.bot.admission
    admission.close()
    admission.lag = 2 * LAG_LIMIT if late else 0.0
    admission.in_flight = BACKLOG + 1 if late else 0


async def logged_rolls(env: BotEnv) -> int:
    return len(await env.storage.rolls.recent(env.guild_id, limit=100))


@pytest.mark.parametrize(
    ("line", "user"),
    [
        ("/roll dice:5 difficulty:2", "player1"),
        ("/roll stat:Steel", "player1"),
        ("/character show name:Vin", "player2"),
    ],
)
async def test_a_command_past_capacity_is_told_busy_privately_and_nothing_is_logged(
    vin: BotEnv, line: str, user: str
) -> None:
    overload(vin, late=True)
    reply = await vin.slash(line, user=user)
    assert reply.ephemeral and reply.content == BUSY and not reply.embeds
    assert reply.ack_latency is not None and reply.ack_latency < 1.0
    assert await logged_rolls(vin) == 0


@pytest.mark.parametrize("line", ["/roll stat:st", "/roll character:v", "/character show name:V"])
async def test_an_autocomplete_past_capacity_is_answered_at_once_with_no_suggestions(
    vin: BotEnv, line: str
) -> None:
    overload(vin, late=True)
    reply = await vin.harness.autocomplete(line, user="player1")
    assert reply.response is not None and reply.choices == []
    assert reply.ack_latency is not None and reply.ack_latency < 1.0


async def test_back_under_capacity_the_same_interactions_are_served(vin: BotEnv) -> None:
    overload(vin, late=True)
    assert (await vin.slash("/roll dice:5 difficulty:2", user="player1")).content == BUSY
    overload(vin, late=False)
    roll = await vin.slash("/roll dice:5 difficulty:2", user="player1")
    assert is_card(roll.message) and not roll.ephemeral
    suggestions = await vin.harness.autocomplete("/roll stat:st", user="player1")
    assert [choice["value"] for choice in suggestions.choices] == ["Steel"]
    assert await logged_rolls(vin) == 1


async def test_a_lag_without_a_backlog_refuses_nobody(vin: BotEnv) -> None:
    """One hiccup of a quiet bot's loop (a start, a collection) must not turn its users away."""
    overload(vin, late=True)
    vin.bot.admission.in_flight = 0
    roll = await vin.slash("/roll dice:5 difficulty:2", user="player1")
    assert is_card(roll.message) and not roll.ephemeral


async def test_a_form_sent_past_capacity_is_told_busy_and_nothing_is_said(vin: BotEnv) -> None:
    """Forms come through the same door as clicks (``bot.door``): refused at once, changing nothing."""
    opened = await vin.slash("/say", user="player1")
    assert opened.modal is not None
    [field] = [c for row in opened.modal["components"] for c in row["components"]]
    overload(vin, late=True)
    busy = await vin.harness.submit({field["custom_id"]: "Ash falls."}, modal=opened.modal, user="player1")
    assert busy.ephemeral and busy.content == BUSY
    assert busy.ack_latency is not None and busy.ack_latency < 1.0
    overload(vin, late=False)
    said = await vin.harness.submit({field["custom_id"]: "Ash falls."}, modal=opened.modal, user="player1")
    assert "Said as Vin." in said.content
