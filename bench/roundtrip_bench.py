"""Round trips per Conflict move: SQLite statements, calls, trips to aiosqlite's thread, REST calls.

Run by hand: ``python -m bench.roundtrip_bench`` (a few seconds). The duel of
``bench.dispatch_bench`` is played through the real dispatch: ``/act dice:5`` (the Thug attacks)
and Vin's "Defend with N" click, each followed until the bot is quiet again, so everything the
move causes is counted: the caller's settings read, the move's transaction, the reply, marking
its outbox row delivered, the board's edit and whatever the board reads or writes to draw it.

* SQLite statements are counted by SQLite itself (a trace callback on each of the bot's
  connections): BEGIN and COMMIT included, statements run by triggers included.
* Calls answered on the loop are those the writer and the lookup reader answered on the event
  loop's own thread (``storage.loop_connection``: a statement, a fetch, a cursor close).
* aiosqlite trips are every call onto a connection's thread; each costs 50–300 µs of waiting
  alone and milliseconds under load. *Waits* count the trips the bot waited for one after
  another: trips sent together count once. A move makes none since the writer and the lookup
  reader answer on the loop.
* REST calls are the requests the fake Discord received: the interaction callback, followups,
  board edits.

Counts are the same on every run (the moves are deterministic); the median over ``--rounds``
cycles is printed in case a board edit coalesces differently.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from bench.common import (
    Duel,
    Payloads,
    defend_button,
    quiesce,
    quiet_logs,
    running,
    seed_table,
    start_duel,
    table,
)
from fake_discord.harness import Harness
from fake_discord.records import InteractionRecord
from fake_discord.world import many_guilds_world
from storage import Storage
from storage.loop_connection import LoopConnection

JSON = dict[str, Any]


@dataclass
class Counts:
    statements: list[int] = field(default_factory=list)
    here: list[int] = field(default_factory=list)
    trips: list[int] = field(default_factory=list)
    waits: list[int] = field(default_factory=list)
    rest: list[int] = field(default_factory=list)

    def row(self, name: str) -> list[str]:
        columns = (self.statements, self.here, self.trips, self.waits, self.rest)
        return [name] + [f"{statistics.median(values):g}" for values in columns]


class Counter:
    """Counts what the bot does against SQLite and the fake between :meth:`start` and :meth:`stop`."""

    def __init__(self, harness: Harness, on_loop: tuple[LoopConnection, ...] = ()) -> None:
        self.harness = harness
        self.on_loop = on_loop
        self._here = 0
        self.statements = 0
        self.trips = 0
        self.waits = 0
        self.in_flight = 0
        self._requests = 0

    def traced(self, _statement: str) -> None:
        self.statements += 1  # called on aiosqlite's threads; an int add is atomic under the GIL

    def start(self) -> None:
        self.statements = self.trips = self.waits = 0
        self._here = self.answered_here()
        self._requests = len(self.harness.fake.requests)

    def answered_here(self) -> int:
        return sum(conn.answered_here for conn in self.on_loop)

    def stop(self, counts: Counts) -> None:
        counts.statements.append(self.statements)
        counts.here.append(self.answered_here() - self._here)
        counts.trips.append(self.trips)
        counts.waits.append(self.waits)
        counts.rest.append(len(self.harness.fake.requests) - self._requests)


async def install(storage: Storage, counter: Counter) -> Callable[[], None]:
    """Trace every connection and count every trip to aiosqlite's thread; returns the undo."""
    database = storage.sqlite
    counter.on_loop = (database.writer, database.lookup)
    for on_loop in (database.writer, database.lookup):
        await on_loop.set_trace_callback(counter.traced)
    for conn in database.readers:
        await conn.set_trace_callback(counter.traced)
    original = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        counter.trips += 1
        counter.waits += counter.in_flight == 0  # nothing else on its way: a new wait
        counter.in_flight += 1
        try:
            # aiosqlite leaves its private _execute unannotated.
            return await original(self, fn, *args, **kwargs)  # type: ignore[no-untyped-call]
        finally:
            counter.in_flight -= 1

    aiosqlite.Connection._execute = counted  # type: ignore[method-assign]

    def undo() -> None:
        aiosqlite.Connection._execute = original  # type: ignore[method-assign]

    return undo


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    world = many_guilds_world(1, channels=2)
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "roundtrips.sqlite3"
        async with running(world, db_path) as (harness, storage):
            guild = world.guild
            await seed_table(storage, guild)
            duel = Duel(guild, guild.channels[1], "")
            await start_duel(storage, duel)
            payloads = Payloads(harness.fake)
            catch_up = getattr(harness.bot, "catch_up", None)
            if catch_up is not None:  # the bot's own start-up work is not a move's
                await catch_up.done.wait()

            async def send(template: JSON) -> InteractionRecord:
                record = await harness.fake.send_interaction(payloads.fresh(template))
                await quiesce(harness.bot, record)
                if record.response is None or record.ephemeral:
                    raise RuntimeError(f"refused: {record.errors or record.content}")
                return record

            steps = [
                payloads.slash(line, payloads.actor(guild, user, duel.channel)) for user, line in duel.steps
            ]
            act = payloads.slash(duel.act_line, payloads.actor(guild, "narrator", duel.channel))
            vin = payloads.actor(guild, "player1", duel.channel)
            for template in steps[1:3]:
                await send(template)
            counter = Counter(harness)
            undo = await install(storage, counter)
            acts, clicks = Counts(), Counts()
            started = time.perf_counter()
            try:
                for _ in range(args.rounds):
                    counter.start()
                    attack = await send(act)
                    counter.stop(acts)
                    custom_id = defend_button(attack.message)
                    if custom_id is None or attack.message is None:
                        raise RuntimeError("the attack asked for no defence")
                    counter.start()
                    await send(payloads.click(vin, attack.message, custom_id))
                    counter.stop(clicks)
                    for template in steps:  # next round: not counted
                        await send(template)
            finally:
                undo()
    took = time.perf_counter() - started
    print(f"round trips per Conflict move, median of {args.rounds} rounds ({took:.1f} s)")
    print()
    print(
        table(
            [
                "move",
                "SQLite statements",
                "calls answered on the loop",
                "aiosqlite trips",
                "waits",
                "REST calls",
            ],
            [acts.row("/act dice:5"), clicks.row('"Defend with N" click')],
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.roundtrip_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=20, help="act + defence cycles counted (default 20)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
