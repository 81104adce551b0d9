"""How much code each interaction runs before its answer: distinct functions and calls, counted.

Run by hand: ``python -m bench.footprint_bench`` (a few seconds); ``--rounds`` sets how many
rounds are counted after the warm-up, ``--list CASE`` prints the functions one case ran (by file,
so two versions can be compared with ``diff``).

Why a count beside ``bench.dispatch_bench``'s timings: there every interaction runs with the
CPU's caches cold from the ones before it, and a function's first call in an interaction costs
several times its second (docs/benchmarks.md, "How much code runs"). What an interaction costs
above the floor follows how much distinct code it runs before its answer, which this counts
exactly, where the timings move by half with the host's load. It is the measure to cut against
when a timing goal is missed, and each cut can be checked in seconds.

Counted with ``sys.setprofile`` on the loop's thread, from discord.py reading the event
(``DiscordWebSocket.received_message``) to the bot's first call of the interaction's response
(``InteractionResponse.send_message``, ``edit_message`` or ``defer``): the Python functions of
every package (ours, discord.py, pydantic, asyncio and the rest) and the C functions they call,
each once ("distinct") and every call. The benchmark's driver and the fake Discord are left out.
The cases are ``bench.dispatch_bench``'s (the first drawings aside: a chart's drawing runs on a
worker thread), on the same seeded table, with the duel's dice thrown from one seed every round.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import discord

from bench.common import JSON, quiet_logs, running, table
from bench.dispatch_bench import ACT, DEFEND, LOGGED, Bench, prepare
from fake_discord.records import InteractionRecord
from fake_discord.world import many_guilds_world

START: CodeType = discord.gateway.DiscordWebSocket.received_message.__code__
ANSWERS = frozenset(
    getattr(discord.InteractionResponse, name).__code__ for name in ("send_message", "edit_message", "defer")
)
FAKE = "/fake_discord/"
"""The fake Discord's code, which shares the loop (the driver's runs only outside the window)."""
WARM_ROUNDS = 3
"""Rounds played before counting, so caches hold what a bot that has played holds."""
DICE_SEED = 4242
"""The seed the bot's dice are thrown from before each duel, so each round's moves read alike."""


@dataclass
class Count:
    """One interaction's code before its answer."""

    functions: set[tuple[str, int, str]] = field(default_factory=set)
    calls: int = 0
    counting: bool = False
    answered: bool = False

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            code = frame.f_code
            if code is START and not self.answered:
                self.counting = True
            elif code in ANSWERS and self.counting:
                self.counting, self.answered = False, True
            if self.counting and FAKE not in code.co_filename:
                self.functions.add((code.co_filename, code.co_firstlineno, code.co_name))
                self.calls += 1
        elif event == "c_call" and self.counting:
            owner = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", None)).__name__
            self.functions.add((f"<C {owner}>", 0, getattr(arg, "__qualname__", repr(arg))))
            self.calls += 1

    def ours(self) -> int:
        return sum(1 for path, _, _ in self.functions if _is_ours(path))


def _is_ours(path: str) -> bool:
    return any(f"/{package}/" in path for package in ("bot", "rules", "storage"))


class Counted:
    """Counts the interactions a :class:`Bench` sends, by its case names (not the steps that
    set the duel up again after its click)."""

    def __init__(self, bench: Bench) -> None:
        self.bench = bench
        self.names = {id(case.template): case.name for case in bench.cases if not case.first_drawing}
        self.names[id(bench.act_template)] = ACT
        self.by_case: dict[str, list[Count]] = {name: [] for name in [*self.names.values(), DEFEND]}
        self._send = bench.send
        bench.send = self.send  # type: ignore[method-assign]

    async def send(self, template: JSON) -> InteractionRecord:
        name = self.names.get(id(template))
        if name is None and str(template["data"].get("custom_id", "")).startswith("mab:defend:"):
            name = DEFEND
        if name is None:
            return await self._send(template)
        if name == ACT:
            self.bench.h.bot.rng.seed(DICE_SEED)  # type: ignore[attr-defined]
        count = Count()
        sys.setprofile(count.hook)
        try:
            return await self._send(template)
        finally:
            sys.setprofile(None)
            self.by_case[name].append(count)


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "footprint.sqlite3"
        async with running(many_guilds_world(1, channels=2), db_path) as (harness, storage):
            bench = Bench(harness, await prepare(harness, storage))
            await bench.declare()
            rng = random.Random(args.seed)
            await bench.rounds(WARM_ROUNDS, False, rng)
            counted = Counted(bench)
            await bench.rounds(args.rounds, False, rng)
    print(report(counted))
    if args.list:
        print(listing(counted, args.list))


def report(counted: Counted) -> str:
    """A row per case: medians of its distinct functions (all, and ours) and its calls."""
    medians = {
        name: [statistics.median(f(c) for c in found) for f in (_distinct, Count.ours, _calls)]
        for name, found in counted.by_case.items()
        if found
    }
    floor = medians[LOGGED][0] if LOGGED in medians else 0
    if not floor:
        raise SystemExit("Nothing was counted: discord.py's received_message or its response methods moved.")
    rows = [
        [name, f"{n:.0f}", f"{ours:.0f}", f"{calls:.0f}", f"{n / floor:.2f}x"]
        for name, (n, ours, calls) in medians.items()
    ]
    columns = ["case", "distinct functions", "of bot, rules, storage", "calls", "functions / logged"]
    head = "footprint: the code each interaction runs from the gateway event to its answer (medians)"
    return f"{head}\n\n{table(columns, rows)}"


def listing(counted: Counted, case: str) -> str:
    """The distinct functions of the last counted ``case`` (a prefix of its name), by file."""
    found = next(
        (counts for name, counts in counted.by_case.items() if name.startswith(case) and counts), None
    )
    if found is None:
        return f"\nno counted case starts with {case!r}"
    lines = [f"{path}:{line} {name}" for path, line, name in sorted(found[-1].functions)]
    return "\n" + "\n".join(lines)


def _distinct(count: Count) -> int:
    return len(count.functions)


def _calls(count: Count) -> int:
    return count.calls


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.footprint_bench", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds counted after the warm-up (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="the order of the cases in each round")
    parser.add_argument(
        "--list", metavar="CASE", help="also list the functions of the case named so (a prefix)"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
