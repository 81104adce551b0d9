"""kill -9 at each point of a move, then a restart: the table sees every saved outcome exactly once.

The real bot runs in its own process (``fake_discord.remote``) against the fake Discord of this
process, which survives the kill and keeps every message. The test plays a duel to a defence
prompt, arms one of the bot's crash points (``bot.crash``, through the runner's control
line), makes the move, and waits for the process to die: SIGKILL exactly there, no sleep and no
race. A new process then opens the same file. What must hold, for every point:

* every outbox row (every message a saved move owed the table) is shown by exactly one message
  of the channel, the one the row names;
* the board matches the saved state within 3 seconds of the bot being ready;
* the round goes on: a pending defence can be answered with the buttons now in the channel.
"""

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.records import InteractionRecord
from fake_discord.remote import CAUGHT_UP
from fake_discord.server import FakeDiscord
from rules.conflict import Awaiting
from storage import OutboxMessage, Storage
from storage.conflict_moves import current_conflict
from storage.sql import fetch_all
from testbed.bot_env import DUEL, THUG_ATTACKS, board_matches

pytestmark = pytest.mark.slow

JSON = dict[str, Any]
READY_TO_BOARD = 3.0
KILLED = -9
CALLBACK = r"/interactions/\d+/[^/]+/callback"


class Table:
    """The bot in its process, the fake Discord, and the bot's file read from this process."""

    def __init__(self, harness: RemoteHarness) -> None:
        self.harness = harness
        self.fake = harness.fake
        self.process = harness.process
        self.guild_id = harness.world.guild.id
        self.channel_id = harness.channel.id

    def typed(self, line: str, user: str) -> JSON:
        actor = self.harness.actor(user)
        parsed = parse_slash(line, self.harness.commands, actor.guild, actor.member)
        return payloads.slash_command(
            self.harness.world, actor, parsed.command, parsed.options, parsed.resolved
        )

    def click(self, label: str, user: str, message: JSON | None = None) -> JSON:
        actor = self.harness.actor(user)
        found, button = self.harness.find_component(label, actor.member, message, kinds={2})
        return payloads.component_click(self.harness.world, actor, found, button)

    async def play(self, script: list[tuple[str, str]]) -> None:
        for user, line in script:
            record = await self.harness.send(self.typed(line, user))
            assert record.response is not None and not record.errors, (line, record.text)

    async def crash(self, point: str, payload: JSON) -> InteractionRecord:
        """Arm ``point``, send ``payload`` and wait until the bot died there."""
        await self.process.control(f"crash-at {point}")
        record = await self.fake.send_interaction(payload)
        assert await self.process.exited() == KILLED, self.process.log_tail()
        return record

    async def restart(self, storage_check: Callable[[Storage], Awaitable[None]]) -> None:
        """Start a new process; the board must be right within 3 s of its being ready."""
        await self.process.start()
        loop = asyncio.get_running_loop()
        ready = loop.time()
        async with await Storage.open(self.process.db_path) as storage:
            assert await self.eventually(lambda: self.board_right(storage), READY_TO_BOARD), "board behind"
            assert loop.time() - ready <= READY_TO_BOARD
            await self.process.wait_line(CAUGHT_UP)
            await storage_check(storage)

    async def board_settled(self) -> None:
        """Wait until the board shows, and has marked, the saved Conflict: a refresh still running
        from the last move would otherwise be the one a crash point armed next stops in."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        async with await Storage.open(self.process.db_path) as storage:
            while True:
                row = await storage.boards.row(self.guild_id, self.channel_id)
                saved = await storage.boards.saved(self.guild_id, self.channel_id)
                shows = row is not None and saved is not None and row.shows(*saved)
                if shows and await self.board_right(storage):
                    return
                assert loop.time() < deadline, (row, saved)
                await asyncio.sleep(0.02)

    async def board_right(self, storage: Storage) -> bool:
        if await current_conflict(storage, self.guild_id, self.channel_id) is None:
            return True
        return await board_matches(storage, self.fake.messages, self.guild_id, self.channel_id)

    async def eventually(self, check: Callable[[], Awaitable[bool]], timeout: float) -> bool:
        """Look again after every change of the channel's messages, for at most ``timeout`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not await check():
            if not await self.fake.wait_for(changed_since(self.fake), deadline - loop.time()):
                return await check()
        return True

    async def all_shown_once(self) -> None:
        """Once the running bot has marked what it answered, every row is shown exactly once."""
        async with await Storage.open(self.process.db_path) as storage:

            async def marked() -> bool:
                return all(row.settled for row in await outbox_rows(storage))

            assert await self.eventually(marked, 5), await outbox_rows(storage)
            await self.shown_once(storage)

    async def shown_once(self, storage: Storage) -> None:
        """Each outbox row is settled, names a message that shows it, and no message shows a
        row twice (rows with the very same text count together)."""
        rows = await outbox_rows(storage)
        assert rows and all(row.settled and row.message_id is not None for row in rows), rows
        messages = [m for m in self.fake.messages.values() if m["channel_id"] == str(self.channel_id)]
        for row in rows:
            assert row.message_id is not None and looks(self.fake.messages[row.message_id]) == looks(
                row.payload
            )
        assert Counter(looks(row.payload) for row in rows) == Counter(
            key for key in map(looks, messages) if key in {looks(row.payload) for row in rows}
        )


def changed_since(fake: FakeDiscord) -> Callable[[], bool]:
    seen = fake.changes
    return lambda: fake.changes != seen


def looks(message: JSON) -> tuple[str, str]:
    """What the table reads of a message: its text and its embeds."""
    return str(message.get("content") or ""), repr(message.get("embeds") or [])


async def outbox_rows(storage: Storage) -> list[OutboxMessage]:
    ids = [
        int(row[0]) for row in await fetch_all(storage.database.reader, "SELECT id FROM outbox ORDER BY id")
    ]
    return [row for row in [await storage.outbox.get(i) for i in ids] if row is not None]


@contextlib.asynccontextmanager
async def table_process(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """A bot in its own process at a table, its dice seeded; the fake saw no violation at the end."""
    process = BotProcess(fake, tmp_path / "bot.sqlite3", log_path=tmp_path / "bot.log", seed=11)
    try:
        await process.start()
        harness = RemoteHarness(fake, process)
        harness.idle = 0.05
        yield Table(harness)
        assert not fake.violations, fake.violations
    finally:
        await process.kill()


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    """The duel played up to the Thug's attack on Vin: Vin's defence prompt is waiting."""
    async with table_process(fake, tmp_path) as table:
        await table.play(DUEL)
        await table.board_settled()
        yield table


async def test_after_the_commit_before_the_reply(table: Table) -> None:
    """The attack is saved but never answered: the outbox posts it, buttons and all."""
    attack = await table.crash("after-commit", table.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
    assert attack.response is None

    async def check(storage: Storage) -> None:
        await table.shown_once(storage)
        conflict = await current_conflict(storage, table.guild_id, table.channel_id)
        assert conflict is not None and conflict.pending is not None
        assert conflict.pending.awaiting is Awaiting.DEFENCE

    await table.restart(check)
    defended = await table.harness.send(table.click("Don't defend", "player1"))
    assert defended.response_type == 7 and defended.followups, defended.text
    await table.all_shown_once()


async def test_after_the_defence_is_saved_before_its_reply(table: Table) -> None:
    """Vin's click is saved and unanswered; its outcome is posted, the old buttons are refused."""
    await table.play([THUG_ATTACKS])
    prompt, _ = table.harness.find_component("Don't defend", table.harness.member("player1"))
    click = await table.crash("after-commit", table.click("Don't defend", "player1", prompt))
    assert click.response is None
    await table.restart(table.shown_once)
    again = await table.harness.send(table.click("Don't defend", "player1", prompt))
    assert again.ephemeral and "already been settled" in again.content, again.text


async def test_after_the_reply_before_the_board(table: Table) -> None:
    """The attack was answered but not marked delivered: found again by its interaction, not re-posted."""
    attack = await table.crash("after-reply", table.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
    answer = attack.message
    assert attack.response is not None and answer is not None

    async def check(storage: Storage) -> None:
        await table.shown_once(storage)
        row = (await outbox_rows(storage))[-1]
        assert row.message_id == int(answer["id"]) and row.attempted_at is None

    await table.restart(check)
    defended = await table.harness.send(table.click("Don't defend", "player1"))
    assert defended.response_type == 7 and defended.followups, defended.text


async def test_during_the_board_edit(table: Table) -> None:
    """The board was edited but its new version not saved: it is drawn again, the same."""
    attack = await table.crash("board-edit", table.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
    assert attack.response is not None
    await table.restart(table.shown_once)
    defended = await table.harness.send(table.click("Don't defend", "player1"))
    assert defended.response_type == 7 and defended.followups, defended.text


async def test_between_two_outbox_posts(table: Table) -> None:
    """Two moves whose replies Discord refused wait in the outbox; the bot dies right after
    posting the first. The nonce stops it being posted twice; the second is posted once."""
    table.fake.inject_fault("POST", CALLBACK, 404, times=2)  # both answers refused
    table.fake.inject_fault("POST", rf"/channels/{table.channel_id}/messages$", 503, times=1)
    await table.process.control("crash-at outbox-post")
    # Sent together: the bot applies them in order (its writer takes one move at a time).
    attack = await table.fake.send_interaction(table.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
    defence = await table.fake.send_interaction(table.typed("/defend dice:0", "player1"))
    assert await table.process.exited() == KILLED, table.process.log_tail()
    assert attack.response is None and defence.response is None
    await table.restart(table.shown_once)
