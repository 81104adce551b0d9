"""kill -9 in the middle of a fight run in its own thread (``/setup conflict-threads``): the new
process catches up in the thread, not in the channel the fight was started from, and a fight
ended just before the kill still gets its summary in the channel and its thread archived, once.

The bot runs in its own process, as in ``test_kill_points``; the duel is started from #table, so
it runs in a thread, and the Thug's attack is saved but never answered when the process dies.
"""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from fake_discord.server import FakeDiscord
from fake_discord.thread_routes import newest_thread
from fake_discord.world import FakeChannel
from rules.conflict import Awaiting
from storage import Storage
from storage.conflict_moves import current_conflict
from storage.outbox import MessageKind
from testbed.bot_env import DUEL, THUG_ATTACKS
from tests.faults.test_kill_points import Table, outbox_rows, table_process

pytestmark = pytest.mark.slow


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """The duel played in its thread up to the Thugs' declaration."""
    async with table_process(fake, tmp_path) as table:
        harness = table.harness
        await table.play([("narrator", "/setup conflict-threads setting:on"), *DUEL[:3]])
        thread = newest_thread(harness.world.guild)
        assert thread is not None and thread.parent_id == harness.channel.id
        harness.channel = thread
        table.channel_id = thread.id
        await table.play(DUEL[3:])
        yield table


async def test_after_the_commit_the_outcome_is_posted_in_the_thread(table: Table) -> None:
    parent = table.harness.world.guild.channels[0].id
    in_parent = [m["id"] for m in table.fake.messages.values() if m["channel_id"] == str(parent)]
    attack = await table.crash("after-commit", table.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
    assert attack.response is None

    async def check(storage: Storage) -> None:
        await table.shown_once(storage)  # every row, in the thread
        conflict = await current_conflict(storage, table.guild_id, table.channel_id)
        assert conflict is not None and conflict.pending is not None
        assert conflict.pending.awaiting is Awaiting.DEFENCE

    await table.restart(check)
    after = [m["id"] for m in table.fake.messages.values() if m["channel_id"] == str(parent)]
    assert after == in_parent  # nothing of the fight went to the channel
    defended = await table.harness.send(table.click("Don't defend", "player1"))
    assert defended.response_type == 7 and defended.followups, defended.text
    await table.all_shown_once()


def posted_in(table: Table, channel_id: int) -> list[dict[str, Any]]:
    return [m for m in table.fake.messages.values() if m["channel_id"] == str(channel_id)]


@pytest.mark.parametrize("point", ["after-commit", "outbox-post"])
async def test_a_fight_ended_just_before_the_kill_is_closed_once(table: Table, point: str) -> None:
    """``/conflict end`` is saved, then the bot dies: before anything is sent (after-commit), or
    just after the summary reached the channel but before that was noted (outbox-post). The new
    process posts the end in the thread, the summary in the channel and archives the thread,
    each once."""
    guild = table.harness.world.guild
    parent = guild.channels[0]
    thread = guild.channel(table.channel_id)
    assert isinstance(thread, FakeChannel) and thread.parent_id == parent.id
    before = len(posted_in(table, parent.id))
    await table.crash(point, table.typed("/conflict end", "narrator"))
    assert not thread.archived  # the closing had not run (or not finished) when the bot died

    async def check(storage: Storage) -> None:
        assert await current_conflict(storage, table.guild_id, table.channel_id) is None
        rows = await outbox_rows(storage)
        assert all(row.settled and row.failure is None for row in rows), rows
        [close] = [row for row in rows if row.kind is MessageKind.NOTICE]
        assert close.channel_id == thread.id and close.message_id is not None
        summary = table.fake.messages[close.message_id]
        assert summary["channel_id"] == str(parent.id)

    await table.restart(check)
    summaries = [m for m in posted_in(table, parent.id) if "is over" in str(m["content"])]
    assert len(posted_in(table, parent.id)) == before + 1
    [summary] = summaries
    assert summary["content"] == f"The Conflict in <#{thread.id}> is over."
    public = [m for m in posted_in(table, thread.id) if not m["flags"] & 64]
    assert not [m for m in public if "is over" in str(m["content"])]  # the summary's line is not there
    ends = [m for m in public if "The Conflict ends" in str(m["embeds"])]
    assert len(ends) == 1  # the end, shown once in the thread
    assert summary["embeds"] == ends[0]["embeds"][-1:]  # with the Conflict's summary
    assert thread.archived and not thread.locked
