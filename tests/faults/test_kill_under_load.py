"""kill -9 the bot in the middle of a stream of writes; a new process carries on from the file.

The real bot runs in a subprocess (``fake_discord.remote``) against the fake Discord in this
process, which therefore survives the kill and knows exactly which interactions the bot
acknowledged. Three players and the Narrator keep it busy (``testbed/drivers.py``): character creations
and edits, logged rolls, and a Conflict played with slash commands and prompt buttons. When
enough has been acknowledged and a defence prompt is waiting, the test arms the bot's
``move-received`` crash point (``bot.crash``) and clicks the defence: the bot kills itself
with SIGKILL the moment that click reaches it, before it writes anything, while the players'
writes keep coming. The test waits for the process to die, not for a delay, so the kill always
lands with that click unanswered (a kill sent from outside sometimes came after the bot had
already answered). A new process then opens the same file.

What must hold: every acknowledged write is in the database, ``PRAGMA integrity_check`` is ok,
every Conflict document loads, the Conflict is exactly as its last acknowledged move left it,
and the round goes on: the defence prompt posted by the dead process still works when clicked.
Then the new process is stopped with SIGINT and must exit cleanly (0, not killed).
"""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fake_discord.load import Load, acknowledged
from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.server import FakeDiscord
from rules.conflict import Conflict, load_conflict
from storage import Storage
from storage.sql import fetch_all
from testbed.drivers import ConflictDriver, Row, character_exists, defence_pending, player_stream
from tests.support import integrity

pytestmark = pytest.mark.slow

KILL_AFTER_ACKS = 40
"""Acknowledged interactions (all users together) before the kill is armed."""
KILL_IN_CYCLE = 1
"""The kill waits for a defence prompt of this Conflict (the first ones play out whole)."""
PLAYERS = ("player2", "player3", "player4")


@pytest.fixture
async def remote(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[RemoteHarness]:
    for name in PLAYERS[1:]:
        fake.world.add_member(name)  # before the bot connects, so its server has them
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=7)
    try:
        await process.start()
        harness = RemoteHarness(fake, process)
        harness.idle = 0.03
        yield harness
        assert not fake.violations, fake.violations
    finally:
        await process.kill()


async def test_kill_9_under_load_loses_no_acknowledged_write(remote: RemoteHarness) -> None:
    harness, process = remote, remote.process
    guild, channel = harness.world.guild.id, harness.channel.id
    load: Load[Storage] = Load(harness)
    driver = ConflictDriver(load, process.db_path, guild, channel)
    armed, killed = asyncio.Event(), asyncio.Event()

    async def conflict() -> None:
        """Play until a defence prompt waits late enough; arm the crash, click, wait for the kill."""

        def armed_now(state: Conflict | None) -> bool:
            return load.acks >= KILL_AFTER_ACKS and driver.cycle >= KILL_IN_CYCLE and defence_pending(state)

        await driver.run(stop=armed_now, max_moves=200)
        await process.control("crash-at move-received")
        armed.set()
        await driver.send(settle=False)  # the bot dies as this click arrives
        await killed.wait()

    streams = [
        asyncio.create_task(player_stream(load, user, user.replace("player", "P"), guild)) for user in PLAYERS
    ]
    streams.append(asyncio.create_task(conflict()))
    waiting = asyncio.create_task(armed.wait())
    try:
        async with asyncio.timeout(30):
            done, _ = await asyncio.wait([waiting, *streams], return_when=asyncio.FIRST_COMPLETED)
            for task in done - {waiting}:
                task.result()  # a stream failed before the kill: show why
            assert await process.exited() == -9, process.log_tail()
            killed.set()
    finally:
        for task in [*streams, waiting]:
            task.cancel()
        await asyncio.gather(*streams, waiting, return_exceptions=True)
    in_flight = load.in_flight()
    acked = [s for s in load.sent if acknowledged(s.record)]
    assert in_flight, "the kill was meant to land with an interaction unanswered"
    assert len(acked) >= KILL_AFTER_ACKS and driver.moves > 12
    assert sum(s.check is not None for s in acked) >= KILL_AFTER_ACKS // 2  # promises to check

    before_kill = driver.last_acked
    assert before_kill is not None
    assert defence_pending(load_conflict(before_kill[2]))

    await process.start()
    try:
        await after_the_restart(load, driver, before_kill)
    finally:
        driver.close()
    await process.stop()
    assert process.returncode == 0, process.log_tail()


async def after_the_restart(load: Load[Storage], driver: ConflictDriver, before_kill: Row) -> None:
    """The new process's file holds every promise, and the round goes on from it."""
    guild = driver.guild_id
    async with await Storage.open(load.harness.process.db_path) as storage:
        assert await integrity(storage) == [("ok",)]
        assert await load.broken_promises(storage) == []
        rows = await fetch_all(storage.database.reader, "SELECT document FROM conflicts")
        for row in rows:
            load_conflict(row["document"])  # raises on a corrupted document
        assert driver.stored() == before_kill  # the pending defence, exactly as acknowledged

        # The interrupted round goes on: the prompt posted by the dead process still works...
        move = await driver.move()
        # A click on the prompt updates it (7); the board card carries the same buttons under
        # whoever is up, and a click there answers with a new message (4).
        assert move.response_type in (4, 7), move.text
        assert driver.stored() != before_kill
        # ...and so does everything after it, to the end of this Conflict.
        cycle = driver.cycle
        await driver.run(
            stop=lambda state: state is None and driver.cycle == cycle and driver.started, max_moves=30
        )
        after = await load.write(
            "narrator",  # the streams' players may have reached the cap of sheets per member
            '/character create name:"After the crash" physique:2',
            character_exists(guild, "After the crash"),
        )
        assert acknowledged(after), after.text
        assert await load.broken_promises(storage) == []
        assert await integrity(storage) == [("ok",)]
