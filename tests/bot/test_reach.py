"""A secret stays in its room (issue 39, docs/rulings.md §7.6), through the real dispatch: what
was said in a channel a player cannot read, or in a private thread they took no part in, is in
none of their journals, recaps, histories or roll lists; the table's recap card leaves out the
private threads; the Narrator keeps everything. The night is ``tests/bot/rooms.py``'s."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fake_discord.payloads import EPHEMERAL
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv, refused, running_bot_env
from tests.bot.cogs.sessions.test_sessions import card_text, journal_of
from tests.bot.rooms import (
    OOC_ROLL,
    OOC_TITLE,
    SIDE_WOUND,
    TABLE_ROLL,
    TABLE_TITLE,
    VIN_OPEN,
    WHISPER_ROLL,
    WHISPER_WOUND,
    Rooms,
    play_the_rooms,
    room,
    rooms_world,
)


@pytest.fixture
async def rooms(tmp_path: Path) -> AsyncIterator[tuple[BotEnv, Rooms]]:
    async with running_bot_env(tmp_path / "bot.sqlite3", rooms_world()) as env:
        yield env, await play_the_rooms(env)


async def asked(env: BotEnv, user: str, line: str) -> InteractionRecord:
    """``line`` typed by ``user`` in ``#table``."""
    env.harness.channel = room(env, "table")
    return await env.slash(line, user=user)


async def file_of(env: BotEnv, user: str, line: str) -> str:
    reply = await asked(env, user, line)
    assert reply.ephemeral and reply.message and reply.message["attachments"], reply.text
    return journal_of(env, reply)


async def test_a_session_in_a_channel_the_player_cannot_read_is_no_session_for_them(
    rooms: tuple[BotEnv, Rooms],
) -> None:
    env, night = rooms
    for command in ("journal", "recap"):
        reply = await asked(env, "player2", f"/session {command} session:{night.ooc_session}")
        assert refused(reply) and f"no session #{night.ooc_session}" in reply.text, reply.text
        assert OOC_TITLE not in reply.text
    assert OOC_ROLL in await file_of(env, "player1", f"/session journal session:{night.ooc_session}")
    assert OOC_ROLL in await file_of(env, "narrator", f"/session journal session:{night.ooc_session}")
    recap = await asked(env, "narrator", f"/session recap session:{night.ooc_session}")
    assert recap.ephemeral and OOC_TITLE in card_text(recap.messages[0])


async def test_a_characters_story_holds_only_what_the_reader_could_read(rooms: tuple[BotEnv, Rooms]) -> None:
    env, _ = rooms
    theirs = await file_of(env, "player2", "/sheet history name:Vin")
    assert VIN_OPEN in theirs
    for hidden in (OOC_ROLL, WHISPER_ROLL, WHISPER_WOUND, OOC_TITLE):
        assert hidden not in theirs, hidden
    for user in ("player1", "narrator"):
        story = await file_of(env, user, "/sheet history name:Vin")
        assert all(words in story for words in (VIN_OPEN, OOC_ROLL, WHISPER_ROLL, WHISPER_WOUND)), user


async def test_each_line_of_a_story_has_its_date_and_its_session(rooms: tuple[BotEnv, Rooms]) -> None:
    env, night = rooms
    story = (await file_of(env, "narrator", "/sheet history name:Vin")).splitlines()
    ooc = story.index(f"## Session #{night.ooc_session}: {OOC_TITLE}")
    table = story.index(f"## Session #{night.table_session}: {TABLE_TITLE}")
    assert ooc < next(n for n, line in enumerate(story) if OOC_ROLL in line) < table
    assert table < next(n for n, line in enumerate(story) if VIN_OPEN in line)
    [created] = await env.storage.journal.sessions(env.guild_id, night.table, limit=1)
    day = created.started_at.strftime("%Y-%m-%d")
    lines = [line for line in story if line.startswith("- ")]
    assert lines and all(line.startswith(f"- `{day} ") for line in lines), lines


async def test_the_roll_list_holds_only_rolls_made_where_the_asker_reads(rooms: tuple[BotEnv, Rooms]) -> None:
    env, night = rooms
    theirs = await asked(env, "player2", "/history rolls count:25")
    assert TABLE_ROLL in theirs.text and VIN_OPEN in theirs.text
    assert OOC_ROLL not in theirs.text and WHISPER_ROLL not in theirs.text
    assert not theirs.ephemeral  # every roll it lists was made at this table
    for user in ("player1", "narrator"):
        listed = await asked(env, user, "/history rolls count:25")
        assert OOC_ROLL in listed.text and WHISPER_ROLL in listed.text, user
        assert listed.ephemeral and "rolls made elsewhere" in listed.text, user  # #table may not read them
        assert f"<#{night.ooc}>" in listed.text and f"<#{night.whisper}>" in listed.text


async def test_a_private_threads_entries_never_file_under_the_tables_card(
    rooms: tuple[BotEnv, Rooms],
) -> None:
    """A public thread's do: everyone reading the channel reads it (docs/rulings.md §7.6)."""
    env, night = rooms
    assert TABLE_TITLE in night.table_card and WHISPER_WOUND not in night.table_card
    assert SIDE_WOUND in night.table_card
    assert WHISPER_WOUND in night.full_card and SIDE_WOUND in night.full_card
    recap = await asked(env, "player2", "/session recap")
    assert recap.ephemeral and WHISPER_WOUND not in card_text(recap.messages[0])
    journal = await file_of(env, "player2", "/session journal")
    assert TABLE_ROLL in journal and WHISPER_ROLL not in journal and WHISPER_WOUND not in journal
    assert SIDE_WOUND in journal
    took_part = await file_of(env, "player1", "/session journal")
    assert WHISPER_ROLL in took_part and WHISPER_WOUND in took_part
    mine = await asked(env, "player1", "/session recap")
    assert WHISPER_WOUND in card_text(mine.messages[0])
    assert int(mine.messages[0]["flags"]) & EPHEMERAL


async def test_each_entry_and_roll_keeps_where_it_was_said(rooms: tuple[BotEnv, Rooms]) -> None:
    env, night = rooms
    rolls = {r.label: r for r in await env.storage.rolls.recent(env.guild_id, limit=25)}
    assert (rolls[OOC_ROLL].channel_id, rolls[OOC_ROLL].private_thread_id) == (night.ooc, None)
    assert (rolls[WHISPER_ROLL].channel_id, rolls[WHISPER_ROLL].private_thread_id) == (
        night.table,
        night.whisper,
    )
    assert (rolls[TABLE_ROLL].channel_id, rolls[TABLE_ROLL].private_thread_id) == (night.table, None)
    player1 = env.user_id("player1")
    assert await env.storage.journal.threads_of(env.guild_id, player1) == {night.whisper}
    assert await env.storage.journal.threads_of(env.guild_id, env.user_id("player2")) == frozenset()
