"""A Conflict in a thread of its own (``/setup conflict-threads``, ``bot.cogs.conflict.threads``),
through the real discord.py dispatch against the fake Discord's threads.

The channel gets one line linking to the thread; the board, the prompts and their pings, the
commands and the outbox all live in the thread; the end's summary goes to the channel and the
thread is archived. Without the permission the fight runs in the channel and the Narrator is told.
"""

import logging
from pathlib import Path
from typing import Any

import pytest

from fake_discord.permissions import CREATE_PUBLIC_THREADS, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS
from fake_discord.thread_routes import archive_by_hand
from fake_discord.world import FakeChannel
from storage.conflicts import NO_CONFLICT
from storage.errors import StorageError
from testbed.bot_env import DUEL, THUG_ATTACKS, BotEnv, refused
from testbed.cards import card_text
from testbed.console import run_console

JSON = dict[str, Any]
CALLBACK = r"/interactions/\d+/[^/]+/callback"
SHEETS, START, FIGHT = DUEL[:2], DUEL[2], DUEL[3:]


@pytest.fixture
async def threads(bot_env: BotEnv) -> BotEnv:
    """``bot_env`` with Conflict threads turned on through ``/setup``."""
    shown = await bot_env.slash("/setup conflict-threads setting:on")
    assert shown.ephemeral and "thread of its own" in shown.embeds[0]["description"]
    assert (await bot_env.storage.settings.get(bot_env.guild_id)).conflict_threads
    await bot_env.play(SHEETS)
    return bot_env


def table(env: BotEnv) -> FakeChannel:
    return env.world.guild.channels[0]


def in_channel(env: BotEnv, channel: FakeChannel) -> list[JSON]:
    found = env.harness.fake.messages.values()
    return sorted((m for m in found if m["channel_id"] == str(channel.id)), key=lambda m: int(m["id"]))


def after_sheets(env: BotEnv) -> list[JSON]:
    """What #table shows everyone after the two sheets were made there."""
    shown = [m for m in in_channel(env, table(env)) if not m["flags"] & 64]
    return [m for m in shown if not card_text(m).startswith("Created")]  # the sheets are cards


def the_thread(env: BotEnv) -> FakeChannel:
    [thread] = [c for c in env.world.guild.channels if c.parent_id == table(env).id]
    return thread


async def start_in_thread(env: BotEnv) -> FakeChannel:
    """``/conflict start`` typed in #table: the fight gets its thread, the channel a link to it."""
    started = await env.slash(START[1])
    thread = the_thread(env)
    assert not started.ephemeral and started.content.startswith("⚔️ A Conflict begins in")
    assert started.content == f"⚔️ A Conflict begins in <#{thread.id}>: join the fight there."
    assert thread.name == "Conflict: A brawl" and thread.type == 11
    assert thread.owner_id == env.world.bot.id and thread.auto_archive_duration == 1440
    env.harness.channel = thread
    await env.bot.conflicts.idle()
    return thread


async def test_setup_turns_conflict_threads_on_and_off(bot_env: BotEnv) -> None:
    shown = await bot_env.slash("/setup conflict-threads setting:on")
    field = next(f for f in shown.embeds[0]["fields"] if f["name"] == "Conflict threads")
    assert field["value"].startswith("on:")
    await bot_env.slash("/setup conflict-threads setting:off")
    assert not (await bot_env.storage.settings.get(bot_env.guild_id)).conflict_threads
    refused_ = await bot_env.slash("/setup conflict-threads setting:on", user="player1")
    assert refused(refused_) and "Manage Server" in refused_.content
    everyone = bot_env.world.guild.role(bot_env.guild_id)
    assert everyone is not None
    everyone.permissions &= ~SEND_MESSAGES_IN_THREADS
    warned = await bot_env.slash("/setup conflict-threads setting:on")
    assert "lacks **Send Messages in Threads** here" in warned.embeds[0]["description"]


async def test_a_fight_runs_in_its_thread_from_start_to_end(threads: BotEnv) -> None:
    env = threads
    thread = await start_in_thread(env)
    await env.play([*FIGHT, THUG_ATTACKS])
    await env.bot.conflicts.idle()
    posted = in_channel(env, thread)
    board = await env.storage.boards.row(env.guild_id, thread.id)
    assert board is not None and board.message_id in {int(m["id"]) for m in posted}
    vin = env.user_id("player1")
    asked = [m for m in posted if "mab:defend" in str(m["components"])]
    assert asked and asked[-1]["content"].startswith(f"<@{vin}>")  # the defence prompt pings Vin there
    clicked = await env.harness.click("Don't defend", user="player1")
    assert not refused(clicked) and clicked.payload["channel_id"] == str(thread.id)
    ended = await env.slash("/conflict end")
    assert not refused(ended), ended.content
    await env.bot.conflicts.idle()

    [link, summary] = after_sheets(env)  # the channel: the link, then the summary
    assert link["content"].startswith("⚔️ A Conflict begins in")
    assert summary["content"] == f"The Conflict in <#{thread.id}> is over."
    assert summary["embeds"] == ended.embeds[-1:]
    assert thread.archived and not thread.locked
    assert await env.storage.conflicts.get(env.guild_id, thread.id) is None


async def test_commands_in_the_thread_act_on_its_conflict_and_the_channel_is_free(threads: BotEnv) -> None:
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT[:2])  # join and add, typed in the thread
    stored = await env.storage.conflicts.get(env.guild_id, thread.id)
    assert stored is not None and stored.channel_id == thread.id
    env.harness.channel = table(env)
    outside = await env.slash("/conflict join", user="player1")
    assert refused(outside) and f"run in their own threads (<#{thread.id}>)" in outside.content
    status = await env.slash("/conflict status")
    assert refused(status) and f"(<#{thread.id}>). Use the command there." in status.content
    await env.slash('/conflict start kind:social stakes:"The ball"')  # a second fight, its own thread
    second = [c for c in env.world.guild.channels if c.parent_id == table(env).id and c.id != thread.id]
    assert [c.name for c in second] == ["Conflict: The ball"]
    assert await env.storage.conflicts.get(env.guild_id, second[0].id) is not None


async def test_without_the_permission_the_fight_runs_in_the_channel_and_the_narrator_is_told(
    threads: BotEnv,
) -> None:
    env = threads
    everyone = env.world.guild.role(env.guild_id)
    assert everyone is not None
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    started = await env.slash(START[1])
    assert not started.ephemeral and started.embeds  # the Conflict begins here, as without threads
    [note] = started.followups
    assert note["flags"] & 64 and "**Create Public Threads**" in note["content"]
    assert [c for c in env.world.guild.channels if c.parent_id is not None] == []
    assert await env.storage.conflicts.get(env.guild_id, table(env).id) is not None
    await env.play(FIGHT)
    told = [m for m in env.harness.fake.messages.values() if "Create Public Threads" in m["content"]]
    assert told == [note]  # once, to the Narrator who started it


async def test_a_thread_archived_by_hand_opens_again_with_the_next_move(threads: BotEnv) -> None:
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT)
    await archive_by_hand(env.harness.fake, thread.id)
    acted = await env.slash(THUG_ATTACKS[1])
    assert not refused(acted) and acted.message is not None
    assert acted.message["channel_id"] == str(thread.id) and not thread.archived
    await env.bot.conflicts.idle()
    assert env.bot.get_channel(thread.id) is not None  # back in discord.py's cache


async def test_a_deleted_thread_takes_its_messages_and_the_channel_starts_anew(threads: BotEnv) -> None:
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT)
    env.harness.fake.inject_fault("POST", CALLBACK, 404)  # this answer is lost...
    await env.slash(THUG_ATTACKS[1])
    await env.harness.fake.delete_channel(thread.id)  # ...and the thread deleted before it is posted
    await env.bot.conflicts.idle()
    waiting = await env.storage.outbox.waiting(env.guild_id, thread.id)
    assert waiting == []  # settled as gone, not retried forever
    env.harness.channel = table(env)
    asked = await env.slash("/conflict status")
    assert refused(asked) and asked.content == NO_CONFLICT  # no thread to point to
    again = await env.slash('/conflict start kind:physical stakes:"A rematch"')
    assert not refused(again) and again.content.startswith("⚔️ A Conflict begins")
    [rematch] = [c for c in env.world.guild.channels if c.parent_id == table(env).id]
    assert rematch.name == "Conflict: A rematch"


async def test_after_a_crash_mid_fight_the_outbox_posts_to_the_thread(threads: BotEnv) -> None:
    """The Thug's attack is saved but neither answered nor posted when the bot goes down (the
    answer refused, the deliverer's posts refused until it gives up): the restarted bot's
    catch-up posts it in the thread, buttons and ping, and the fight goes on there."""
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT)
    fake = env.harness.fake
    env.bot.conflicts.outbox.retry_delays = (0.01,)
    fake.inject_fault("POST", CALLBACK, 404)
    fake.inject_fault("POST", rf"/channels/{thread.id}/messages$", 400, times=2)
    attack = await env.slash(THUG_ATTACKS[1])
    assert attack.response is None
    await env.bot.conflicts.idle()
    [row] = await env.storage.outbox.waiting(env.guild_id, thread.id)
    assert row.channel_id == thread.id
    await env.restart()
    await env.bot.catch_up.done.wait()
    await env.bot.conflicts.idle()
    assert (await env.storage.outbox.waiting(env.guild_id, thread.id)) == []
    delivered = await env.storage.outbox.get(row.id)
    assert delivered is not None and delivered.message_id is not None
    posted = env.harness.fake.messages[delivered.message_id]
    assert posted["channel_id"] == str(thread.id) and posted["embeds"] == row.payload["embeds"]
    assert posted["content"].startswith(f"<@{env.user_id('player1')}>")
    assert after_sheets(env)[1:] == []  # the channel still holds the link only
    clicked = await env.harness.click("Don't defend", user="player1")
    assert not refused(clicked), clicked.content


async def board_behind(env: BotEnv, thread: FakeChannel) -> int:
    """The Thug's attack saved and answered in the thread while every edit of the board there is
    refused; returns the Conflict's saved version, which the board no longer shows."""
    fake = env.harness.fake
    env.bot.conflicts.boards.retry_delays = (0.01,)
    fake.inject_fault("PATCH", rf"/channels/{thread.id}/messages/\d+$", 400, times=2)
    acted = await env.slash(THUG_ATTACKS[1])
    assert not refused(acted), acted.content
    await env.bot.conflicts.idle()
    stored = await env.storage.conflicts.get(env.guild_id, thread.id)
    board = await env.storage.boards.row(env.guild_id, thread.id)
    assert stored is not None and board is not None and board.rendered_version < stored.version
    return stored.version


async def test_a_board_left_in_a_thread_discord_archived_is_drawn_after_a_restart(threads: BotEnv) -> None:
    """Discord archived the quiet thread while its board was behind: the restarted bot opens
    the thread again (an edit there is refused until then) and brings the board up to date."""
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT)
    version = await board_behind(env, thread)
    await archive_by_hand(env.harness.fake, thread.id)  # as Discord does after a quiet day
    await env.restart()
    await env.bot.catch_up.done.wait()
    await env.bot.conflicts.idle()
    board = await env.storage.boards.row(env.guild_id, thread.id)
    assert board is not None and board.rendered_version == version
    assert not thread.archived
    edited = env.harness.fake.messages[board.message_id]
    assert edited["channel_id"] == str(thread.id)


async def test_a_locked_thread_is_left_shut_and_said_once(
    threads: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    env = threads
    thread = await start_in_thread(env)
    await env.play(FIGHT)
    version = await board_behind(env, thread)
    await archive_by_hand(env.harness.fake, thread.id, locked=True)  # a moderator locks it
    with caplog.at_level(logging.INFO, logger="bot.workers.threads"):
        await env.restart()
        await env.bot.catch_up.done.wait()
        env.bot.conflicts.boards.refresh(env.guild_id, thread.id)  # and something asks again
        await env.bot.conflicts.idle()
    board = await env.storage.boards.row(env.guild_id, thread.id)
    assert board is not None and board.rendered_version < version
    assert thread.archived and thread.locked
    said = [r for r in caplog.records if r.name == "bot.workers.threads"]
    assert len(said) == 1 and "locked" in said[0].getMessage()


async def test_a_refused_start_makes_no_thread(threads: BotEnv) -> None:
    started = await threads.slash('/conflict start kind:physical stakes:"A\u0007brawl"')
    assert refused(started), started.content
    assert [c for c in threads.world.guild.channels if c.parent_id is not None] == []


@pytest.mark.parametrize("may_delete", [True, False])
async def test_a_start_that_cannot_be_saved_leaves_no_open_thread(
    threads: BotEnv, monkeypatch: pytest.MonkeyPatch, may_delete: bool
) -> None:
    """The thread is made, then saving the Conflict fails: the thread is deleted (the bot needs
    Manage Threads for that, even in its own thread) or, without it, archived."""
    env = threads
    bot_role = env.world.guild.role("Mistborn Bot")
    assert bot_role is not None
    if may_delete:
        bot_role.permissions |= MANAGE_THREADS

    async def broken(*args: object, **kwargs: object) -> None:
        raise StorageError("The database is unavailable; try again in a moment.")

    monkeypatch.setattr("bot.cogs.conflict.service.create_conflict", broken)
    started = await env.slash(START[1])
    assert refused(started), started.content
    made = [c for c in env.world.guild.channels if c.parent_id == table(env).id]
    if may_delete:
        assert made == []
    else:
        [thread] = made
        assert thread.archived
    assert not env.harness.fake.violations, env.harness.fake.violations


def test_the_offline_console_types_in_the_fights_thread(tmp_path: Path) -> None:
    script = (
        "/setup conflict-threads setting:on\n"
        '/conflict start kind:physical stakes:"A brawl"\n'
        "!where thread\n"
        "/conflict status\n"
        "!where server\n"
        "/conflict status\n"
    )
    result = run_console(script, tmp_path / "threads.sqlite3")
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "A Conflict begins in #Conflict: A brawl: join the fight there." in out
    assert "(now in the thread #Conflict: A brawl, in #table)" in out
    assert "(new message in thread #Conflict: A brawl)" in out
    in_thread, in_channel_again = out.split("> /conflict status")[1:]
    assert "The board is posted below." in in_thread
    assert "There is no Conflict running in this channel" in in_channel_again
