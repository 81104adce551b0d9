"""Shared setup for the benchmarks that drive the real bot through the fake Discord.

Everything runs in ONE process and ONE event loop, as the test harness does: the fake Discord
(aiohttp REST + websocket gateway on 127.0.0.1), discord.py's client, the bot and SQLite (through
aiosqlite's thread). Latency is the fake's own clock: from the moment it hands INTERACTION_CREATE
to the gateway socket to the moment the bot's initial interaction callback reaches its REST
route (``InteractionRecord.ack_latency``).

The floor is a ``/ping`` command added to the tree *in the benchmark only* (:class:`BenchBot`):
a bare handler that answers "pong" through exactly the same path, so ``p50 / p50(ping)`` is the
cost of the bot's own work relative to what discord.py and the loopback transport cost anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import statistics
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from discord.ext import commands

from bench.diagnostics import ping, ping_embed, ping_file, ping_logged, ping_moved
from bot.app import MistbornBot
from bot.cogs.conflict.transaction import start_conflict
from bot.config import Settings
from fake_discord import payloads
from fake_discord.backend import Limits
from fake_discord.commandline import parse_slash
from fake_discord.harness import Harness, running_bot
from fake_discord.payloads import Actor
from fake_discord.records import InteractionRecord, handler_tasks
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeChannel, FakeGuild, FakeMember, World
from rules.character import CharacterKind, make_character
from rules.conflict import Join
from storage import Storage

JSON = dict[str, Any]


def in_process(driver: str) -> str:
    """The one-process caveat every figure carries."""
    return (
        f"bot, discord.py client, fake Discord (REST + gateway on 127.0.0.1) and {driver} share "
        "one process and one event loop; SQLite's writer and lookups on the loop's thread"
    )


def machine() -> str:
    """CPUs and the load average when the run started: other work on the box skews the tails."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return f"{os.cpu_count()} CPUs, load average {load:.2f} at start"


class BenchBot(MistbornBot):
    """The product bot plus ``/ping`` (and the diagnostics ``/ping-embed``, ``/ping-file``,
    ``/ping-logged`` and ``/ping-moved``, ``bench.diagnostics``), added before the product's own
    sync so they are synced too.

    Its background REST calls keep the global pace but not the pace per channel: a benchmark
    waits for each move's board edit before the next sample, and would otherwise spend most of
    its time waiting out the 0.2 s between two edits of one channel's board.
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.pacer.interval = 0.0

    async def setup_hook(self) -> None:
        self.tree.add_command(ping)
        self.tree.add_command(ping_embed)
        self.tree.add_command(ping_file)
        self.tree.add_command(ping_logged)
        self.tree.add_command(ping_moved)
        await super().setup_hook()


def bench_settings(db_path: Path, dev_guild_id: int) -> Settings:
    # The benchmarks measure capacity, not abuse: one simulated member may call /odds table
    # hundreds of times a minute.
    return Settings(
        token=None, db_path=db_path, dev_guild_id=dev_guild_id, costly_per_minute=0, _env_file=None
    )


@contextlib.asynccontextmanager
async def running(
    world: World, db_path: Path, *, seed: int = 1234, storage: Storage | None = None, openapi: bool = False
) -> AsyncIterator[tuple[Harness, Storage]]:
    """Open the database (unless given), connect a BenchBot to a fresh fake; close both after.

    The fake holds bodies against Discord's description only when ``openapi`` is set: it runs in
    the bench's own process, so its checking would be timed as the bot's work."""
    opened = storage is None
    store = storage if storage is not None else await Storage.open(db_path)
    try:

        def make_bot() -> BenchBot:
            settings = bench_settings(db_path, world.guild.id)
            return BenchBot(settings=settings, storage=store, rng=random.Random(seed))

        async with running_bot(make_bot, world=world, limits=Limits(openapi=openapi)) as harness:
            yield harness, store
    finally:
        if opened:
            await store.close()


def quiet_logs() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR)


# -- Payloads ----------------------------------------------------------------------------------


class Payloads:
    """Interaction payloads built once per (command line, guild, channel, member), sent many times.

    Parsing a typed line (``parse_slash``) and building the envelope costs far more than the
    bot's own work on a small command; doing it per send would load the very loop being
    measured. :meth:`fresh` only swaps in a new interaction id and token.
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world
        self._tokens = itertools.count()

    def actor(self, guild: FakeGuild, member: str, channel: FakeChannel | None = None) -> Actor:
        found = guild.member(member)
        if found is None:
            raise KeyError(member)
        return Actor(guild, channel or guild.channels[0], found)

    def slash(self, line: str, actor: Actor, *, focus: bool = False) -> JSON:
        """A slash command (or with `focus`, its autocomplete) as typed in `actor`'s channel.

        Commands are synced to the first guild only (the bot's development guild); in the other
        guilds they are the global ones, which Discord sends without `data.guild_id`.
        """
        commands = self.fake.commands.visible_in(self.world.guild.id)
        parsed = parse_slash(line, commands, actor.guild, actor.member, focus=focus)
        build = payloads.autocomplete if focus else payloads.slash_command
        payload = build(self.world, actor, parsed.command, parsed.options, parsed.resolved)
        if actor.guild.id != self.world.guild.id:
            payload["data"].pop("guild_id", None)
        return payload

    def click(self, actor: Actor, message: JSON, custom_id: str) -> JSON:
        component = {"type": 2, "custom_id": custom_id}
        return payloads.component_click(self.world, actor, message, component)

    def fresh(self, template: JSON) -> JSON:
        """A copy of `template` with a new interaction id and token (a new interaction)."""
        payload = dict(template)
        payload["id"] = str(self.world.ids.next())
        payload["token"] = f"YmVuY2g{next(self._tokens)}"
        return payload


# -- Waiting -----------------------------------------------------------------------------------


async def quiesce(bot: commands.Bot, record: InteractionRecord, *, timeout: float = 5.0) -> None:
    """Wait (bounded) until `record` is answered and the bot has no callback, board or outbox work left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    await record.wait_response(timeout)
    while loop.time() < deadline:
        if handler_tasks():
            await asyncio.sleep(0.001)
            continue
        if isinstance(bot, MistbornBot):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(bot.conflicts.idle(), max(0.01, deadline - loop.time()))
        await asyncio.sleep(0.002)  # the MESSAGE_CREATE echo the fake sent back
        if not handler_tasks():
            return


# -- Data --------------------------------------------------------------------------------------


SHEET = {
    "concept": "Half-skaa street thief",
    "attributes": {"physique": 3, "charm": 3, "wits": 5},
    "standings": {"resources": 4, "influence": 3, "spirit": 5},
    "traits": {"drive": "Survive", "profession": "Thief", "extras": ["Quick", "Stubborn"]},
    "powers": [
        {"type": "allomancy", "name": "Steel", "rating": 4, "stunts": ["Coinshot"]},
        {"type": "allomancy", "name": "Pewter", "rating": 3},
    ],
    "burdens": [{"name": "Cracked rib", "severity": "serious"}],
    "props": [{"name": "Glass knives", "weapon": 1}],
    "destiny": "Kill the Lord Ruler",
}


def member_id(guild: FakeGuild, name: str) -> int:
    member: FakeMember | None = guild.member(name)
    if member is None:
        raise KeyError(name)
    return member.user.id


async def seed_table(storage: Storage, guild: FakeGuild, *, tag: str = "") -> None:
    """player1's active Hero "Vin{tag}" (a full sheet) and the Narrator's Villain "Thug{tag}"."""
    vin = make_character(
        SHEET, name=f"Vin{tag}", kind=CharacterKind.HERO, owner_id=member_id(guild, "player1")
    )
    thug = make_character(
        name=f"Thug{tag}",
        kind=CharacterKind.VILLAIN,
        owner_id=member_id(guild, "narrator"),
        attributes={"physique": 5, "wits": 2},
    )
    stored = await storage.characters.create(guild.id, vin)
    await storage.characters.create(guild.id, thug)
    await storage.active.set(guild.id, member_id(guild, "player1"), stored.id)


@dataclass
class Duel:
    """A Conflict in one channel between Vin{tag} (player1) and Thug{tag} (the Narrator).

    One cycle is ``/act`` (the Thug attacks), the Vin player's defence click, then — unmeasured
    setup for the next cycle — ``/conflict next-round force``, both ``/declare``s and a heal.
    """

    guild: FakeGuild
    channel: FakeChannel
    tag: str
    steps: list[tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        t = self.tag
        self.steps = [
            ("narrator", "/conflict next-round force:true"),
            ("narrator", f"/declare who:Thug{t} action:attack target:Vin{t} stat:Physique"),
            ("player1", f"/declare who:Vin{t} action:attack target:Thug{t} stat:Physique"),
            ("narrator", f"/sheet heal amount:20 name:Vin{t}"),  # mid-Conflict: the Narrator's call
        ]

    @property
    def act_line(self) -> str:
        return "/act dice:5"


async def start_duel(storage: Storage, duel: Duel) -> None:
    """Start the duel's Conflict directly in storage with both joined (setup, not measured)."""
    guild_id = duel.guild.id
    vin = await storage.characters.get_by_name(guild_id, f"Vin{duel.tag}")
    thug = await storage.characters.get_by_name(guild_id, f"Thug{duel.tag}")
    await start_conflict(
        storage,
        guild_id,
        duel.channel.id,
        "physical",
        "A brawl in the alley",
        joins=(Join(character_id=vin.id), Join(character_id=thug.id)),
        begin=True,
    )


def defend_button(message: JSON | None) -> str | None:
    """The custom id of the largest "Defend with N" on a prompt (else "Don't defend")."""
    best: tuple[int, str] | None = None
    for row in (message or {}).get("components") or []:
        for button in row.get("components") or []:
            custom_id = str(button.get("custom_id") or "")
            if custom_id.startswith("mab:defend:"):
                dice = int(custom_id.rsplit(":", 1)[1])
                if best is None or dice > best[0]:
                    best = (dice, custom_id)
    return None if best is None else best[1]


# -- Figures -----------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(values: Sequence[float]) -> tuple[float, float, float]:
    """(p50, p99, mean) in milliseconds from seconds."""
    if not values:
        return float("nan"), float("nan"), float("nan")
    return 1000 * percentile(values, 50), 1000 * percentile(values, 99), 1000 * statistics.fmean(values)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table, columns padded so it reads in a terminal too."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])
