"""The longest the event loop stalls on any member's input: the worst inputs known, timed.

Run by hand: ``python -m bench.stall_bench`` (about 25 s). A real bot on the fake Discord, a
table of three sheets in a running Conflict, and a long night ended (``testbed.stalls.long_night``);
every input of ``testbed.stalls`` is sent once to warm up and then ``--repeat`` times, each timed
by :class:`~testbed.stalls.StallMeter` (the longest step the loop ran while the interaction was
handled: CPU time of the loop's thread, and wall time). Prints each input's worst, and the
longest of all: what one member's input can make every other server wait. The test holding it
under 50 ms is ``tests/bot/test_loop_stalls.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
from pathlib import Path

from bot.cogs.say import TEXT_MAX as SAY_MAX
from bot.moves.transaction import start_conflict
from fake_discord.world import default_world
from rules.character import CharacterKind, make_character
from rules.conflict import Join
from storage.journal import TITLE_MAX
from storage.places import Origin
from testbed.bot_env import BotEnv, running_bot_env
from testbed.stalls import (
    CRAFTED_FILES,
    WIDE,
    Stall,
    StallMeter,
    long_night,
    name_lists,
    portrait_images,
    widest,
)

TABLE = [("Vin", "player1", CharacterKind.HERO), ("Elend", "player2", CharacterKind.HERO)]
TABLE += [("Straff", "narrator", CharacterKind.VILLAIN)]
BURDENS = [{"name": "Cracked rib", "severity": "serious"}]


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


async def run(repeat: int) -> dict[str, Stall]:
    worst: dict[str, Stall] = {}
    with tempfile.TemporaryDirectory() as folder:
        async with running_bot_env(Path(folder) / "bot.sqlite3", default_world()) as env:
            env.bot.settings.costly_per_minute = 0
            await seed(env)
            cases = inputs(Path(folder))
            with StallMeter().measuring() as meter:
                await env.harness.slash("/conflict order names:Vin, Elend, Straff", user="narrator")
                for _, user, line in cases:  # warm up: first calls' one-time costs
                    await measure(env, meter, user, line)
                for _ in range(repeat):
                    for what, user, line in cases:
                        stall = await measure(env, meter, user, line)
                        if stall.cpu >= worst.get(what, Stall()).cpu:
                            worst[what] = stall
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stall_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds over every input (default 3)")
    args = parser.parse_args()
    worst = asyncio.run(run(args.repeat))
    print(f"{'CPU ms':>7} {'wall ms':>8}  input (the longest loop step it caused, of {args.repeat} rounds)")
    for what, stall in sorted(worst.items(), key=lambda item: -item[1].cpu):
        print(f"{stall.cpu * 1000:7.1f} {stall.wall * 1000:8.1f}  {what}  {stall.step[:150]}")
    top = max(worst.values(), key=lambda s: s.cpu)
    figure = f"{top.cpu * 1000:.1f} ms CPU ({top.wall * 1000:.1f} ms wall)"
    print(f"Longest loop stall any member's input caused: {figure}")


if __name__ == "__main__":
    main()
