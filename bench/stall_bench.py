"""The longest the event loop stalls on any member's input: the worst inputs known, timed.

Run by hand: ``python -m bench.stall_bench`` (about a minute). A real bot on the fake Discord, a
table of three sheets in a running Conflict, and a long night ended (``testbed.stalls.long_night``);
every input of ``testbed.stalls`` is sent once to warm up and then ``--repeat`` times, each timed
by :class:`~testbed.stalls.StallMeter` (the longest step the loop ran while the interaction was
handled: CPU time of the loop's thread, and wall time; and the loop's wall-clock lag, which also
sees another thread holding the interpreter's lock). Prints each input's worst, and the longest
of all: what one member's input can make every other server wait. The test holding it under
50 ms is ``tests/bot/test_loop_stalls.py``.

Then the pictures built to be costly (``testbed.hostile_images``), each sent by two members at
once while, in another server, one member rolls and another sends an ordinary 64×64 portrait
(``testbed.stalls.beside_hostile``): the loop's worst wall-clock lag meanwhile, and how long
that server's two interactions took. The goal: none past 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
from pathlib import Path

from bot.cogs.conflict.transaction import start_conflict
from bot.cogs.say import TEXT_MAX as SAY_MAX
from fake_discord.world import FakeGuild, add_table_guild, default_world
from rules.character import CharacterKind, make_character
from rules.conflict import Join
from storage.journal import TITLE_MAX
from storage.places import Origin
from testbed.bot_env import BotEnv, running_bot_env
from testbed.hostile_images import hostile_images, ordinary_png
from testbed.stalls import (
    CRAFTED_FILES,
    WIDE,
    Beside,
    Stall,
    StallMeter,
    beside_hostile,
    long_night,
    name_lists,
    portrait_images,
    seat_neighbours,
    widest,
)

TABLE = [("Vin", "player1", CharacterKind.HERO), ("Elend", "player2", CharacterKind.HERO)]
TABLE += [("Straff", "narrator", CharacterKind.VILLAIN)]
BURDENS = [{"name": "Cracked rib", "severity": "serious"}]
GOAL = 0.250
"""Seconds another server may wait, at most, while hostile pictures are read."""


async def seed(env: BotEnv) -> None:
    await env.bot.catch_up.done.wait()
    joins = []
    for name, owner, kind in TABLE:
        sheet = make_character(name=name, kind=kind, owner_id=env.user_id(owner), burdens=BURDENS)
        stored = await env.storage.characters.create(env.guild_id, sheet)
        await env.storage.active.set(env.guild_id, env.user_id(owner), stored.id)
        joins.append(Join(character_id=stored.id))
    channel = env.world.guild.channels[0].id
    await start_conflict(env.storage, env.guild_id, channel, "physical", "The alley", joins)
    await env.harness.slash(f'/session start title:"{widest(TITLE_MAX)}"', user="narrator")
    session = await env.storage.journal.open_in(env.guild_id, channel)
    assert session is not None
    await env.storage.journal.add(env.guild_id, Origin(channel_id=channel), long_night(session.started_at))
    warned = await env.harness.slash("/session end", user="narrator")  # the Conflict still runs:
    await env.harness.click("End the session anyway", message=warned.message, user="narrator")


def inputs(folder: Path) -> list[tuple[str, str, str]]:
    """(what, user, command line) for every crafted input."""
    found = []
    for shape, value in name_lists(1800).items():
        found.append((f"/conflict order names: {shape} ×1800", "narrator", f"/conflict order names:{value}"))
    for shape, value in name_lists(1000).items():
        line = f"/request roll stat:Physique heroes:{value}"
        found.append((f"/request roll heroes: {shape} ×1000", "narrator", line))
    for shape, value in name_lists(400).items():
        line = f"/declare action:attack target:Straff burdens:{value}"
        found.append((f"/declare burdens: {shape} ×400", "player1", line))
    for name, make in CRAFTED_FILES.items():
        path = folder / f"{name.replace(' ', '-')}.json"
        path.write_bytes(make())
        found.append((f"/character import {name}", "player1", f"/character import file:{path}"))
    for name, data in portrait_images().items():
        path = folder / f"portrait-{len(found)}"
        path.write_bytes(data)
        found.append((f"/character portrait {name}", "player1", f'/character portrait image:"{path}"'))
    for user in ("narrator", "player1"):
        for line in ("/session recap", "/session journal"):
            found.append((f"{line} of 6,000 entries of 1,000 emoji ({user})", user, line))
    found.append(("/say 2,000 emoji", "player1", f'/say text:"{WIDE * SAY_MAX}"'))
    return found


async def measure(env: BotEnv, meter: StallMeter, user: str, line: str) -> Stall:
    gc.collect()
    gc.freeze()
    await asyncio.sleep(0)  # the step that collected ends here, before the meter starts
    meter.reset()
    try:
        await env.harness.slash(line, user=user)
        await env.bot.conflicts.idle()
        return meter.reset()
    finally:
        gc.unfreeze()


async def run(repeat: int, parts: set[str]) -> tuple[dict[str, Stall], dict[str, Beside]]:
    worst: dict[str, Stall] = {}
    beside: dict[str, Beside] = {}
    world = default_world()
    other = add_table_guild(world, "Another Table")
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot_env(Path(folder) / "bot.sqlite3", world, sync_global=True) as env:
            env.bot.settings.costly_per_minute = 0
            env.bot.portrait_reader.turns.per_minute = 0
            env.harness.settle_timeout = 600.0  # a picture read with no limit takes minutes
            await seed(env)
            await seat_neighbours(env, other)
            cases = inputs(Path(folder)) if "inputs" in parts else []
            with StallMeter().measuring() as meter:
                await env.harness.slash("/conflict order names:Vin, Elend, Straff", user="narrator")
                for _, user, line in cases:  # warm up: first calls' one-time costs
                    await measure(env, meter, user, line)
                for _ in range(repeat):
                    for what, user, line in cases:
                        stall = await measure(env, meter, user, line)
                        if stall.cpu >= worst.get(what, Stall()).cpu:
                            worst[what] = stall
                if "pictures" in parts:
                    beside = await pictures(env, meter, other, Path(folder))
    return worst, beside


async def pictures(env: BotEnv, meter: StallMeter, other: FakeGuild, folder: Path) -> dict[str, Beside]:
    """:func:`~testbed.stalls.beside_hostile` with no picture (what the machine costs by itself),
    then with each hostile picture; after one ordinary portrait (the first picture since the
    start starts the children kept ahead)."""
    warm = folder / "warm.png"
    warm.write_bytes(ordinary_png())
    await env.slash(f'/character portrait image:"{warm}"', user="player1")
    cases: dict[str, bytes | None] = {"none (the other server alone)": None, **hostile_images()}
    return {what: await beside_hostile(env, meter, other, data, folder) for what, data in cases.items()}


def report_inputs(worst: dict[str, Stall], repeat: int) -> None:
    print(f"{'CPU ms':>7} {'wall ms':>8} {'lag ms':>7}  input (its longest loop step, of {repeat} rounds)")
    for what, stall in sorted(worst.items(), key=lambda item: -item[1].cpu):
        times = f"{stall.cpu * 1000:7.1f} {stall.wall * 1000:8.1f} {stall.lag * 1000:7.1f}"
        print(f"{times}  {what}  {stall.step[:99]}")
    top = max(worst.values(), key=lambda s: s.cpu)
    lag = max(s.lag for s in worst.values())
    figure = (
        f"{top.cpu * 1000:.1f} ms CPU ({top.wall * 1000:.1f} ms wall); loop lag at most {lag * 1000:.1f} ms"
    )
    print(f"Longest loop stall any member's input caused: {figure}")


def report_pictures(beside: dict[str, Beside]) -> None:
    print(
        "\nTwo members send each picture at once; meanwhile another server rolls and sends a 64×64 portrait."
    )
    print(
        f"{'lag ms':>7} {'roll ms':>8} {'portrait ms':>12} {'first':>6}  picture: each one's seconds, answer"
    )
    for what, found in beside.items():
        answers = "; ".join(f"{took:.1f} s {answer!r}" for took, answer in found.hostile)
        first = "yes" if found.portrait_first else "no"
        times = f"{found.lag * 1000:7.0f} {found.roll * 1000:8.0f} {found.portrait * 1000:12.0f} {first:>6}"
        print(f"{times}  {what}: {answers}")
    longest = max(max(b.lag, b.roll, b.portrait) for b in beside.values() if b.hostile)
    verdict = "met" if longest <= GOAL else "missed"
    print(
        f"Longest another server waited while hostile pictures were read: {longest * 1000:.0f} ms "
        f"(goal {GOAL * 1000:.0f} ms: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stall_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds over every input (default 3)")
    parser.add_argument(
        "--part", choices=("inputs", "pictures"), action="append", help="only these parts (default: both)"
    )
    args = parser.parse_args()
    worst, beside = asyncio.run(run(args.repeat, set(args.part or ("inputs", "pictures"))))
    if worst:
        report_inputs(worst, args.repeat)
    if beside:
        report_pictures(beside)


if __name__ == "__main__":
    main()
