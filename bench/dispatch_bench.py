"""The cost of one interaction through the real discord.py dispatch, as a ratio to the floor.

Run by hand: ``python -m bench.dispatch_bench`` (300 samples per case after 30 warm-up rounds,
about 40 s on 2 cores); ``--samples``/``--warmup`` change the sizes, ``--profile CASE`` runs one
case under cProfile instead and prints where the time goes.

Each sample is one INTERACTION_CREATE sent by the fake Discord over its gateway socket, read by
discord.py, dispatched to the command tree (or a DynamicItem button), run by the bot, and
answered with the interaction callback POST to the fake's REST route; the latency is the fake's
clock from sending the event to receiving that initial callback (the ack). The bot is left to
finish any followups and board edits before the next sample, and cases are interleaved in a
new random order every round, so drift and noise spread over all of them.

The ``/odds`` cases answer with a chart (``bot/render/charts.py``): drawn once per input and cached,
so after the warm-up they measure sending it. The "first drawing" rows empty the caches before
every sample, so each draws its chart anew in the worker thread; they run after the other
rounds (shuffled each round), since emptying the caches would make the next warm sample cold.

The floor is ``/ping``, a bare handler added in this benchmark only: it answers "pong" through
the same gateway, dispatch and REST path. Goals (issue 31): a roll within 1.4x the floor's p50,
each Conflict interaction within 2.5x; a sheet within 2x (an earlier issue). Issue 40 restates
them against the write every roll must make, ``/ping-logged`` of the same run: a roll within
1.2x its p50, ``/act`` and a defence click within 1.75x (the last two columns). Three diagnostic
rows split a roll's cost: ``/ping-embed`` answers with a roll's card but rolls nothing and
writes nothing (what sending a card costs); ``/ping-logged`` makes a roll's durable write (the
claim, the roll and its journal entry, committed) and answers a bare pong (what the guarantee
that a roll is logged before its reply costs); ``/ping-file`` answers with an odds chart drawn
beforehand (what an upload costs: discord.py's multipart body and the fake parsing it, which
Discord does on its side); ``/ping-moved`` (``bench.diagnostics``), sent in the duel's channel,
makes a defence click's one read and one write and answers a bare pong (what a move's storage
costs: what a move takes above it is its own Python, printed under the table).

``--long-fight`` starts the duel with its log full (500 lines, ``rules.conflict.state.MAX_LOG``),
as a long evening's fight leaves it: from then on every move that logs drops the oldest line.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import aiosqlite

from bench.common import (
    JSON,
    Duel,
    Payloads,
    defend_button,
    in_process,
    machine,
    quiesce,
    quiet_logs,
    running,
    seed_table,
    start_duel,
    summary_ms,
    table,
)
from bot.render.charts import forget_drawings
from fake_discord.harness import Harness
from fake_discord.records import InteractionRecord
from fake_discord.world import many_guilds_world
from rules.character import Resilience
from rules.conflict import dump_conflict, load_conflict
from rules.conflict.state import MAX_LOG, LogEntry, LogKind
from storage import Storage

ACT, DEFEND, PAIR = "conflict /act dice:5", "conflict defend click", "conflict /act + defend"
GOALS = {"roll dice:5": 1.4, "roll stat:Physique": 1.4, "character show": 2.0, ACT: 2.5, DEFEND: 2.5}
LOGGED = "ping after a roll's durable write"
MOVED = "ping after a move's read and write"
LOGGED_GOALS = {"roll dice:5": 1.2, "roll stat:Physique": 1.2, ACT: 1.75, DEFEND: 1.75}
"""Issue 40's goals, as ratios to ``/ping-logged``'s p50: what is above the write a roll must make."""


@dataclass
class Case:
    name: str
    user: str
    line: str
    template: JSON = field(default_factory=dict)
    samples: list[float] = field(default_factory=list)
    first_drawing: bool = False
    """Empty the chart caches before each sample."""
    channel: int = 0
    """Which of the server's channels it is sent in (1: the duel's)."""


CASES = [
    Case("ping (floor)", "player1", "/ping"),
    Case("ping, roll-sized embed", "player1", "/ping-embed"),
    Case("ping with a chart-sized file", "player1", "/ping-file"),
    Case("ping after a roll's durable write", "player1", "/ping-logged"),
    Case(MOVED, "player1", "/ping-moved", channel=1),
    Case("roll dice:5", "player1", "/roll dice:5"),
    Case("roll stat:Physique", "player1", "/roll stat:Physique"),
    Case("odds roll dice:5 difficulty:3", "player1", "/odds roll dice:5 difficulty:3"),
    Case("odds roll, first drawing", "player1", "/odds roll dice:5 difficulty:3", first_drawing=True),
    Case("odds table", "player1", "/odds table"),
    Case("odds table, first drawing", "player1", "/odds table", first_drawing=True),
    Case("odds contest acting:6 opposing:4", "player1", "/odds contest acting:6 opposing:4"),
    Case("character show", "player1", "/character show name:Vin"),
]


class Bench:
    def __init__(self, harness: Harness, duel: Duel) -> None:
        self.h = harness
        self.p = Payloads(harness.fake)
        self.duel = duel
        self.guild = harness.world.guild
        self.cases = [
            Case(c.name, c.user, c.line, first_drawing=c.first_drawing, channel=c.channel) for c in CASES
        ]
        for case in self.cases:
            actor = self.p.actor(self.guild, case.user, self.guild.channels[case.channel])
            case.template = self.p.slash(case.line, actor)
        self.conflict: dict[str, list[float]] = {ACT: [], DEFEND: [], PAIR: []}
        actor = self.p.actor(self.guild, "narrator", duel.channel)
        self.act_template = self.p.slash(duel.act_line, actor)
        self.reset_templates = [
            self.p.slash(line, self.p.actor(self.guild, user, duel.channel)) for user, line in duel.steps
        ]
        self.failures: list[str] = []

    async def declare(self) -> None:
        """Both sides declare their attacks, so the round is ready for ``/act``."""
        for template in self.reset_templates[1:3]:
            await self.send(template)

    async def send(self, template: JSON) -> InteractionRecord:
        record = await self.h.fake.send_interaction(self.p.fresh(template))
        await quiesce(self.h.bot, record)
        if record.response is None or record.errors or record.ephemeral:
            self.failures.append(f"{template['data'].get('name')}: {record.errors or record.content[:80]}")
        return record

    async def one_case(self, case: Case, keep: bool) -> None:
        if case.first_drawing:
            forget_drawings()
        record = await self.send(case.template)
        if keep and record.ack_latency is not None:
            case.samples.append(record.ack_latency)

    async def one_duel(self, keep: bool) -> None:
        act = await self.send(self.act_template)
        custom_id = defend_button(act.message)
        if custom_id is not None and act.message is not None:
            actor = self.p.actor(self.guild, "player1", self.duel.channel)
            click = await self.send(self.p.click(actor, act.message, custom_id))
            if keep and act.ack_latency is not None and click.ack_latency is not None:
                self.conflict[ACT].append(act.ack_latency)
                self.conflict[DEFEND].append(click.ack_latency)
                self.conflict[PAIR].append(act.ack_latency + click.ack_latency)
        else:
            self.failures.append(f"/act gave no defence prompt: {act.content[:80]}")
        for template in self.reset_templates:  # next round, both declare, heal: not measured
            await self.send(template)

    def jobs(self, keep: bool) -> list[Callable[[], Awaitable[None]]]:
        found: list[Callable[[], Awaitable[None]]] = [
            partial(self.one_case, c, keep) for c in self.cases if not c.first_drawing
        ]
        return [*found, partial(self.one_duel, keep)]

    async def rounds(self, count: int, keep: bool, rng: random.Random) -> None:
        for _ in range(count):
            jobs = self.jobs(keep)
            rng.shuffle(jobs)
            for job in jobs:
                await job()

    async def first_drawings(self, count: int, rng: random.Random) -> None:
        """The cases that empty the chart caches first, after the others (see the module's doc)."""
        cases = [c for c in self.cases if c.first_drawing]
        for _ in range(count):
            rng.shuffle(cases)
            for case in cases:
                await self.one_case(case, True)


async def prepare(harness: Harness, storage: Storage, *, long_fight: bool = False) -> Duel:
    """Vin (player1's active Hero, a full sheet) and a Thug; their duel in the second channel.
    ``long_fight``: the duel's log starts full, as a long evening's fight leaves it."""
    guild = harness.world.guild
    await seed_table(storage, guild)
    duel = Duel(guild, guild.channels[1], "")
    await start_duel(storage, duel)
    if long_fight:
        await fill_log(storage, duel)
    return duel


async def fill_log(storage: Storage, duel: Duel) -> None:
    """Give the duel's Conflict a log of :data:`MAX_LOG` damage lines (setup, not measured): each
    move that logs then drops the oldest line, as every move of a long fight does."""
    stored = await storage.conflicts.get(duel.guild.id, duel.channel.id)
    assert stored is not None
    state = load_conflict(stored.document)
    vin, thug = (p.id for p in state.participants)
    entries = tuple(
        LogEntry(
            kind=LogKind.DAMAGE,
            round=1,
            attacker=thug,
            attacker_name="Thug",
            target=vin,
            target_name="Vin",
            resilience=Resilience.HEALTH,
            amount=n % 3,
            taken=n % 3,
        )
        for n in range(MAX_LOG)
    )
    full = state.model_copy(update={"log": entries, "log_dropped": 40})
    await storage.conflicts.save(duel.guild.id, stored, dump_conflict(full), participants=None)


def report(bench: Bench, samples: int, took: float, load: str) -> None:
    floor = summary_ms(bench.cases[0].samples)[0]
    logged = summary_ms(next(c for c in bench.cases if c.name == LOGGED).samples)[0]
    rows: list[list[str]] = []
    named = [(c.name, c.samples) for c in bench.cases] + list(bench.conflict.items())
    for name, values in named:
        p50, p99, mean = summary_ms(values)
        ratio, above = p50 / floor, p50 / logged
        rows.append(
            [
                name,
                str(len(values)),
                f"{p50:.2f}",
                f"{p99:.2f}",
                f"{mean:.2f}",
                f"{ratio:.2f}x",
                _verdict(ratio, GOALS.get(name)),
                f"{above:.2f}x",
                _verdict(above, LOGGED_GOALS.get(name)),
            ]
        )
    print(f"dispatch: one interaction, INTERACTION_CREATE -> initial callback, {samples} samples/case")
    print(f"({in_process('benchmark driver')}; {load}; {took:.0f} s)")
    print()
    columns = ["case", "n", "p50 ms", "p99 ms", "mean ms", "p50 / floor", "goal", "p50 / logged", "goal"]
    print(table(columns, rows))
    moved = summary_ms(next(c for c in bench.cases if c.name == MOVED).samples)[0]
    own = ", ".join(f"{name} +{summary_ms(bench.conflict[name])[0] - moved:.2f} ms" for name in (ACT, DEFEND))
    print(f"\nabove a move's read and write (the {MOVED!r} row, {moved:.2f} ms): {own}")
    if bench.failures:
        print(f"\n{len(bench.failures)} failed interaction(s), first: {bench.failures[:3]}")


def _verdict(ratio: float, goal: float | None) -> str:
    return "" if goal is None else (f"≤ {goal}x: " + ("met" if ratio <= goal else "MISSED"))


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    world = many_guilds_world(1, channels=2)
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "dispatch.sqlite3"
        async with running(world, db_path, openapi=args.openapi) as (harness, storage):
            bench = Bench(harness, await prepare(harness, storage, long_fight=args.long_fight))
            await bench.declare()
            rng = random.Random(args.seed)
            await bench.rounds(args.warmup, False, rng)
            if args.profile:
                await profile(bench, args.profile, args.samples)
                return
            load, start = machine(), time.perf_counter()
            await bench.rounds(args.samples, True, rng)
            await bench.first_drawings(args.samples, rng)
            report(bench, args.samples, time.perf_counter() - start, load)
            if harness.violations:
                print(f"fake recorded {len(harness.violations)} violation(s): {harness.violations[:3]}")


async def profile(bench: Bench, name: str, samples: int) -> None:
    """Run one case `samples` times under cProfile; print SQLite round trips and the top functions.

    Most of an interaction's wall time is the loop waiting (on sockets and on aiosqlite's
    thread), which cProfile shows as ``select.epoll.poll``; the round-trip count and wall time
    to aiosqlite's thread (each statement, fetch and cursor close is one) are counted apart.
    """
    if name == "conflict":
        job: Callable[[], Awaitable[None]] = partial(bench.one_duel, True)
    else:
        case = next((c for c in bench.cases if c.name.startswith(name)), None)
        if case is None:
            raise SystemExit(f"no case {name!r}; cases: {[c.name for c in bench.cases]} or 'conflict'")
        job = partial(bench.one_case, case, True)
    hops = [0, 0.0]
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            # aiosqlite leaves its private _execute unannotated.
            return await original(self, fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            hops[0] += 1
            hops[1] += time.perf_counter() - started

    # Count every hop to aiosqlite's thread for the profile; put back below.
    aiosqlite.Connection._execute = counted  # type: ignore[method-assign]
    profiler = cProfile.Profile()
    try:
        profiler.enable()
        for _ in range(samples):
            await job()
        profiler.disable()
    finally:
        aiosqlite.Connection._execute = original  # type: ignore[method-assign]
    print(
        f"{name}: {samples} runs; aiosqlite round trips per run (incl. unmeasured reset moves and "
        f"background board edits): {hops[0] / samples:.1f}, wall {1e6 * hops[1] / samples:.0f} µs"
    )
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(40)
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.dispatch_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--samples", type=int, default=300, help="measured rounds (default 300)")
    parser.add_argument("--warmup", type=int, default=30, help="unmeasured rounds first (default 30)")
    parser.add_argument("--seed", type=int, default=7, help="order shuffling seed")
    parser.add_argument(
        "--openapi",
        action="store_true",
        help="have the fake hold every body against Discord's description (timed with the bot)",
    )
    parser.add_argument(
        "--long-fight",
        action="store_true",
        help="start the duel with a full log (500 lines), as a long fight's moves find it",
    )
    parser.add_argument(
        "--profile",
        metavar="CASE",
        help="instead of the table, profile one case (a case name prefix such as 'roll dice', or 'conflict')",
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
