"""A cluster restarts at scale: two processes over one PostgreSQL, 1,000 Conflict boards in
channels where the bot lost access, and every other channel still catches up.

Discord allows a bot 50 requests a second across all its processes (interaction answers aside)
and bans an address for an hour after 10,000 refused requests (401, 403, 429) in ten minutes.
Here 20 servers, half on each of the two shards, each hold 50 Conflicts the bot can no longer
reach and one healthy channel. A moderator took View Channel from the bot in 40 channels of
each server while it was away (their boards were drawn before); 10 more fights ran in threads
of one of those channels, archived since, so discord.py's cache does not know them and only
asking Discord finds them refused. The healthy channel's board was never drawn, and a message
is owed there. The fake Discord enforces the global limit across both processes (a 429 with
``global: true`` beyond 50 a second) and counts every refused request.

What must hold, across two starts of both processes (``bot.workers.pacing``,
``bot.workers.refusals``):

* the first start asks nothing where the cache shows the bot may not post, is refused at most
  once per archived thread, is never rate limited, and its combined pace stays within Discord's
  50 a second; every healthy channel's board and queued message are shown; the lost channels'
  queued messages are kept;
* the second start is refused nothing at all, and the messages queued in the healthy channels
  meanwhile are shown.

Figures (docs/benchmarks.md, "A cluster restarting with lost channels") come from
``pytest -m slow tests/faults/test_cluster_budget.py -s``, which prints them.
"""

import asyncio
import re
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cogs.conflict.transaction import start_conflict
from fake_discord.backend import Limits
from fake_discord.channel_access import deny_bot
from fake_discord.ratelimits import BAN_LINE, RateLimits
from fake_discord.remote import CAUGHT_UP
from fake_discord.server import FakeDiscord
from fake_discord.world import PUBLIC_THREAD, FakeChannel, FakeGuild, World, add_table_guild, default_world
from rules.character import Character, CharacterKind
from rules.conflict import Join
from storage import MessageKind, NewMessage, Storage
from testbed.bot_env import board_matches
from testbed.cluster import Cluster, ShardedSnowflakes, shard_of
from testbed.pg_server import PgServer

pytestmark = pytest.mark.slow

GUILDS, HIDDEN_PER_GUILD, THREADS_PER_GUILD = 20, 40, 10
LOST = GUILDS * (HIDDEN_PER_GUILD + THREADS_PER_GUILD)
QUEUED_LOST = 10
"""Lost channels with a message owed there too."""
DISCORD_GLOBAL = 50
CAUGHT_UP_WITHIN = 60.0
CHANNEL_PATH = re.compile(r"/channels/(\d+)")

Place = tuple[FakeGuild, FakeChannel]


@dataclass
class Table:
    """The world the cluster serves: which channels the bot lost, which are healthy."""

    world: World
    lost: list[Place]
    healthy: list[Place]

    @property
    def threads(self) -> set[int]:
        return {channel.id for _, channel in self.lost if channel.type == PUBLIC_THREAD}


def table_world() -> Table:
    ids = ShardedSnowflakes()
    world = default_world(ids=ids)
    world.guilds.clear()  # every server laid out alike: add_table_guild's
    lost, healthy = [], []
    for number in range(GUILDS):
        ids.bump()  # the next server on the other shard
        guild = add_table_guild(world, f"Table {number}", channels=HIDDEN_PER_GUILD + 1)
        healthy.append((guild, guild.channels[0]))
        for channel in guild.channels[1:]:
            deny_bot(world, channel.id)  # while the bot was away
            lost.append((guild, channel))
        parent = guild.channels[1]
        for fight in range(THREADS_PER_GUILD):
            thread = FakeChannel(
                ids.next(), f"Fight {fight}", type=PUBLIC_THREAD, parent_id=parent.id, owner_id=world.bot.id
            )
            thread.archived = True
            guild.channels.append(thread)
            lost.append((guild, thread))
    return Table(world, lost, healthy)


def notice(text: str) -> NewMessage:
    return NewMessage(kind=MessageKind.NOTICE, payload={"content": text, "allowed_mentions": {"parse": []}})


async def seed(url: str, table: Table) -> list[int]:
    """A Conflict in every channel, as a previous run left them, and a message owed in every
    healthy channel and a few lost ones; the queued rows' ids (the healthy channels' first)."""
    async with await Storage.open(url=url) as storage:
        await asyncio.gather(*(seed_guild(storage, guild, table.world) for guild in table.world.guilds))
        owed = [*table.healthy, *table.lost[: QUEUED_LOST // 2], *table.lost[-QUEUED_LOST // 2 :]]
        return await queue(storage, owed, "Owed before the restart")


async def seed_guild(storage: Storage, guild: FakeGuild, world: World) -> None:
    """The server's two characters and a duel between them in each of its channels; every board
    but the healthy channel's was drawn before the bot lost access."""
    player, narrator = guild.member("player1"), guild.member("narrator")
    assert player is not None and narrator is not None
    vin = Character(name="Vin", kind=CharacterKind.HERO, owner_id=player.user.id)
    thug = Character(name="Thug", kind=CharacterKind.VILLAIN, owner_id=narrator.user.id)
    made = [await storage.characters.create(guild.id, sheet) for sheet in (vin, thug)]
    joins = tuple(Join(character_id=stored.id) for stored in made)
    for channel in guild.channels:
        applied = await start_conflict(storage, guild.id, channel.id, "physical", "Hold the line", joins)
        if channel is not guild.channels[0]:
            assert applied.stored is not None
            board, version = world.ids.next(), applied.stored.version
            await storage.boards.set(
                guild.id, channel.id, board, conflict_id=applied.conflict_id, version=version
            )


async def queue(storage: Storage, where: list[Place], text: str) -> list[int]:
    ids = []
    for guild, channel in where:
        stored = await storage.conflicts.get(guild.id, channel.id)
        assert stored is not None
        [row] = await storage.outbox.add(guild.id, channel.id, stored.id, [notice(text)])
        ids.append(row.id)
    return ids


@dataclass
class Start:
    seconds: float
    refused: list[tuple[float, int, str]]


async def start_both(cluster: Cluster) -> Start:
    """Start both processes together and wait until both have caught up."""
    fake = cluster.fake
    before = len(fake.invalid)
    started = time.monotonic()
    await asyncio.gather(*(process.start(timeout=60) for process in cluster.processes))
    await asyncio.gather(
        *(process.wait_line(CAUGHT_UP, timeout=CAUGHT_UP_WITHIN) for process in cluster.processes)
    )
    return Start(time.monotonic() - started, fake.invalid.since(before))


@pytest.fixture
async def cluster(pg_server: PgServer, tmp_path: Path) -> AsyncIterator[tuple[Cluster, Table, list[int]]]:
    url = await pg_server.create_database()
    table = table_world()
    queued = await seed(url, table)
    fake = FakeDiscord(table.world, limits=Limits(rate_limits=RateLimits(global_per_second=DISCORD_GLOBAL)))
    await fake.start()
    made = Cluster(fake, url, tmp_path)
    made.process("zero", [0])
    made.process("one", [1])
    try:
        yield made, table, queued
        assert not fake.violations, fake.violations[:5]
    finally:
        for process in made.processes:
            await process.kill()
        await fake.stop()
        await pg_server.drop_database(url)


async def test_a_cluster_restart_with_1000_lost_channels_stays_far_from_the_ban_and_catches_up(
    cluster: tuple[Cluster, Table, list[int]],
) -> None:
    made, table, queued = cluster
    fake = made.fake
    assert {shard_of(guild) for guild, _ in table.healthy} == {0, 1} and len(table.lost) == LOST
    healthy_rows, lost_rows = queued[: len(table.healthy)], queued[len(table.healthy) :]

    first = await start_both(made)
    per_channel = Counter(int(m[1]) for _, _, r in first.refused if (m := CHANNEL_PATH.search(r)))
    assert {status for _, status, _ in first.refused} <= {403}, first.refused[:5]
    assert set(per_channel) <= table.threads and sum(per_channel.values()) == len(first.refused)
    assert max(per_channel.values(), default=0) <= 1, per_channel.most_common(3)
    limiter = fake.rate_limiter
    assert limiter is not None and limiter.refused == [] and limiter.peak_per_second <= DISCORD_GLOBAL
    async with await Storage.open(url=made.url) as storage:
        marked = {(r.guild_id, r.channel_id) for r in await storage.refused.all()}
        assert marked == {(guild.id, channel.id) for guild, channel in table.lost}
        await healthy_caught_up(storage, fake, table, healthy_rows)
        for row_id in lost_rows:
            kept = await storage.outbox.get(row_id)
            assert kept is not None and not kept.settled and kept.attempted_at is None

        for process in made.processes:
            await process.stop()
            assert process.returncode == 0, process.log_tail()
        owed = await queue(storage, table.healthy, "Owed after the restart")
        second = await start_both(made)
        assert second.refused == []
        await healthy_caught_up(storage, fake, table, owed)
    assert limiter.refused == [] and limiter.peak_per_second <= DISCORD_GLOBAL
    assert fake.invalid.most_in_window() < BAN_LINE / 10
    print(
        f"\n{LOST} lost channels ({len(table.threads)} archived threads), {len(table.healthy)} healthy,"
        f" 2 processes: first start refused {len(first.refused)} requests, caught up in"
        f" {first.seconds:.1f} s; second start refused {len(second.refused)}, caught up in"
        f" {second.seconds:.1f} s; peak {limiter.peak_per_second} requests in one second, no 429"
    )


async def healthy_caught_up(storage: Storage, fake: FakeDiscord, table: Table, rows: list[int]) -> None:
    for guild, channel in table.healthy:
        assert await board_matches(storage, fake.messages, guild.id, channel.id), channel.name
    for row_id in rows:
        shown = await storage.outbox.get(row_id)
        assert shown is not None and shown.message_id in fake.messages, shown
