"""Choosing the next night by a poll (docs/rulings.md §6.15) through the real dispatch: the
Narrator posts a Discord poll of times, members vote, and when Discord closes it the winner
becomes the server's event, also when the bot was offline at the close; a tie is the
Narrator's to pick with a button, once. The poll's body and the routes it uses are held against
Discord's OpenAPI description by the loopback Discord (a violation fails the test)."""

import asyncio
import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from bot.cogs.sessions.commands import SessionCommands
from fake_discord.payloads import JSON
from fake_discord.permissions import MANAGE_EVENTS
from fake_discord.poll_routes import end_poll, vote
from fake_discord.world_json import role_json
from testbed.bot_env import BotEnv, controls
from testbed.cards import card_text


async def give_bot(env: BotEnv, permission: int) -> None:
    """The bot's role gains ``permission``, and the bot hears it (GUILD_ROLE_UPDATE), as when an
    admin changes the role while the bot runs."""
    role = next(role for role in env.world.guild.roles if role.managed)
    role.permissions |= permission
    update = {"guild_id": str(env.guild_id), "role": role_json(role)}
    await env.harness.fake.dispatch("GUILD_ROLE_UPDATE", update)
    await until(lambda: env.bot.get_guild(env.guild_id).me.guild_permissions.value & permission == permission)  # type: ignore[union-attr]


def day(days: int, hour: str = "19:30") -> str:
    return (datetime.now(UTC) + timedelta(days=days)).strftime(f"%Y-%m-%d {hour}")


FIRST, SECOND, THIRD = day(3), day(4), day(5, "18:00")
POLL = f'/session poll first:"{FIRST}" second:"{SECOND}" third:"{THIRD}" zone:UTC hours:2 title:"The Keep"'


def the_poll(env: BotEnv) -> JSON:
    [message] = [m for m in env.harness.fake.messages.values() if "poll" in m]
    return message


async def votes(env: BotEnv, *cast: tuple[str, list[int]]) -> None:
    message = the_poll(env)
    for user, answers in cast:
        await vote(env.harness.fake, message, env.user_id(user), answers)


async def time_passes(env: BotEnv) -> None:
    """The poll's hours go by: Discord closes it, and the bot's clock reaches its close."""
    poll = await env.storage.time_polls.by_message(env.guild_id, int(the_poll(env)["id"]))
    assert poll is not None
    await env.storage.time_polls.close_early(env.guild_id, poll.id, datetime.now(UTC))


async def closes(env: BotEnv) -> None:
    """Discord closes the poll and the bot's next look at its polls comes."""
    await end_poll(env.harness.fake, the_poll(env))
    await time_passes(env)
    await sweep(env)


async def sweep(env: BotEnv) -> None:
    cog = env.bot.get_cog("SessionCommands")
    assert isinstance(cog, SessionCommands)
    await cog.polls.sweep()


async def until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


def said(env: BotEnv, words: str) -> list[JSON]:
    return [m for m in env.harness.fake.messages.values() if words in card_text(m)]


async def test_the_winner_of_the_poll_becomes_the_servers_event(bot_env: BotEnv) -> None:
    env = bot_env
    await give_bot(env, MANAGE_EVENTS)
    posted = await env.slash(POLL)
    assert posted.ephemeral and "Poll posted" in posted.content, posted.text
    poll = the_poll(env)["poll"]
    assert poll["question"]["text"] == "When do we play next? The Keep" and poll["allow_multiselect"]
    assert [a["poll_media"]["text"][-5:] for a in poll["answers"]] == ["(UTC)"] * 3
    assert f"<t:{int(datetime.strptime(FIRST, '%Y-%m-%d %H:%M').replace(tzinfo=UTC).timestamp())}:F>" in str(
        the_poll(env)["content"]
    )
    await votes(env, ("player1", [2]), ("player2", [2, 3]), ("narrator", [1]))
    await sweep(env)
    assert env.harness.fake.scheduled_events == {}  # still open: nothing yet
    await closes(env)
    [event] = env.harness.fake.scheduled_events.values()
    assert event["name"] == "Next session: The Keep"
    assert event["scheduled_start_time"].startswith(SECOND.replace(" ", "T"))
    [told] = said(env, "The next night is")
    assert "(2 vote(s))" in told["content"] and event["id"] in told["content"]
    await sweep(env)  # settled once: nothing more
    assert len(env.harness.fake.scheduled_events) == 1 and len(said(env, "The next night is")) == 1


async def test_a_bot_offline_at_the_close_schedules_the_winner_when_back(bot_env: BotEnv) -> None:
    env = bot_env
    await give_bot(env, MANAGE_EVENTS)
    await env.slash(POLL)
    await votes(env, ("player1", [3]), ("player2", [3]))
    await end_poll(env.harness.fake, the_poll(env), announce=False)  # nothing reaches the bot
    await time_passes(env)
    await env.restart()
    await until(lambda: bool(env.harness.fake.scheduled_events))
    [event] = env.harness.fake.scheduled_events.values()
    assert event["scheduled_start_time"].startswith(THIRD.replace(" ", "T"))


async def test_a_tie_is_the_narrators_to_pick_once(bot_env: BotEnv) -> None:
    env = bot_env
    await give_bot(env, MANAGE_EVENTS)
    await env.slash(POLL)
    await votes(env, ("player1", [1]), ("player2", [3]))
    await closes(env)
    assert env.harness.fake.scheduled_events == {}
    [shown] = said(env, "the Narrator picks")
    tie = copy.deepcopy(shown)  # as first shown: a second Narrator's screen still has the buttons
    assert len(controls(tie)) == 2 and "tied" in card_text(tie)
    refused = await env.harness.click(str(controls(tie)[1]["label"]), message=tie, user="player1")
    assert refused.ephemeral and "Narrator" in refused.content
    picked = await env.harness.click(str(controls(tie)[1]["label"]), message=tie, user="narrator")
    assert "picked by" in picked.text, picked.text
    [event] = env.harness.fake.scheduled_events.values()
    assert event["scheduled_start_time"].startswith(THIRD.replace(" ", "T"))
    again = await env.harness.click(str(controls(tie)[0]["label"]), message=tie, user="narrator")
    assert again.ephemeral and "already picked" in again.content
    assert len(env.harness.fake.scheduled_events) == 1 and controls(shown) == []


async def test_the_narrator_closes_the_poll_early(bot_env: BotEnv) -> None:
    env = bot_env
    await give_bot(env, MANAGE_EVENTS)
    posted = await env.slash(POLL)
    assert posted.message is not None
    await votes(env, ("player1", [1]))
    closed = await env.harness.click("Close the poll now", message=posted.message, user="narrator")
    assert "Closed" in closed.text, closed.text
    assert the_poll(env)["poll"]["results"]["is_finalized"]
    [event] = env.harness.fake.scheduled_events.values()
    assert event["scheduled_start_time"].startswith(FIRST.replace(" ", "T"))


async def test_nobody_voting_schedules_nothing_and_says_so(bot_env: BotEnv) -> None:
    env = bot_env
    await give_bot(env, MANAGE_EVENTS)
    await env.slash(POLL)
    await closes(env)
    assert env.harness.fake.scheduled_events == {} and said(env, "Nobody voted")


async def test_without_manage_events_the_narrator_picks_again_once_fixed(bot_env: BotEnv) -> None:
    env = bot_env
    await env.slash(POLL)
    await votes(env, ("player1", [2]))
    await closes(env)
    [again] = said(env, "Manage Events")
    await give_bot(env, MANAGE_EVENTS)
    picked = await env.harness.click(str(controls(again)[0]["label"]), message=again, user="narrator")
    assert "picked by" in picked.text, picked.text
    assert len(env.harness.fake.scheduled_events) == 1


async def test_each_time_is_shown_in_the_zone_it_was_given_in(bot_env: BotEnv) -> None:
    env = bot_env
    posted = await env.slash(f'/session poll first:"{FIRST} +02:00" second:"{SECOND} Europe/Paris"')
    assert posted.ephemeral and "Poll posted" in posted.content, posted.text
    answers = [a["poll_media"]["text"] for a in the_poll(env)["poll"]["answers"]]
    assert answers[0].endswith(f"{FIRST[-5:]} (UTC+02:00)") and answers[1].endswith("(Europe/Paris)"), answers


@pytest.mark.parametrize(
    ("line", "user", "words"),
    [
        (f'/session poll first:"{FIRST}" second:"{FIRST}"', "narrator", "given twice"),
        (f'/session poll first:"{FIRST}" second:"{SECOND}" hours:168', "narrator", "before the poll closes"),
        (f'/session poll first:"{FIRST}" second:"soon"', "narrator", "YYYY-MM-DD HH:MM"),
        (f'/session poll first:"{FIRST}" second:"{SECOND}"', "player1", "Narrator"),
    ],
)
async def test_a_poll_that_cannot_be_is_refused_privately(
    bot_env: BotEnv, line: str, user: str, words: str
) -> None:
    refused = await bot_env.slash(line, user=user)
    assert refused.ephemeral and words in refused.content, refused.text
    assert not [m for m in bot_env.harness.fake.messages.values() if "poll" in m]
