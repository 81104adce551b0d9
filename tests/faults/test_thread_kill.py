"""kill -9 in the middle of a fight run in its own thread (``/setup conflict-threads``): the new
process catches up in the thread, not in the channel the fight was started from.

The bot runs in its own process, as in ``test_kill_points``; the duel is started from #table, so
it runs in a thread, and the Thug's attack is saved but never answered when the process dies.
"""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.server import FakeDiscord
from fake_discord.thread_routes import newest_thread
from rules.conflict import Awaiting
from storage import Storage
from storage.conflict_moves import current_conflict
from testbed.bot_env import DUEL, THUG_ATTACKS
from tests.faults.test_kill_points import Table

pytestmark = pytest.mark.slow


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """The duel played in its thread up to the Thugs' declaration."""
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=11)
    try:
        await process.start()
        harness = RemoteHarness(fake, process)
        harness.idle = 0.05
        table = Table(harness)
        await table.play([("narrator", "/setup conflict-threads setting:on"), *DUEL[:3]])
        thread = newest_thread(harness.world.guild)
        assert thread is not None and thread.parent_id == harness.channel.id
        harness.channel = thread
        table.channel_id = thread.id
        await table.play(DUEL[3:])
        yield table
        assert not fake.violations, fake.violations
    finally:
        await process.kill()


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
