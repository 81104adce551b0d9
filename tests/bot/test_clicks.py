"""A click reaches its ``DynamicItem`` by its custom id alone (``bot.clicks``): once, through the
item's own check, with a menu's choice read from the click; a custom id no item owns is left
alone. The router answers for every handler as the tree does for a command: a user's error
privately in its own words, a value no menu offered as one, a crash with the apology (logged,
the bot going on), and "busy" past capacity, running nothing. (Every bot test also checks
that discord.py itself kept no button of ours to run a click twice: ``testbed/bot_env.py``.)"""

import copy
import logging
import re
from typing import Any

import discord
import pytest

from bot.admission import BACKLOG, BUSY, LAG_LIMIT
from bot.clicks import NOT_OFFERED, picked, picked_id
from bot.door import INTEGER_MAX, NOT_OURS
from bot.errors import APOLOGY, BotError
from fake_discord import payloads
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv

JSON = dict[str, Any]
SEEN: list[tuple[int, list[str]]] = []
QUIET = {"type": 6}
"""What ``bot.replies.guard`` answers, at Discord's deadline, a click nothing answered: a deferred
update, which changes nothing the member sees."""


class Tally(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:tally:(?P<n>\d+)"):
    """Counts its clicks; refuses number 0, number 13 crashes, number 21 is the user's error, and
    menu 5 reads an id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Tally {n}", custom_id=f"mab:tally:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "Tally":
        return cls(int(match["n"]))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if self.n == 0:
            await interaction.response.send_message("Not this one.", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if self.n == 13:
            raise RuntimeError("unlucky")
        if self.n == 21:
            raise BotError("Not <@1> today.")
        SEEN.append((self.n, [str(picked_id(interaction))] if self.n == 5 else picked(interaction)))
        await interaction.response.send_message(f"Tallied {self.n}.", ephemeral=True)


@pytest.fixture
async def tallied(bot_env: BotEnv) -> JSON:
    """A message of the bot's with the Tally items on it, Tally registered as a cog would."""
    SEEN.clear()
    bot_env.bot.add_dynamic_items(Tally)
    posted = await bot_env.slash("/roll dice:2")
    assert posted.message is not None
    message = copy.deepcopy(posted.message)
    message["components"] = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": f"Tally {n}", "custom_id": f"mab:tally:{n}"}
                for n in (0, 7, 13, 21)
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "mab:tally:9",
                    "options": [{"label": "a", "value": "a"}, {"label": "b", "value": "b"}],
                    "min_values": 1,
                    "max_values": 2,
                }
            ],
        },
        {
            "type": 1,
            "components": [
                {"type": 3, "custom_id": "mab:tally:5", "options": [{"label": "one", "value": "1"}]}
            ],
        },
    ]
    return message


async def click(
    env: BotEnv, message: JSON, custom_id: str, values: list[str] | None = None
) -> InteractionRecord:
    component = next(
        c for row in message["components"] for c in row["components"] if c["custom_id"] == custom_id
    )
    actor = env.harness.actor("player1")
    return await env.harness.send(payloads.component_click(env.world, actor, message, component, values))


async def test_a_click_runs_its_item_once(bot_env: BotEnv, tallied: JSON) -> None:
    record = await click(bot_env, tallied, "mab:tally:7")
    assert record.ephemeral and record.content == "Tallied 7."
    assert SEEN == [(7, [])]


async def test_a_menus_choice_reaches_the_handler(bot_env: BotEnv, tallied: JSON) -> None:
    record = await click(bot_env, tallied, "mab:tally:9", ["b", "a"])
    assert record.content == "Tallied 9."
    assert SEEN == [(9, ["b", "a"])]


async def test_an_item_that_refuses_the_click_never_runs_it(bot_env: BotEnv, tallied: JSON) -> None:
    record = await click(bot_env, tallied, "mab:tally:0")
    assert record.content == "Not this one."
    assert SEEN == []


async def test_a_crashing_handler_gets_the_apology_is_logged_and_the_next_click_still_runs(
    bot_env: BotEnv, tallied: JSON, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.errors"):
        crashed = await click(bot_env, tallied, "mab:tally:13")
    assert crashed.ephemeral and crashed.content == APOLOGY
    assert any("mab:tally:13" in r.getMessage() and r.exc_info for r in caplog.records)
    assert (await click(bot_env, tallied, "mab:tally:7")).content == "Tallied 7."


async def test_a_users_error_is_answered_privately_in_its_own_words(bot_env: BotEnv, tallied: JSON) -> None:
    record = await click(bot_env, tallied, "mab:tally:21")
    assert record.ephemeral and record.content == "Not <@1> today."
    assert record.response is not None and record.response["data"]["allowed_mentions"] == {"parse": []}


@pytest.mark.parametrize("forged", [["x"], ["1", "1"], [], ["²"], ["9" * 19]])
async def test_a_value_the_menu_never_offered_is_refused_plainly(
    bot_env: BotEnv, tallied: JSON, forged: list[str]
) -> None:
    record = await click(bot_env, tallied, "mab:tally:5", forged)
    assert record.ephemeral and record.content == NOT_OFFERED
    assert SEEN == []
    assert (await click(bot_env, tallied, "mab:tally:5", ["1"])).content == "Tallied 5."
    assert SEEN == [(5, ["1"])]


async def test_past_capacity_a_click_is_told_busy_and_runs_nothing(bot_env: BotEnv, tallied: JSON) -> None:
    admission = bot_env.bot.admission
    admission.close()
    admission.lag, admission.in_flight = 2 * LAG_LIMIT, BACKLOG + 1
    busy = await click(bot_env, tallied, "mab:tally:7")
    assert busy.ephemeral and busy.content == BUSY
    assert busy.ack_latency is not None and busy.ack_latency < 1.0
    assert SEEN == []
    admission.lag, admission.in_flight = 0.0, 0
    assert (await click(bot_env, tallied, "mab:tally:7")).content == "Tallied 7."
    assert admission.in_flight == 0


async def test_a_custom_id_no_item_owns_is_left_alone(bot_env: BotEnv, tallied: JSON) -> None:
    bot_env.bot.remove_dynamic_items(Tally)
    record = await click(bot_env, tallied, "mab:tally:7")
    assert record.response == QUIET and not record.errors
    assert SEEN == []


@pytest.mark.parametrize("number", [INTEGER_MAX + 1, 10**30])
async def test_a_number_past_the_databases_is_not_one_of_ours(
    bot_env: BotEnv, tallied: JSON, number: int
) -> None:
    """The template takes any digits, but no message of ours carries an id the database cannot
    hold (looked up, it raised OverflowError, answered with the apology): refused plainly."""
    forged = copy.deepcopy(tallied)
    forged["components"][0]["components"][1]["custom_id"] = f"mab:tally:{number}"
    record = await click(bot_env, forged, f"mab:tally:{number}")
    assert record.ephemeral and record.content == NOT_OURS
    assert SEEN == []
    edge = copy.deepcopy(tallied)
    edge["components"][0]["components"][1]["custom_id"] = f"mab:tally:{INTEGER_MAX}"
    assert (await click(bot_env, edge, f"mab:tally:{INTEGER_MAX}")).content == f"Tallied {INTEGER_MAX}."


async def test_a_panel_edit_asked_of_a_card_is_said_privately(bot_env: BotEnv) -> None:
    """A Hero builder's button forged onto a card (a layout message): the builder would replace
    its panel with "gone", but a card cannot become text (Discord refused the edit, and the
    member got the apology), so it is said to the clicker alone and the card stays."""
    rolled = await bot_env.slash("/roll dice:2")
    assert rolled.message is not None
    component = {"type": 2, "custom_id": "mab:hero:99:ratings:next"}
    actor = bot_env.harness.actor("player1")
    record = await bot_env.harness.send(
        payloads.component_click(bot_env.world, actor, rolled.message, component)
    )
    assert record.ephemeral and "is gone" in record.content and not record.errors
