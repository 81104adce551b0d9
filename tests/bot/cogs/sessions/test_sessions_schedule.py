"""The next session from the recap: a Discord scheduled event through the loopback Discord, whose
every request is held against Discord's OpenAPI description (a violation fails the test)."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from discord.http import Route

from fake_discord import openapi, payloads
from fake_discord.event_routes import event_problems
from fake_discord.permissions import MANAGE_EVENTS
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv, running_bot_env, table_world

SOON = (datetime.now(UTC) + timedelta(days=7)).strftime("%Y-%m-%d %H:%M")


async def ended_recap(env: BotEnv) -> InteractionRecord:
    await env.slash('/session start title:"The Keep"')
    await env.slash("/roll dice:3", user="player1")
    return await env.slash("/session end")


def give_bot(env: BotEnv, permission: int) -> None:
    guild = env.world.guild
    bot_role = next(role for role in guild.roles if role.managed)
    bot_role.permissions |= permission


async def schedule(env: BotEnv, when: str, note: str = "Bring snacks", zone: str = "") -> InteractionRecord:
    ended = await ended_recap(env)
    private = ended.messages[-1]
    opened = await env.harness.click("Schedule the next session", message=private, user="narrator")
    assert opened.modal is not None, opened.text
    return await env.harness.submit({"when": when, "zone": zone, "note": note}, user="narrator")


async def test_the_narrator_schedules_the_next_session_as_an_external_event(bot_env: BotEnv) -> None:
    env = bot_env
    give_bot(env, MANAGE_EVENTS)
    done = await schedule(env, SOON)
    assert done.ephemeral and "Scheduled" in done.content, done.text
    [event] = env.harness.fake.scheduled_events.values()
    assert event["entity_type"] == 3 and event["privacy_level"] == 2
    assert event["entity_metadata"] == {"location": "#table"}
    assert event["name"] == "Next session: The Keep" and event["description"] == "Bring snacks"
    assert event["scheduled_start_time"].startswith(SOON.replace(" ", "T"))
    listed = await env.bot.http.request(
        Route("GET", "/guilds/{guild_id}/scheduled-events", guild_id=env.guild_id)
    )
    assert [e["id"] for e in listed] == [event["id"]]


async def test_without_manage_events_the_bot_says_so_and_creates_nothing(bot_env: BotEnv) -> None:
    env = bot_env
    refused = await schedule(env, SOON)
    assert refused.ephemeral and "Manage Events" in refused.content, refused.text
    assert env.harness.fake.scheduled_events == {}


IN_SIX_YEARS = (datetime.now(UTC) + timedelta(days=6 * 365)).strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    ("when", "zone", "said"),
    [
        ("next friday", "", "YYYY-MM-DD HH:MM"),
        ("2026-13-01 19:00", "", "YYYY-MM-DD HH:MM"),
        ("2020-01-01 19:00", "", "2020-01-01 19:00 UTC has passed"),
        (IN_SIX_YEARS, "", "more than five years ahead"),
        (SOON, "Mars/Olympus", "Mars/Olympus is not a time zone"),
        (SOON, "+15:00", "not an offset in use"),
        (f"{SOON} +02:00", "Europe/Paris", "Give the time zone once"),
        # The hour Paris's clocks skip in spring (docs: bot/inputs/times.py).
        ("2031-03-30 02:30", "Europe/Paris", "does not happen in Europe/Paris"),
    ],
)
async def test_a_bad_time_is_refused_privately(bot_env: BotEnv, when: str, zone: str, said: str) -> None:
    env = bot_env
    give_bot(env, MANAGE_EVENTS)
    refused = await schedule(env, when, zone=zone)
    assert refused.ephemeral and said in refused.content, refused.content
    assert env.harness.fake.scheduled_events == {}


A_YEAR_OUT = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=400)


@pytest.mark.parametrize(
    ("when", "zone", "utc", "named"),
    [
        # A year and more ahead is a campaign's long break, not a mistake (issue 39).
        (A_YEAR_OUT.strftime("%Y-%m-%d %H:%M"), "", A_YEAR_OUT, "UTC"),
        ("2031-01-15 19:30", "+02:00", datetime(2031, 1, 15, 17, 30, tzinfo=UTC), "UTC+02:00"),
        ("2031-01-15 19:30 UTC-5", "", datetime(2031, 1, 16, 0, 30, tzinfo=UTC), "UTC-05:00"),
        ("2031-01-15 19:30", "+0530", datetime(2031, 1, 15, 14, 0, tzinfo=UTC), "UTC+05:30"),
        # An IANA zone follows its clocks: Paris is UTC+1 in winter and UTC+2 in summer.
        ("2031-01-15 19:30", "europe/paris", datetime(2031, 1, 15, 18, 30, tzinfo=UTC), "Europe/Paris"),
        ("2031-07-15 19:30 Europe/Paris", "", datetime(2031, 7, 15, 17, 30, tzinfo=UTC), "Europe/Paris"),
        (
            "2031-07-15 19:30",
            "America/New_York",
            datetime(2031, 7, 15, 23, 30, tzinfo=UTC),
            "America/New_York",
        ),
    ],
)
async def test_the_narrator_gives_the_time_in_their_own_zone(
    bot_env: BotEnv, when: str, zone: str, utc: datetime, named: str
) -> None:
    env = bot_env
    give_bot(env, MANAGE_EVENTS)
    done = await schedule(env, when, zone=zone)
    assert done.ephemeral and "Scheduled" in done.content, done.text
    [event] = env.harness.fake.scheduled_events.values()
    assert datetime.fromisoformat(event["scheduled_start_time"]) == utc
    # Discord shows <t:…:F> to each member in their own zone; the answer names the zone given.
    assert f"<t:{int(utc.timestamp())}:F> (you gave {named})" in done.content


async def test_a_channel_named_at_discords_longest_still_fits_the_events_location(tmp_path: Path) -> None:
    """A channel name may be 100 characters; "#" and the name would be 101, which Discord
    refuses (the fake holds it to the API description): the location is clipped to 100."""
    world = table_world()
    world.guild.channels[0].name = "a" * 100
    async with running_bot_env(tmp_path / "bot.sqlite3", world) as env:
        give_bot(env, MANAGE_EVENTS)
        done = await schedule(env, SOON)
        assert done.ephemeral and "Scheduled" in done.content, done.text
        [event] = env.harness.fake.scheduled_events.values()
        location = event["entity_metadata"]["location"]
        assert len(location) == 100 and location == "#" + "a" * 98 + "…"
        assert f"<#{world.guild.channels[0].id}>" in done.content  # the answer links the channel itself


NOW = datetime(2026, 11, 27, tzinfo=UTC)
GOOD = {
    "name": "Next session",
    "scheduled_start_time": "2026-12-04T19:30:00+00:00",
    "scheduled_end_time": "2026-12-04T23:30:00+00:00",
    "privacy_level": 2,
    "entity_type": 3,
    "entity_metadata": {"location": "#table"},
}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({}, None),
        ({"entity_metadata": {}}, "entity_metadata.location"),
        ({"scheduled_end_time": None}, "needs scheduled_end_time"),
        ({"scheduled_start_time": "2026-11-01T19:30:00+00:00"}, "in the future"),
        ({"scheduled_end_time": "2026-12-04T18:00:00+00:00"}, "after scheduled_start_time"),
        ({"entity_type": 2}, "channel_id of this server"),
        ({"privacy_level": 1}, "privacy_level"),
    ],
)
def test_the_fakes_own_checks_agree_with_discords_description(
    change: dict[str, object], problem: str | None
) -> None:
    body = GOOD | change
    found = event_problems(body, {1}, NOW)
    operation, missing = openapi.route_problems("POST", "/guilds/1/scheduled-events")
    assert operation is not None and not missing
    if problem is None:
        assert found == [] and openapi.body_problems(operation, body) == []
    else:
        assert any(problem in p for p in found), found


async def test_a_players_click_or_form_is_refused_and_schedules_nothing(bot_env: BotEnv) -> None:
    """The button and the form re-check the Narrator when used: a player who sends the click or
    the form (a forged payload: the recap with the button is the Narrator's alone) gets a
    private refusal, and no event is made, though the bot could make one."""
    env = bot_env
    give_bot(env, MANAGE_EVENTS)
    private = (await ended_recap(env)).messages[-1]
    narrator = env.harness.member("narrator")
    message, button = env.harness.find_component("Schedule the next session", narrator, private, kinds={2})
    player = env.harness.actor("player1")
    clicked = await env.harness.send(payloads.component_click(env.world, player, message, button))
    assert clicked.modal is None and clicked.ephemeral and "Only a Narrator" in clicked.content, clicked.text
    opened = await env.harness.click("Schedule the next session", message=private, user="narrator")
    assert opened.modal is not None
    forged = await env.harness.submit({"when": SOON, "note": "Q9 forged"}, user="player1")
    assert forged.ephemeral and "Only a Narrator" in forged.content, forged.text
    assert env.harness.fake.scheduled_events == {}
