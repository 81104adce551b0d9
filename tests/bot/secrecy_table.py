"""The table the secrecy matrix is played at, and how to send one cell as one member.

``open_table`` sets it up through Discord as ``tests/bot/secrecy_matrix.py`` describes and keeps
a snapshot of every row; ``restore`` puts it back before each cell; ``deliver`` sends one
interaction and, when it is refused, checks the refusal was private and changed nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.app import MistbornBot
from bot.cogs.conflict.transaction import run_transition
from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.harness import running_bot
from fake_discord.payloads import Actor
from fake_discord.permissions import ADMINISTRATOR
from fake_discord.records import InteractionRecord
from fake_discord.render import render_message
from fake_discord.world import FakeGuild, FakeMember, FakeRole, World, add_table_guild, default_world
from rules.conflict import Act, ActionKind, ActionSpec, Command, Conflict, Declare, DiceSpec, Reorder, waiting
from storage import GuildSettings, Storage
from testbed.bot_env import BotEnv, make_settings
from testbed.cards import shows
from tests.bot.rooms import add_rooms, room, typed
from tests.bot.secrecy_matrix import PERSONAS
from tests.bot.test_bad_input import LogCatcher, Outcome, Probe, Rows, db_rows

JSON = dict[str, Any]
USERS = {p: {"player": "player1", "other": "player2"}.get(p, p) for p in PERSONAS}
OWN = {
    "player": "Vin",
    "other": "Elend",
    "stranger": "Vin",
    "keeper": "Straff",
    "former": "Straff",
    "admin": "Straff",
}
"""The character each member acts for in their own name (the Narrators: the Villain)."""
PLAN, GMROLL = "Q7-PLAN", "Q7-GMROLL"
ROOM_ROLL, HUSHED = "Q39-ROOM", "Q39 hushed wound"
"""Vin's roll in ``#ooc``, and the Burden player1 gave Vin in ``#whisper`` (docs/rulings.md §7.6)."""
OPEN_ROLLS = 2
"""The rolls of the setup anyone may count (the fairness report counts, never lists, §7.6)."""


@dataclass
class Table:
    env: BotEnv
    probe: Probe
    other: FakeGuild
    base: Rows = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)
    said: str = ""
    """What the last refusal said."""

    @property
    def storage(self) -> Storage:
        return self.env.storage


def build_world() -> tuple[World, FakeGuild]:
    """The Scadrial Table with a Keeper role (to be made the Narrator role), an Admin role, and
    the members keeper, former (both Keepers) and admin; ``#ooc`` hidden from player2 and a
    private thread ``#whisper`` of ``#table`` (``tests/bot/rooms.py``); another server with a
    stranger in it."""
    world = add_rooms(default_world())
    guild = world.guild
    guild.roles += [
        FakeRole(world.ids.next(), "Keeper", permissions=0, position=1),
        FakeRole(world.ids.next(), "Admin", permissions=ADMINISTRATOR, position=3),
    ]
    world.add_member("keeper", roles=("Keeper",))
    former = world.add_member("former", roles=("Keeper",))
    world.add_member("admin", roles=("Admin",))
    other = add_table_guild(world, "Other Table")
    world.add_member("stranger", guild=other)
    other.members.append(FakeMember(former.user))
    return world, other


SETUP = [
    ("table", "player1", "/character create name:Vin physique:2"),
    ("table", "player2", "/character create name:Elend physique:2"),
    ("table", "former", f'/character create name:Straff kind:villain concept:"{PLAN} burn the keep"'),
    ("table", "former", "/character use name:Straff"),
    ("table", "narrator", f"/gmroll dice:3 label:{GMROLL}"),
    ("table", "player1", "/roll dice:4 label:open"),
    ("ooc", "narrator", '/session start title:"Q39 aside"'),
    ("ooc", "player1", f"/roll stat:Physique label:{ROOM_ROLL}"),
    ("ooc", "narrator", "/session end"),
    ("table", "narrator", '/session start title:"Q39 the keep"'),
    ("whisper", "player1", f'/burden add burden:"{HUSHED}" severity:serious'),
    ("table", "narrator", '/conflict start kind:physical stakes:"The keep"'),
    ("table", "player1", "/conflict join"),
    ("table", "player2", "/conflict join"),
    ("table", "narrator", "/conflict add character:Straff"),
    ("table", "narrator", "/conflict begin"),
]
"""Who types what, and where: ``#table``, ``#ooc`` (which player2 may not view) or ``#whisper``
(a private thread of ``#table``, player1's)."""


@asynccontextmanager
async def open_table(tmp_path: Path) -> AsyncIterator[Table]:
    """The table of ``secrecy_matrix`` set up through Discord, with a snapshot of every row."""
    db_path = tmp_path / "bot.sqlite3"
    world, other = build_world()
    storage = await Storage.open(db_path)

    def make_bot() -> MistbornBot:
        settings = make_settings(db_path, world.guild.id)
        return MistbornBot(settings=settings, storage=storage, rng=random.Random(14), sync_global=True)

    try:
        async with running_bot(make_bot, world=world) as harness:
            assert isinstance(harness.bot, MistbornBot)
            env = BotEnv(harness=harness, bot=harness.bot, storage=storage, world=world, db_path=db_path)
            env.bot.conflicts.grace.seconds = 0
            keeper = world.guild.role("Keeper")
            assert keeper is not None
            await storage.settings.set(env.guild_id, GuildSettings(narrator_role_ids=(keeper.id,)))
            for where, user, line in SETUP:
                await typed(env, where, user, line)
            env.harness.channel = room(env, "table")
            former = world.guild.member("former")
            assert former is not None
            former.role_ids.remove(keeper.id)  # no longer a Narrator, from the next interaction on
            with LogCatcher() as logs:
                table = Table(env=env, probe=Probe(env, log=logs), other=other)
                table.ids = {c.name: c.id for c in await storage.characters.list_by_guild(env.guild_id)}
                await table.probe.settle()
                table.base = await db_rows(storage)
                yield table
                table.probe.check_log()
            assert not harness.violations, harness.violations
    finally:
        await storage.close()


async def restore(storage: Storage, rows: Rows) -> None:
    """Every table back to ``rows`` (SQLite's counters included), in one transaction."""
    async with storage.sqlite.transaction() as conn:
        await conn.execute("PRAGMA defer_foreign_keys = ON")
        for table in rows:
            await conn.execute(f'DELETE FROM "{table}"')
        for table, found in rows.items():
            for row in found:
                marks = ", ".join("?" * len(row))
                await conn.execute(f'INSERT INTO "{table}" VALUES ({marks})', row)


def actor(t: Table, persona: str) -> Actor:
    guild = t.other if persona == "stranger" else t.env.world.guild
    member = guild.member(USERS[persona])
    assert member is not None
    return Actor(guild, guild.channels[0], member)


def refusal(outcome: Outcome) -> bool:
    """Refused: an error the bot answered (a button, which has no tree handler: a private
    reply of words only, no embed and no card)."""
    if outcome.record.type != payloads.COMPONENT:
        return outcome.refused
    messages = outcome.record.messages
    return bool(messages) and all(m["flags"] & payloads.EPHEMERAL and not shows(m) for m in messages)


async def deliver(t: Table, payload: JSON) -> Outcome:
    """Send as is; a refusal must be private and change nothing stored."""
    await t.probe.settle()
    before = await db_rows(t.storage)
    outcome = await t.probe.deliver(payload)
    if refusal(outcome):
        t.said = " ".join(str(m.get("content")) for m in outcome.record.messages)
        await t.probe.settle()
        assert await db_rows(t.storage) == before, f"a refusal changed storage: {outcome.text}"
        assert all(m["flags"] & payloads.EPHEMERAL for m in outcome.record.messages), outcome.text
    return outcome


async def slash(t: Table, persona: str, line: str, *, autocomplete: bool = False) -> Outcome:
    who = actor(t, persona)
    commands = t.env.harness.fake.commands.visible_in(who.guild.id)
    parsed = parse_slash(line, commands, who.guild, who.member, focus=autocomplete)
    build = payloads.autocomplete if autocomplete else payloads.slash_command
    return await deliver(t, build(t.env.world, who, parsed.command, parsed.options, parsed.resolved))


def text(record: InteractionRecord) -> str:
    return record.text


def shown(outcome: Outcome, what: str, *, needle: str = "Straff") -> str:
    """``what`` privately/publicly if ``needle`` is in the reply, else refused."""
    if refusal(outcome):
        return "refused"
    assert needle in text(outcome.record), outcome.text
    return f"{what} {'privately' if outcome.record.ephemeral else 'publicly'}"


def accepted(outcome: Outcome) -> str:
    return "refused" if refusal(outcome) else "accepted"


FIGURES = re.compile(r"(Physique|Health|Charm|Wits) \d|\d+ → ")
"""A rating or a Resilience's count: what a hidden sheet's public answer must never hold."""


def routed(outcome: Outcome, public: str) -> str:
    """How an answer about a sheet went: ``public`` (what the table saw: a state, the dice) in
    the open, holding no figures, and the figures privately (docs/rulings.md §7.1)."""
    if refusal(outcome):
        return "refused"
    messages = outcome.record.messages
    seen = [m for m in messages if not m["flags"] & payloads.EPHEMERAL]
    told = [f"{public} publicly"] if seen else []
    for message in seen:
        said = render_message(message)
        assert not FIGURES.search(said), said
    if len(seen) < len(messages):
        told.append("figures privately")
    return ", ".join(told)


# -- setting the Conflict up for one cell ------------------------------------------------------


async def move(t: Table, make: Callable[[Conflict], Command]) -> None:
    channel = t.env.world.guild.channels[0].id
    await run_transition(t.storage, t.env.guild_id, channel, lambda state, sheets: make(state))


async def declare_all(t: Table, attack_vin: bool) -> None:
    """Everyone declares in turn: a rolled action with no target; Straff attacks Vin if asked."""
    for _ in range(3):

        def make(state: Conflict) -> Command:
            pid = waiting(state).participants[0]
            target = t.ids["Vin"] if attack_vin and pid == t.ids["Straff"] else None
            kind = ActionKind.ATTACK if target is not None else ActionKind.ACTION
            return Declare(
                participant=pid, action=ActionSpec(kind=kind, target=target), dice=DiceSpec(stat="Physique")
            )

        await move(t, make)


async def acting(t: Table) -> None:
    """All three hold 2 Action Dice and share the first step: each may act now."""
    await declare_all(t, attack_vin=False)


async def defending(t: Table) -> None:
    """Straff's attack on Vin waits for Vin's defence."""
    await declare_all(t, attack_vin=True)
    await move(t, lambda state: Act(participant=t.ids["Straff"], pool=2))


async def declaring_first(t: Table, persona: str) -> None:
    first = t.ids.get(OWN[persona], t.ids["Vin"])
    rest = [t.ids[n] for n in ("Vin", "Elend", "Straff") if t.ids[n] != first]
    await move(t, lambda state: Reorder(order=(first, *rest)))


async def table_dice(t: Table, on: bool) -> None:
    settings = await t.storage.settings.get(t.env.guild_id)
    await t.storage.settings.set(t.env.guild_id, settings.model_copy(update={"table_dice": on}))


def who(persona: str) -> str:
    return "" if persona in ("player", "other") else f"who:{OWN[persona]} "
