"""Two bot processes on shards 0 and 1 of 2, against one PostgreSQL: the cluster as deployed.

The loopback Discord routes each server's events to the process holding its shard
(``(guild_id >> 22) % 2``), as Discord does. What must hold:

* a server on each shard is served, each interaction answered exactly once, by its shard;
* during a redeploy Discord may give one shard to two sessions: clicks on one Conflict spread
  over both processes lose nothing (row locks and versions, no process-local lock);
* killing one process leaves the other serving its servers, and its restart catches up what
  the dead one saved but never showed.
"""

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.payloads import Actor
from fake_discord.process import BotProcess, RemoteHarness
from fake_discord.remote import CAUGHT_UP
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeGuild, FakeMember, World, add_table_guild, default_world
from rules.conflict import Awaiting
from storage import Storage
from storage.conflict_moves import current_conflict
from testbed.bot_env import DUEL, THUG_ATTACKS, board_matches, is_board
from testbed.cards import is_card
from testbed.cluster import Cluster, ShardedSnowflakes, shard_of
from testbed.pg_server import PgServer

pytestmark = pytest.mark.slow

JSON = dict[str, object]
KILLED = -9


def two_shard_world() -> World:
    """The usual table, then one more server on the other shard."""
    ids = ShardedSnowflakes()
    world = default_world(ids=ids)
    ids.bump()
    add_table_guild(world, "Luthadel Table")
    ids.bump()
    ids.bump()
    return world


class GuildHarness(RemoteHarness):
    """The usual remote harness, acting in one chosen server of the world."""

    def __init__(self, fake: FakeDiscord, process: BotProcess, guild: FakeGuild) -> None:
        self.guild = guild
        super().__init__(fake, process)
        self.channel = guild.channels[0]
        self.idle = 0.05

    def member(self, name: str | FakeMember) -> FakeMember:
        if isinstance(name, FakeMember):
            return name
        found = self.guild.member(name)
        assert found is not None, name
        return found

    def actor(self, user: str | FakeMember | None = None) -> Actor:
        return Actor(self.guild, self.channel, self.member(user) if user is not None else self.user)

    def typed(self, line: str, user: str) -> dict[str, object]:
        actor = self.actor(user)
        parsed = parse_slash(line, self.commands, actor.guild, actor.member)
        return payloads.slash_command(self.world, actor, parsed.command, parsed.options, parsed.resolved)

    async def play(self, script: list[tuple[str, str]]) -> None:
        for user, line in script:
            record = await self.send(self.typed(line, user))
            assert record.response is not None and not record.errors, (line, record.text)


@pytest.fixture
async def cluster(pg_server: PgServer, tmp_path: Path) -> AsyncIterator[Cluster]:
    url = await pg_server.create_database()
    fake = FakeDiscord(two_shard_world())
    await fake.start()
    made = Cluster(fake, url, tmp_path)
    try:
        yield made
        assert not fake.violations, fake.violations
    finally:
        for process in made.processes:
            await process.kill()
        await fake.stop()
        await pg_server.drop_database(url)


async def test_two_processes_serve_their_shards_and_survive_each_other(cluster: Cluster) -> None:
    fake = cluster.fake
    first = next(g for g in fake.world.guilds if shard_of(g) == 0)
    second = next(g for g in fake.world.guilds if shard_of(g) == 1)
    a, b = cluster.process("a", [0]), cluster.process("b", [1])
    await asyncio.gather(a.start(), b.start())
    zero, one = GuildHarness(fake, a, first), GuildHarness(fake, b, second)
    assert fake.gateway.holders(0) == 1 and fake.gateway.holders(1) == 1

    # Each server is served by its own shard's process, each interaction answered once.
    for harness in (zero, one):
        rolled = await harness.send(harness.typed("/roll dice:3", "player1"))
        assert rolled.response is not None and not rolled.errors, rolled.text

    # A redeploy: a second process takes shard 0 while the first still holds it, and the
    # clicks on one Conflict are spread over both. Every adjustment is counted once.
    await zero.play(DUEL)
    async with await Storage.open(url=cluster.url) as storage:
        before = await current_conflict(storage, first.id, zero.channel.id)
        assert before is not None
        thug = next(p for p in before.participants if p.name == "Thug")
        dice = thug.round.action_dice
        overlap = cluster.process("a2", [0])
        await overlap.start()
        fake.gateway.split_overlap = True
        assert fake.gateway.holders(0) == 2
        adjusted = await asyncio.gather(
            *(zero.send(zero.typed("/conflict adjust who:Thug dice:1", "narrator")) for _ in range(12))
        )
        assert all(r.response is not None and not r.errors for r in adjusted), [r.text for r in adjusted]
        after = await current_conflict(storage, first.id, zero.channel.id)
        assert after is not None and after.participant(thug.id).round.action_dice == dice + 12
        await overlap.stop()
        fake.gateway.split_overlap = False

        # Shard 1's process dies right after saving a move it never showed; shard 0 goes on.
        await one.play(DUEL)
        await b.control("crash-at after-commit")
        attack = await fake.send_interaction(one.typed(THUG_ATTACKS[1], THUG_ATTACKS[0]))
        assert await b.exited() == KILLED, b.log_tail()
        assert attack.messages == []  # never shown (under load the deadline guard may have deferred it)
        rolled = await zero.send(zero.typed("/roll dice:2", "player2"))
        assert rolled.response is not None and not rolled.errors, rolled.text

        # Its restart catches up: the saved attack and its defence prompt are posted once.
        await b.start()
        await b.wait_line(CAUGHT_UP, timeout=15)
        rows = [row for row in await waiting_rows(storage, second.id)]
        assert rows == [], rows
        conflict = await current_conflict(storage, second.id, one.channel.id)
        assert conflict is not None and conflict.pending is not None
        assert conflict.pending.awaiting is Awaiting.DEFENCE
        prompts = [
            m
            for m in fake.messages.values()
            if m["channel_id"] == str(one.channel.id)
            and "Defend" in json.dumps(m.get("components"))
            and not is_board(m)  # the board card offers the defence under the target too
        ]
        assert len(prompts) == 1, prompts


async def waiting_rows(storage: Storage, guild_id: int) -> list[int]:
    """Outbox rows of the server not yet shown."""
    channels = [c for g, c in await storage.outbox.waiting_channels() if g == guild_id]
    return [row.id for c in channels for row in await storage.outbox.waiting(guild_id, c)]


async def test_an_overlap_delivering_every_event_to_both_processes_rolls_once_and_ends_on_the_saved_board(
    cluster: Cluster,
) -> None:
    """A redeploy's overlap where Discord sends each event to both sessions of shard 0: a roll is
    logged once, a burst of moves counts each once, the board ends on the saved state, and the
    process whose answer Discord refused logs no traceback."""
    fake = cluster.fake
    first = next(g for g in fake.world.guilds if shard_of(g) == 0)
    old = cluster.process("old", [0])
    await old.start()
    zero = GuildHarness(fake, old, first)
    await zero.play(DUEL)
    new = cluster.process("new", [0])
    await new.start()
    assert fake.gateway.holders(0) == 2 and not fake.gateway.split_overlap

    rolled = await zero.send(zero.typed("/roll dice:3", "player1"))
    assert rolled.response is not None and is_card(rolled.message) and not rolled.ephemeral, rolled.text
    async with await Storage.open(url=cluster.url) as storage:
        assert (await storage.rolls.stats(first.id)).rolls == 1
        before = await current_conflict(storage, first.id, zero.channel.id)
        assert before is not None
        vin = next(p for p in before.participants if p.name == "Vin")
        moves = await asyncio.gather(
            *(zero.send(zero.typed("/conflict adjust who:Vin dice:1", "narrator")) for _ in range(8))
        )
        assert all(m.response is not None for m in moves), [m.text for m in moves]
        after = await current_conflict(storage, first.id, zero.channel.id)
        assert after is not None
        assert after.participant(vin.id).round.action_dice == before.participant(vin.id).round.action_dice + 8
        deadline = asyncio.get_running_loop().time() + 15
        while not await board_matches(storage, fake.messages, first.id, zero.channel.id):
            assert asyncio.get_running_loop().time() < deadline, "the board never showed the saved state"
            await asyncio.sleep(0.2)
    refused = [v for v in fake.violations if v.problem != "a second initial response to one interaction"]
    assert refused == [], refused
    fake.violations.clear()
    for process in (old, new):
        assert "Traceback" not in process.log_path.read_text(errors="replace"), process.log_tail()
