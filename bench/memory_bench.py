"""Start-up time and resident memory of the bot with a large database.

Run by hand: ``python -m bench.memory_bench`` (10^4 characters and 100 live Conflicts; about
30 s on 2 cores). ``--characters``, ``--guilds`` and ``--runs`` change the sizes.

1. Build a real SQLite file in a temp dir, through the bot itself against the fake Discord:
   the characters spread evenly over ``--guilds`` servers (every server: player1's Hero "Vin",
   the Narrator's "Thug" and the rest Villains, a third of them full sheets), and one live
   Conflict per server with four participants — half still declaring, half mid-round (all
   declared, the first attack waiting for its defence).
2. ``--runs`` times: start the fake Discord in this process and the bot in a NEW process
   (``python -m bench.memory_child ...``: the product ``MistbornBot`` only, pointed at
   the fake on 127.0.0.1), and time process start → imports done → database open → ready with
   its commands synced. The child reports its RSS (VmRSS, and the peak VmHWM, from
   /proc/self/status) after imports, after opening the database, when ready, and after this
   process has touched every Conflict once (``/conflict status`` in each channel, waiting for
   each board to be posted, which loads the Conflict and its sheets).

The fake Discord runs in this (parent) process, so the memory figures are the bot's alone.
discord.py's ``guild_ready_timeout`` is set to 0.05 s as in the tests (its default 2 s wait
after the last GUILD_CREATE would otherwise be most of the start-up).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import SHEET, Payloads, machine, member_id, quiesce, quiet_logs, running, table
from bot.cogs.conflict.transaction import start_conflict
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeGuild, World, many_guilds_world
from rules.character import CharacterKind, make_character
from rules.conflict import Join, current_turn, next_declarer
from storage import Storage
from storage.conflict_moves import current_conflict

PARTICIPANTS = ("Vin", "Thug", "Slowpoke", "Brute")


# -- Building the database ----------------------------------------------------------------------


def random_name(rng: random.Random) -> str:
    first = rng.choice(string.ascii_uppercase) + "".join(
        rng.choices(string.ascii_lowercase, k=rng.randint(3, 8))
    )
    return f"{first} {rng.choice(string.ascii_uppercase)}{rng.randint(1, 999_999)}"


async def seed_guild(storage: Storage, guild: FakeGuild, count: int, rng: random.Random) -> None:
    narrator, player = member_id(guild, "narrator"), member_id(guild, "player1")
    fixed = [
        make_character(SHEET, name="Vin", kind=CharacterKind.HERO, owner_id=player),
        make_character(
            name="Thug", kind=CharacterKind.VILLAIN, owner_id=narrator, attributes={"physique": 5}
        ),
        make_character(
            name="Slowpoke", kind=CharacterKind.VILLAIN, owner_id=narrator, attributes={"wits": 1}
        ),
        make_character(
            name="Brute", kind=CharacterKind.VILLAIN, owner_id=narrator, attributes={"physique": 4, "wits": 3}
        ),
    ]
    names: set[str] = set()
    while len(names) < max(0, count - len(fixed)):
        names.add(random_name(rng))
    async with storage.transaction() as tx:
        for character in fixed:
            stored = await tx.characters.create(guild.id, character)
            if character.name == "Vin":
                await tx.active.set(guild.id, player, stored.id)
        for i, name in enumerate(sorted(names)):
            extra = SHEET if i % 3 == 0 else {}
            await tx.characters.create(
                guild.id, make_character(extra, name=name, kind=CharacterKind.VILLAIN, owner_id=narrator)
            )


async def build(db_path: Path, world: World, characters: int) -> tuple[float, int]:
    """Seed the database and bring every Conflict to its state; returns (seconds, interactions)."""
    started = time.perf_counter()
    rng = random.Random(5)
    per_guild = characters // len(world.guilds)
    sent = 0
    async with running(world, db_path) as (harness, storage):
        fake = harness.fake
        payloads = Payloads(fake)
        for number, guild in enumerate(world.guilds):
            await seed_guild(
                storage, guild, per_guild + (1 if number < characters % len(world.guilds) else 0), rng
            )
            channel = guild.channels[-1]
            ids = [(await storage.characters.get_by_name(guild.id, name)).id for name in PARTICIPANTS]
            await start_conflict(
                storage,
                guild.id,
                channel.id,
                "physical",
                "Hold the bridge",
                joins=tuple(Join(character_id=i) for i in ids),
                begin=True,
            )
            if number % 2:
                continue  # still declaring
            while True:  # declare in the rules' order, then the first attack: mid-round
                state = await current_conflict(storage, guild.id, channel.id)
                assert state is not None
                declarer = next_declarer(state)
                if declarer is not None:
                    name = state.name_of(declarer.id)
                    user = "player1" if name == "Vin" else "narrator"
                    target = "Thug" if name == "Vin" else "Vin"
                    line = f"/declare who:{name} action:attack target:{target} stat:Physique"
                else:
                    turn = current_turn(state)
                    if not turn:
                        break
                    name = state.name_of(turn[0])
                    user = "player1" if name == "Vin" else "narrator"
                    line = f"/act who:{name} dice:2"
                record = await fake.send_interaction(
                    payloads.fresh(payloads.slash(line, payloads.actor(guild, user, channel)))
                )
                await quiesce(harness.bot, record)
                sent += 1
                if record.errors or record.ephemeral:
                    raise RuntimeError(f"setup move {line!r} refused: {record.errors or record.content}")
                if line.startswith("/act"):
                    break
    return time.perf_counter() - started, sent


# -- The measured bot process -------------------------------------------------------------------


class Child:
    """The bot process as seen from here: spawn it, read its events, ask for RSS, stop it."""

    def __init__(self, process: asyncio.subprocess.Process, spawned: float) -> None:
        self.process = process
        self.spawned = spawned
        self.events: dict[str, dict[str, Any]] = {}

    @classmethod
    async def spawn(cls, db_path: Path, fake: FakeDiscord, guild_id: int) -> Child:
        spawned = time.time()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.memory_child", "--db", str(db_path),
            "--api", fake.api_base, "--gateway", fake.gateway_url, "--guild", str(guild_id),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
        return cls(process, spawned)

    async def expect(self, event: str, timeout: float = 60.0) -> dict[str, Any]:
        assert self.process.stdout is not None
        async with asyncio.timeout(timeout):
            while True:
                line = await self.process.stdout.readline()
                if not line:
                    raise RuntimeError(f"the bot process exited before {event!r}")
                found = json.loads(line)
                self.events[found["event"]] = found
                if found["event"] == event:
                    return dict(found)

    async def ask(self, event: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{event}\n".encode())
        await self.process.stdin.drain()
        return await self.expect(event)

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"quit\n")
        await self.process.stdin.drain()
        try:
            await asyncio.wait_for(self.process.wait(), 15)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def at(self, event: str) -> float:
        return float(self.events[event]["t"]) - self.spawned


async def touch_all(fake: FakeDiscord, world: World) -> tuple[int, float]:
    """``/conflict status`` in every Conflict channel; wait for each board. Returns (boards, s)."""
    payloads = Payloads(fake)
    started = time.perf_counter()
    before = sum(1 for m in fake.messages.values() if not m.get("interaction_metadata"))
    for guild in world.guilds:
        actor = payloads.actor(guild, "narrator", guild.channels[-1])
        record = await fake.send_interaction(payloads.fresh(payloads.slash("/conflict status", actor)))
        if not await record.wait_response(3.5) or record.errors:
            raise RuntimeError(f"/conflict status failed in {guild.name}: {record.errors}")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    boards = 0
    while loop.time() < deadline:
        boards = sum(1 for m in fake.messages.values() if not m.get("interaction_metadata")) - before
        if boards >= len(world.guilds):
            break
        await asyncio.sleep(0.05)
    return boards, time.perf_counter() - started


async def measure(db_path: Path, world: World) -> dict[str, float]:
    fake = FakeDiscord(world)
    await fake.start()
    try:
        child = await Child.spawn(db_path, fake, world.guild.id)
        try:
            await child.expect("imported")
            await child.expect("storage")
            ready = await child.expect("ready")
            if not fake.commands.synced.is_set():
                raise RuntimeError("ready without commands synced")
            boards, touch_s = await touch_all(fake, world)
            touched = await child.ask("touched")
        finally:
            await child.stop()
    finally:
        await fake.stop()
    mib = 1 / 1024
    return {
        "imports s": child.at("imported"),
        "storage s": child.at("storage"),
        "ready s": child.at("ready"),
        "guilds": float(ready["guilds"]),
        "rss imports": child.events["imported"]["VmRSS"] * mib,
        "rss storage": child.events["storage"]["VmRSS"] * mib,
        "rss ready": ready["VmRSS"] * mib,
        "rss touched": touched["VmRSS"] * mib,
        "hwm touched": touched["VmHWM"] * mib,
        "boards": float(boards),
        "touch s": touch_s,
    }


async def run(args: argparse.Namespace) -> None:
    quiet_logs()
    load = machine()
    world = many_guilds_world(args.guilds, channels=2)
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "memory.sqlite3"
        took, moves = await build(db_path, world, args.characters)
        size = sum(f.stat().st_size for f in Path(folder).iterdir()) / 2**20
        runs = [await measure(db_path, world) for _ in range(args.runs)]
    mid = (args.guilds + 1) // 2
    each = args.characters // args.guilds
    print(
        f"memory: {args.characters} characters over {args.guilds} servers ({each} each), "
        f"{args.guilds} live Conflicts of 4 (declaring: {args.guilds - mid}, mid-round: {mid}); "
        f"SQLite {size:.1f} MiB (with WAL), built in {took:.1f} s with {moves} setup moves"
    )
    print(
        "bot in its own process (product MistbornBot, guild_ready_timeout 0.05 s), fake Discord in the "
        f"parent on 127.0.0.1; median of {args.runs} start(s); {load}"
    )
    print()

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    rows = [
        [
            "imports done (discord.py, bot, storage)",
            f"{med('imports s'):.2f} s",
            f"{med('rss imports'):.1f} MiB",
        ],
        ["database open (migrations checked)", f"{med('storage s'):.2f} s", f"{med('rss storage'):.1f} MiB"],
        [
            f"ready: logged in, {int(med('guilds'))} GUILD_CREATEs, commands synced",
            f"{med('ready s'):.2f} s",
            f"{med('rss ready'):.1f} MiB",
        ],
        [
            f"after touching every Conflict once ({int(med('boards'))} boards in {med('touch s'):.1f} s)",
            "",
            f"{med('rss touched'):.1f} MiB (peak {med('hwm touched'):.1f})",
        ],
    ]
    print(table(["bot process, from process start", "time", "RSS"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=10_000, help="characters in total (default 10^4)")
    parser.add_argument(
        "--guilds", type=int, default=100, help="servers, one live Conflict each (default 100)"
    )
    parser.add_argument("--runs", type=int, default=3, help="bot starts to measure (default 3)")
    args = parser.parse_args()
    if args.characters < 4 * args.guilds:
        parser.error("need at least 4 characters per server (the Conflict's participants)")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
