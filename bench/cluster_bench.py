"""Interactions/s at p99 < 20 ms: one process on SQLite, one on PostgreSQL, two on PostgreSQL.

Run by hand: ``python -m bench.cluster_bench`` (about two minutes on 2 cores). Unlike
``bench.load_bench``, the bot runs in its own process(es) (``fake_discord.remote``, as the
crash tests run it), so two bot processes really are two interpreters; the load generator
runs in its own (``bench.cluster_generator``) and the fake Discord in this one. The three
set-ups are measured one after the other in this one run, on the same servers, mix and rates:

* ``sqlite x1``: one process, the SQLite file (the default);
* ``postgres x1``: one process on a throwaway PostgreSQL server (``testbed.pg_server``);
* ``postgres x2``: shards 0 and 1 of 2, one process each, on that server: the fake routes each
  server's interactions to its shard's process (``(guild_id >> 22) % 2``).

Open loop: interaction i is due at ``i / rate`` s, from a random server and a weighted mix of
rolls (a write to the roll log), stat rolls (a sheet read and a write), sheets (reads) and
Conflict moves (``/conflict adjust``: a transaction that locks the Conflict, saves it and its
outbox row). Latency is from the fake delivering the interaction to the fake receiving the
initial callback; how late the generator ever was (``gen lag``) and how late the fake ever
delivered what was due (``fake lag``) are columns of their own, so a late bench shows as
itself and not as the bot. ``bot CPU`` is the bot processes' CPU time (all of them, from
``/proc``) per interaction sent, and their share of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.common import Payloads, machine, seed_table, table
from bench.load_results import (
    ACK_WINDOW,
    P99_GOAL_MS,
    GcWatch,
    ProcessClock,
    RateResult,
    Sent,
    outcome,
    per_kind,
    summarize,
)
from bot.cogs.conflict.transaction import run_transition, start_conflict
from fake_discord.process import BotProcess
from fake_discord.records import clock
from fake_discord.server import FakeDiscord
from fake_discord.world import DISCORD_EPOCH_MS, Snowflakes, World, add_table_guild, default_world
from rules.conflict import ActionKind, ActionSpec, Declare, Join
from rules.errors import RulesError
from storage import Storage
from testbed.pg_server import PgServer, start_server

MIX = {
    "roll": ("player1", "/roll dice:5 difficulty:2", 40),
    "stat": ("player1", "/roll stat:Physique", 20),
    "sheet": ("player2", "/character show name:Vin", 25),
    "move": ("narrator", "/conflict adjust who:Thug dice:1", 15),
}
SHARDS = 2
WAIT = ActionSpec(kind=ActionKind.NO_ROLL, label="wait")


class SpreadSnowflakes(Snowflakes):
    """Ids whose millisecond is bumped per server, so servers alternate shards; never behind the
    clock, so an interaction's id says it was created now (the bot defers what looks 2 s old)."""

    def __init__(self) -> None:
        super().__init__()
        self.ms = int(time.time() * 1000) - DISCORD_EPOCH_MS

    def next(self) -> int:
        self.ms = max(self.ms, int(time.time() * 1000) - DISCORD_EPOCH_MS)
        return (self.ms << 22) | (next(self._counter) & 0x3FFFFF)


def spread_world(guilds: int) -> World:
    ids = SpreadSnowflakes()
    world = default_world(ids=ids)
    for number in range(2, guilds + 1):
        ids.ms += 1
        add_table_guild(world, f"Table {number}")
    ids.ms += 1
    return world


async def seed(storage: Storage, world: World) -> None:
    """Vin and the Thug in every server, and a live Conflict between them in its #table."""
    for guild in world.guilds:
        await seed_table(storage, guild)
        vin = await storage.characters.get_by_name(guild.id, "Vin")
        thug = await storage.characters.get_by_name(guild.id, "Thug")
        joins = (Join(character_id=vin.id), Join(character_id=thug.id))
        channel = guild.channels[0].id
        await start_conflict(storage, guild.id, channel, "physical", "A brawl", joins, begin=True)
        order = [thug.id, vin.id]
        while order:  # both declare (in the rules' order), so the Narrator may adjust the Thug's dice
            who = order.pop(0)
            try:
                await run_transition(storage, guild.id, channel, Declare(participant=who, action=WAIT))
            except RulesError:
                order.append(who)


@asynccontextmanager
async def cluster(
    fake: FakeDiscord, folder: Path, processes: int, url: str | None
) -> AsyncIterator[list[BotProcess]]:
    """``processes`` bot processes (sharded when more than one) on the SQLite file or ``url``."""
    started: list[BotProcess] = []
    base = {"DATABASE_URL": url} if url else {}
    try:
        for index in range(processes):
            env = dict(base)
            if processes > 1:
                env |= {
                    "MISTBORN_SHARD_COUNT": str(processes),
                    "MISTBORN_SHARD_IDS": json.dumps([index]),
                    "MISTBORN_IDENTIFY_CONCURRENCY": str(processes),
                }
            process = BotProcess(fake, folder / "bench.sqlite3", log_path=folder / f"bot{index}.log", env=env)
            await process.start(timeout=60)
            started.append(process)
        yield started
    finally:
        for process in started:
            await process.stop()


@dataclass
class ClusterRate(RateResult):
    deliver: float = 0.0
    """How late the fake, in this process, ever delivered an interaction the generator sent on time."""


class Generator:
    """Turns the schedule of ``bench.cluster_generator`` (its own process) into interactions."""

    def __init__(self, fake: FakeDiscord, seed: int) -> None:
        self.fake = fake
        self.p = Payloads(fake)
        self.rng = random.Random(seed)
        self.templates = {
            kind: [self.p.slash(line, self.p.actor(g, user)) for g in fake.world.guilds]
            for kind, (user, line, _) in MIX.items()
        }

    async def run_rate(self, rate: int, seconds: float, bots: Sequence[ProcessClock] = ()) -> ClusterRate:
        """Offer ``rate`` interactions/s for ``seconds``; latency counts from the fake's delivery
        (the generator's and the fake's own lateness are columns of their own)."""
        result = ClusterRate(rate, seconds)
        before = len(self.fake.violations)
        mix = [f"{kind}:{weight}" for kind, (_, _, weight) in MIX.items()]
        generator = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.cluster_generator",
            f"--rate={rate}",
            f"--seconds={seconds}",
            f"--servers={len(self.fake.world.guilds)}",
            f"--seed={self.rng.randrange(1 << 30)}",
            *mix,
            stdout=asyncio.subprocess.PIPE,
        )
        assert generator.stdout is not None
        cpu_before = [bot.seconds() for bot in bots]
        with GcWatch(hold=True) as watch:  # no collection here may count against the bot
            while line := await generator.stdout.readline():
                kind, *fields = line.decode().split()
                if kind == "end":
                    result.lag = float(fields[0])
                    break
                server, due = fields
                template = self.templates[kind][int(server)]
                record = await self.fake.send_interaction(self.p.fresh(template))
                result.deliver = max(result.deliver, record.sent_at - float(due))
                result.sent.append(Sent(kind, record.sent_at, record))
            await generator.wait()
            last = max((s.due for s in result.sent), default=clock())
            while clock() < last + ACK_WINDOW + 0.2 and any(s.record.response is None for s in result.sent):
                await asyncio.sleep(0.05)
        result.gc_full, result.gc_max = watch.full, watch.longest
        result.bot_cpu = sum(bot.seconds() - cpu for bot, cpu in zip(bots, cpu_before, strict=True))
        await asyncio.sleep(0.5)  # followups and board edits drain before the next rate
        result.violations = len(self.fake.violations) - before
        result.outcomes = [
            (s.kind, outcome(s), None if s.record.responded_at is None else s.record.responded_at - s.due)
            for s in result.sent
        ]
        self.fake.interactions.clear()
        self.fake.messages.clear()
        result.sent = []
        gc.collect()
        return result


async def measure(
    name: str, processes: int, url: str | None, args: argparse.Namespace
) -> tuple[str, list[RateResult]]:
    world = spread_world(args.guilds)
    fake = FakeDiscord(world)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            async with await Storage.open(Path(folder) / "bench.sqlite3", url=url) as storage:
                await seed(storage, world)
            async with cluster(fake, Path(folder), processes, url) as bots:
                clocks = [ProcessClock(bot.proc.pid) for bot in bots if bot.proc is not None]
                generator = Generator(fake, args.seed)
                await generator.run_rate(min(args.rates), 2.0)  # warm-up, not reported
                gc.collect()
                gc.freeze()  # the fake's start-up objects leave the collector's scans
                return name, [await generator.run_rate(rate, args.seconds, clocks) for rate in args.rates]
    finally:
        await fake.stop()


async def run(args: argparse.Namespace) -> None:
    print(f"cluster bench: {args.guilds} servers on 2 shards, open loop, {args.seconds:g} s per rate")
    print(f"mix {', '.join(f'{k}={w}' for k, (_, _, w) in MIX.items())}; {machine()}")
    print("the bot in its own process(es), the generator in its own; the fake Discord in this one")
    server: PgServer = start_server()
    try:
        admin_url = await server.create_database()
        results = [await measure("sqlite x1", 1, None, args)]
        results.append(await measure("postgres x1", 1, admin_url, args))
        second = await server.create_database()
        results.append(await measure("postgres x2", SHARDS, second, args))
    finally:
        server.stop()
    headers = ["set-up", "offered/s", "sent", "ok", "late", "busy", "errors", "violations"]
    headers += ["p50 ms", "p99 ms", "max ms", "gen lag ms", "bot CPU ms/interaction / share of a core"]
    headers += ["GCs", "held", "fake lag ms"]
    rows, verdicts = [], []
    for name, per_rate in results:
        held = []
        for result in per_rate:
            row, ok = summarize(result)
            deliver = result.deliver if isinstance(result, ClusterRate) else float("nan")
            rows.append([name, *row, f"{1000 * deliver:.1f}"])
            if ok:
                held.append(result.rate)
        verdicts.append(f"{name}: {max(held, default=0)}/s")
    print(table(headers, rows))
    for name, per_rate in results:
        print(f"\n{name}: p50 / p99 ms per kind")
        print(table(["kind", *[f"{r.rate}/s" for r in per_rate]], per_kind(list(per_rate))))
    by_name = dict(results)
    if "sqlite x1" in by_name and "postgres x1" in by_name:
        ratios = [
            f"{pg.rate}/s {pg.bot_cpu / len(pg.outcomes) / (lite.bot_cpu / len(lite.outcomes)):.2f}x"
            for lite, pg in zip(by_name["sqlite x1"], by_name["postgres x1"], strict=True)
            if lite.bot_cpu > 0 and lite.outcomes and pg.outcomes
        ]
        print("bot CPU per interaction, postgres x1 against sqlite x1: " + ", ".join(ratios))
    print(f"highest offered rate held with p99 < {P99_GOAL_MS:g} ms and no failures: " + "; ".join(verdicts))


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.cluster_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--rates", default="50,100,200,300", help="offered rates (default 50,100,200,300)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per rate (default 5)")
    parser.add_argument("--guilds", type=int, default=20, help="servers (default 20)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    args.rates = [int(r) for r in args.rates.split(",")]
    os.environ.pop("DATABASE_URL", None)  # each set-up chooses its own database
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
