"""Sustained mixed load from many servers at fixed offered rates, through the real Discord path.

Run by hand: ``python -m bench.load_bench`` (100 servers; 50, 100, 200, 500 and 1,000
interactions/s for 10 s each; about 80 s on 2 cores). ``--crowd 20000 --mix ...,list=2`` adds
20,000 sheets to one server and ``/character list`` there to the mix, to show that one crowded
server does not slow the others. ``--rates``, ``--seconds``, ``--guilds``
and ``--conflicts`` change the run. ``--floor`` measures a floor instead, the same load answered
with the bot's work taken out, to show what of the bot's cost is not its work: ``--floor`` (or
``--floor bare``) by discord.py alone (``bench.floor_bot``); ``--floor tree`` by our bot with
every handler answering at once (``bench.tree_floor_bot``: discord.py's command tree and our
glue); ``--floor logged`` by the same, each command that can roll first making a roll's
durable write.

Open loop: a generator sends INTERACTION_CREATE on a fixed schedule (interaction i is due at
``i / rate`` seconds) whether or not earlier ones were answered, from a random server among
``--guilds`` and a weighted mix of commands (``--mix``): rolls, stat rolls from the active sheet,
single-cell odds, the full odds table, sheets, autocomplete (character names and stats), and
Conflict moves (``/act``, the defence click, next round, both declarations and a heal, cycling
in ``--conflicts`` channels that each hold a live Conflict; a move is only sent once the same
Conflict's previous move was answered, else a roll goes instead, and a move told "busy" is sent
again).

Latency is from the *scheduled* send time to the fake receiving the initial callback, so a
generator that falls behind counts against the bot instead of hiding it. That is why this
process holds its garbage collector during each rate and collects after it: a full collection
of the fake's records (35 ms seen) stalled the generator and the fake's clock together, and
every interaction due or answered meanwhile was counted that much later, on the bot's account.
A failure is no ack within 3 s, an error reply (an ephemeral message where none is expected,
or a refused callback), a "busy, try again" (admission control past capacity: answered, but
not served), or a violation the fake recorded. The highest rate "held" is the
highest one with p99 < 20 ms and no failures.

The bot runs as users run it, in a process of its own (``fake_discord.remote``: the same
start-up as ``python -m bot``, on uvloop, garbage collector frozen after start-up) on a SQLite
file; the fake Discord and the generator share this process, on one event loop, as Discord's
side of the wire. Per rate the table gives the bot process's CPU time per interaction and its
share of one core, read from ``/proc`` (all its threads: the event loop and SQLite's), and this
process's own share ("fake CPU": near a whole core, the fake answers late and the generator
lags) and the share of the machine's time its hypervisor stole (``/proc/stat``): both show as
latency the bot did not cause.
"""

from __future__ import annotations

import argparse
import gc
import tempfile
from pathlib import Path

from bench.common import Duel, machine, quiet_logs, seed_table, start_duel, table
from bench.load_generator import DEFAULT_MIX, Load, parse_mix
from bench.load_results import (
    P99_GOAL_MS,
    ProcessClock,
    RateResult,
    harness_cell,
    held_without,
    log_levels,
    per_kind,
    summarize,
)
from bench.tree_floor_bot import LOGGED
from bot import event_loop
from fake_discord.backend import Limits
from fake_discord.process import BotProcess
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeGuild, many_guilds_world
from rules.character import CharacterKind, make_character
from storage import Storage

FLOORS: dict[str, tuple[str, dict[str, str]]] = {
    "bare": ("bench.floor_bot", {}),
    "tree": ("bench.tree_floor_bot", {}),
    "logged": ("bench.tree_floor_bot", {LOGGED: "1"}),
}
"""Each floor's runner and its environment."""
FLOOR_NAMES = {
    "bare": "discord.py alone (bench.floor_bot)",
    "tree": "our bot's tree, each handler answering at once (bench.tree_floor_bot)",
    "logged": "our bot's tree, each command that can roll writing a roll first (bench.tree_floor_bot)",
}

EXTRA_NAMES = ["Valette", "Vanna", "Venture", "Vex", "Kelsier", "Sazed", "Marsh", "Ham"]


async def seed(storage: Storage, guilds: list[FakeGuild], conflicts: int) -> list[Duel]:
    """Every guild: Vin (player1's active Hero, a full sheet), a Thug and eight more characters
    (so name autocomplete has several answers); the first `conflicts` guilds get a live duel."""
    duels: list[Duel] = []
    for number, guild in enumerate(guilds):
        await seed_table(storage, guild)
        narrator = guild.member("narrator")
        assert narrator is not None
        async with storage.transaction() as tx:
            for name in EXTRA_NAMES:
                character = make_character(name=name, kind=CharacterKind.VILLAIN, owner_id=narrator.user.id)
                await tx.characters.create(guild.id, character)
        if number < conflicts:
            duel = Duel(guild, guild.channels[-1], "")
            await start_duel(storage, duel)
            duels.append(duel)
    return duels


async def crowd(storage: Storage, guild: FakeGuild, count: int) -> None:
    """`count` more Villains in one server (past the bot's own cap: written straight to storage),
    for ``/character list`` (the ``list`` kind, always in that server) to page through."""
    narrator = guild.member("narrator")
    assert narrator is not None
    for start in range(0, count, 1000):
        async with storage.transaction() as tx:
            for number in range(start, min(count, start + 1000)):
                character = make_character(
                    name=f"Crowd {number:05d}", kind=CharacterKind.VILLAIN, owner_id=narrator.user.id
                )
                await tx.characters.create(guild.id, character)


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    box = machine()
    world = many_guilds_world(args.guilds, channels=2)
    rates = [int(r) for r in args.rates.split(",")]
    results: list[RateResult] = []
    with tempfile.TemporaryDirectory() as folder:
        db_path, log_path = Path(folder) / "load.sqlite3", Path(folder) / "bot.log"
        async with await Storage.open(db_path) as storage:
            duels = await seed(storage, world.guilds, min(args.conflicts, args.guilds))
            await crowd(storage, world.guilds[0], args.crowd)
        # The OpenAPI check costs the fake (in this process) a third of a millisecond per body.
        fake = FakeDiscord(world, limits=Limits(openapi=args.openapi))
        await fake.start()
        process = BotProcess(fake, db_path, log_path=log_path)
        try:
            await process.start(timeout=120)
            if args.floor:  # our bot synced the commands; the floor answers them
                await process.stop()
                runner, env = FLOORS[args.floor]
                process = BotProcess(fake, db_path, log_path=log_path, runner=runner, env=env)
                await process.start(timeout=60)
            assert process.proc is not None
            clock = ProcessClock(process.proc.pid)
            load = Load(fake, duels, parse_mix(args.mix), args.seed)
            if not args.floor:
                await load.declare_all()
            await load.run_rate(min(rates), min(2.0, args.seconds))  # warm-up, not reported
            gc.collect()
            gc.freeze()  # the fake's and the generator's start-up objects leave the GC's scans
            for rate in rates:
                results.append(await load.run_rate(rate, args.seconds, clock))
        finally:
            await process.stop()
            await fake.stop()
        logged = log_levels(log_path.read_text(errors="replace"))
    rows, held = [], []
    for result in results:
        row, ok = summarize(result, beside_cpu=(harness_cell(result),))
        rows.append(row)
        if ok:
            held.append(result.rate)
    print(
        f"load: {args.guilds} servers, {len(duels)} live Conflicts"
        + (f", {args.crowd:,} more sheets in one server" if args.crowd else "")
        + f", open loop, {args.seconds:g} s per rate, "
        f"mix {args.mix}"
    )
    print(
        (f"FLOOR: {FLOOR_NAMES[args.floor]} answers, not our bot; " if args.floor else "")
        + f"(the bot in its own process on {event_loop.running_name()}'s loop here too, SQLite; "
        f"the fake Discord and the generator in this one; {box})"
    )
    print(
        "latency = scheduled send -> initial callback at the fake; failures: late = no ack in 3 s (or refused"
    )
    print(
        "as Unknown interaction), errors = error reply, violations = recorded by the fake (a late ack and its"
    )
    print("late error reply count one each); busy = the bot's private 'busy, try again' past capacity;")
    print("lag = how far the generator fell behind its schedule; bot CPU = the bot process's CPU time")
    print("per interaction sent, and its share of one core; fake CPU = this process's (the fake Discord and")
    print("the generator) share of one core; steal = the machine's CPU time its hypervisor gave to others;")
    print("GC = collections in the generator's process,")
    print("which holds its collector during each rate (a pause there stalls the fake's clock too)")
    print()
    print(
        table(
            [
                "offered/s",
                "sent",
                "ok",
                "late",
                "busy",
                "errors",
                "violations",
                "p50 ms",
                "p99 ms",
                "max ms",
                "lag ms",
                "bot CPU ms / core",
                "fake CPU / steal",
                "generator full GCs / longest ms",
                "held",
            ],
            rows,
        )
    )
    print()
    print(f"p50 / p99 ms per kind, how many took {P99_GOAL_MS:g} ms or more (slow), and its failures:")
    print(table(["kind", *[f"{r.rate}/s" for r in results]], per_kind(results)))
    print()
    best = max(held, default=None)
    verdict = f"{best}/s" if best is not None else f"none of {args.rates}/s"
    print(f"highest offered rate held with p99 < {P99_GOAL_MS:g} ms and no failures: {verdict}")
    if "table" in parse_mix(args.mix):
        rest = [r.rate for r in results if held_without(r, "table")]
        print(
            "  the same, leaving /odds table (the largest reply) out of the p99: "
            + (f"{max(rest)}/s" if rest else "none")
        )
    if logged:
        print(f"bot log lines at WARNING and above: {dict(logged)} (see its log for details)")
    broken = sum(d.broken for d in load.duels)
    if broken:
        print(f"{broken} Conflict(s) stopped cycling after refused moves")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load_bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rates",
        default="50,100,200,500,1000",
        help="offered rates, interactions/s (default 50,100,200,500,1000)",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per rate (default 10)")
    parser.add_argument("--guilds", type=int, default=100, help="simulated servers (default 100)")
    parser.add_argument("--conflicts", type=int, default=20, help="servers with a live Conflict (default 20)")
    parser.add_argument("--mix", default=DEFAULT_MIX, help=f"weights per kind (default {DEFAULT_MIX})")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--crowd",
        type=int,
        default=0,
        help="extra sheets in the first server, where the mix's `list` kind runs /character list (default 0)",
    )
    parser.add_argument(
        "--floor",
        nargs="?",
        const="bare",
        choices=sorted(FLOORS),
        help="answer with a floor instead of our bot: bare (discord.py alone, a fixed embed), tree "
        "(our bot's tree, each handler answering at once) or logged (tree, plus a roll's write)",
    )
    parser.add_argument(
        "--openapi",
        action="store_true",
        help="hold REST bodies against Discord's OpenAPI description, as tests do (costs the fake CPU)",
    )
    args = parser.parse_args()
    if args.seconds <= 0 or args.seconds > 120:
        parser.error("--seconds must be in (0, 120]")
    event_loop.run(run(args))


if __name__ == "__main__":
    main()
