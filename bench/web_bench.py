"""A bystander's roll in one server while the web view builds another server's page of 2,000 sheets.

Run by hand: ``python -m bench.web_bench`` (about 2 minutes a tree), and ``--compare ../other-checkout``
to run the bot of another source tree in turn with this one's, in the same run. The bot runs in
a process of its own (``fake_discord.process.BotProcess``) serving its web view, so what is
timed is the bot's own event loop; the fake Discord, the pages and the bystander are here.

Server A holds 2,000 full sheets (2 MB of page data for a Narrator); a third are Heroes of
player1 and player2. After a first look (/data, as below, just after the bot started: the
first reads and builds), three phases of
``--seconds`` each: quiet; the changes alone, where the Narrator changes one sheet of server A
``--changes`` times a second; and /data, the changes while ``--pages`` Narrator sessions and
``--players`` players' sessions fetch ``/data`` as fast as the view lets them (its 429s'
``Retry-After`` obeyed): every change makes every open page fetch again, Narrators sharing
one build and each player's page its own. Meanwhile player1 of server B rolls ``/roll`` on a
fixed schedule, ``--rolls`` a second; each roll's latency is the fake's clock from sending
INTERACTION_CREATE to the bot's answer. Prints each phase's median, p99 and max, the rolls
refused as busy, and the bot process's CPU (all its threads) per page served."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bench.common import SHEET, Payloads, machine, member_id, percentile, quiet_logs, seed_table, table
from bench.load_results import ProcessClock
from bot.admission import BUSY
from bot.web.tokens import link_grant, sign
from fake_discord.backend import Limits
from fake_discord.process import BotProcess, settle_remote
from fake_discord.records import InteractionRecord, clock
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeGuild, World, many_guilds_world
from rules.character import CharacterKind, make_character
from storage import Storage
from testbed.pg_server import free_port

SHEETS = 2000
SECRET = "bench-only-web-secret-of-at-least-32-bytes"
KINDS = [CharacterKind.VILLAIN, CharacterKind.EXTRA, CharacterKind.HERO]
PHASES = [("quiet", False, False), ("changes alone", False, True), ("/data", True, True)]
"""Each phase's name, whether the pages fetch, and whether server A's sheets change."""


async def crowd(storage: Storage, guild: FakeGuild, count: int) -> None:
    """``count`` full sheets in ``guild`` (past the bot's own cap: written straight to storage):
    Villains and Extras groups of the Narrator's, and Heroes of player1's and player2's."""
    owners = {
        CharacterKind.VILLAIN: [member_id(guild, "narrator")],
        CharacterKind.EXTRA: [member_id(guild, "narrator")],
        CharacterKind.HERO: [member_id(guild, "player1"), member_id(guild, "player2")],
    }
    async with storage.transaction() as tx:
        for number in range(count):
            kind = KINDS[number % len(KINDS)]
            extra = kind is CharacterKind.EXTRA
            group = {"size": 6, "members_down": 3, "destiny": ""} if extra else {}
            sheet = make_character(
                SHEET | group,
                name=f"Crowd {number:05d}",
                kind=kind,
                owner_id=owners[kind][number % len(owners[kind])],
            )
            await tx.characters.create(guild.id, sheet)


@dataclass
class Phase:
    latencies: list[float] = field(default_factory=list)
    late: int = 0
    busy: int = 0
    changes: int = 0
    pages: int = 0
    refused: int = 0
    page_bytes: int = 0
    bot_cpu: float = 0.0

    def row(self, tree: str, name: str, seconds: float) -> list[str]:
        ms = [1000 * x for x in self.latencies]
        median = statistics.median(ms) if ms else float("nan")
        return [
            tree,
            name,
            str(len(ms)),
            f"{median:.1f}",
            f"{percentile(ms, 99):.1f}",
            f"{max(ms, default=float('nan')):.1f}",
            f"{self.late} / {self.busy}",
            f"{self.changes}",
            f"{self.pages} ({self.refused} × 429)",
            f"{self.page_bytes / max(1, self.pages) / 1e6:.2f}",
            f"{100 * self.bot_cpu / seconds:.0f}%",
            f"{1000 * self.bot_cpu / self.pages:.0f}" if self.pages else "",
        ]


class Bench:
    """One bot process (of one source tree) on the fake, with its pages and its bystander."""

    def __init__(self, fake: FakeDiscord, db_path: Path, tree: str, log_path: Path) -> None:
        self.fake = fake
        self.port = free_port()
        env = {"MISTBORN_WEB_PORT": str(self.port), "MISTBORN_WEB_SECRET": SECRET}
        if tree != ".":  # that tree's packages, not the working directory's (which -m puts first)
            env |= {"PYTHONPATH": str(Path(tree).resolve()), "PYTHONSAFEPATH": "1"}
        self.process = BotProcess(fake, db_path, log_path=log_path, env=env)
        self.payloads = Payloads(fake)
        self.crowded = fake.world.guilds[0]
        self.changed: list[InteractionRecord] = []

    async def start(self) -> None:
        """Start the bot, then build the payloads from the commands it synced."""
        await self.process.start(timeout=120)
        crowded, bystander = self.fake.world.guilds[0], self.fake.world.guilds[1]
        self.roll = self.payloads.slash(
            "/roll dice:5 difficulty:2", self.payloads.actor(bystander, "player1")
        )
        narrator = self.payloads.actor(crowded, "narrator")
        self.changes = [
            self.payloads.slash(f"/edit text field:notes value:Change {n} name:Crowd 00000", narrator)
            for n in range(2)
        ]

    async def session(self, http: aiohttp.ClientSession, user: str) -> str:
        """``user``'s session of server A in ``http``'s cookie jar; returns the data's URL."""
        guild = self.crowded
        narrator = user == "narrator"
        grant = link_grant(
            guild.id,
            member_id(guild, user),
            narrator=narrator,
            manages_server=narrator,
            narrator_roles=(),
            now=time.time(),
            generation=0,
            channel_id=guild.channels[0].id,
        )
        base = f"http://127.0.0.1:{self.port}"
        async with http.get(f"{base}/login", params={"t": sign(grant, SECRET.encode())}) as response:
            assert response.status == 200, await response.text()
        return f"{base}/g/{guild.id}/data"

    async def fetching(
        self, url: str, http: aiohttp.ClientSession, phase: Phase, stop: asyncio.Event
    ) -> None:
        while not stop.is_set():
            async with http.get(url) as response:
                body = await response.read()
                if response.status == 429:
                    phase.refused += 1
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), float(response.headers["Retry-After"]))
                    continue
                assert response.status == 200, body[:200]
                phase.pages += 1
                phase.page_bytes += len(body)

    async def changing(self, per_second: float, stop: asyncio.Event) -> None:
        for n in itertools.count():
            if stop.is_set():
                return
            record = await self.fake.send_interaction(self.payloads.fresh(self.changes[n % 2]))
            self.changed.append(record)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1 / per_second)

    async def rolls(self, per_second: float, seconds: float) -> list[InteractionRecord]:
        sent = []
        start = clock() + 0.01
        for i in range(int(per_second * seconds)):
            delay = start + i / per_second - clock()
            if delay > 0:
                await asyncio.sleep(delay)
            sent.append(await self.fake.send_interaction(self.payloads.fresh(self.roll)))
        for record in sent:
            await record.wait_response(3.5)
        return sent

    async def phase(self, args: argparse.Namespace, *, pages: bool, changes: bool) -> Phase:
        assert self.process.proc is not None
        phase, stop = Phase(), asyncio.Event()
        cpu = ProcessClock(self.process.proc.pid)
        async with contextlib.AsyncExitStack() as stack:
            load = []
            users = ["narrator"] * args.pages + ["player1", "player2"] * (args.players // 2)
            for user in users if pages else []:
                jar = aiohttp.CookieJar(unsafe=True)  # the view is on 127.0.0.1
                http = await stack.enter_async_context(aiohttp.ClientSession(cookie_jar=jar))
                url = await self.session(http, user)
                load.append(asyncio.create_task(self.fetching(url, http, phase, stop)))
            if changes:
                load.append(asyncio.create_task(self.changing(args.changes, stop)))
            await asyncio.sleep(0.5)  # the load is under way before the first roll
            before = cpu.seconds()
            sent = await self.rolls(args.rolls, args.seconds)
            phase.bot_cpu = cpu.seconds() - before
            stop.set()
            await asyncio.gather(*load)
        for record in sent:
            if record.ack_latency is None:
                phase.late += 1
            elif BUSY in record.text:
                phase.busy += 1
            else:
                phase.latencies.append(record.ack_latency)
        await settle_remote(sent[-1])
        for record in self.changed:
            await record.wait_response(3.5)
        phase.changes = sum("**Notes:** Change" in r.text for r in self.changed)
        self.changed = []
        return phase


async def run(args: argparse.Namespace) -> list[list[str]]:
    quiet_logs()
    world: World = many_guilds_world(2)
    rows: list[list[str]] = []
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "web.sqlite3"
        async with await Storage.open(db_path) as storage:
            await crowd(storage, world.guilds[0], args.sheets)
            await seed_table(storage, world.guilds[1])
        fake = FakeDiscord(world, limits=Limits(openapi=False))
        await fake.start()
        try:
            for round_number in range(args.rounds):
                for tree in args.trees:
                    bench = Bench(fake, db_path, tree, Path(folder) / "bot.log")
                    await bench.start()
                    try:
                        first = await bench.phase(
                            args, pages=True, changes=True
                        )  # the first reads and builds
                        rows.append(first.row(tree, f"/data, first look ({round_number + 1})", args.seconds))
                        for name, pages, changes in PHASES:
                            phase = await bench.phase(args, pages=pages, changes=changes)
                            rows.append(phase.row(tree, f"{name} ({round_number + 1})", args.seconds))
                    finally:
                        await bench.process.stop()
        finally:
            await fake.stop()
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.web_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=SHEETS, help=f"sheets in server A (default {SHEETS})")
    parser.add_argument("--pages", type=int, default=8, help="Narrator pages fetching /data (default 8)")
    parser.add_argument(
        "--players", type=int, default=4, help="players' pages fetching /data, each its own build (default 4)"
    )
    parser.add_argument("--changes", type=float, default=8.0, help="sheet changes per second (default 8)")
    parser.add_argument("--rolls", type=float, default=10.0, help="bystander rolls per second (default 10)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per phase (default 10)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds over every tree (default 1)")
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="TREE",
        help="also run the bot of this source tree (e.g. a checkout of main beside this one), in turn",
    )
    args = parser.parse_args(argv)
    args.trees = [*args.compare, "."]
    box = machine()
    rows = asyncio.run(run(args))
    print(
        f"web_bench: server A of {args.sheets:,} sheets, {args.pages} Narrator and {args.players} players' "
        f"pages fetching /data, {args.changes:g} changes/s; server B's player rolling {args.rolls:g}/s, "
        f"{args.seconds:g} s a phase"
    )
    print(f"(the bot in its own process, SQLite; the fake Discord and the pages in this one; {box})")
    headers = [
        "tree",
        "phase",
        "rolls",
        "p50 ms",
        "p99 ms",
        "max ms",
        "late / busy",
        "changes",
        "pages",
        "MB/page",
        "bot CPU",
        "bot CPU ms/page",
    ]
    print(table(headers, rows))


if __name__ == "__main__":
    main()
