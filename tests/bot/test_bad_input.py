"""Bad input through the real Discord path: what a modified client can send, and what must hold.

Discord's own client enforces option types, ranges, lengths and choices, but the bot may not rely
on that: a modified client, an out-of-date command definition or a bug on Discord's side can let
anything through. These tests build raw INTERACTION_CREATE payloads (values the console parser
would refuse), send them through the fake Discord and check, for every interaction:

* the bot answered within Discord's window (never a 10062 "Unknown interaction"),
* never with the apology for an unexpected error (that is a bug, and is logged as one),
* every message within Discord's limits and unable to ping (``bot_env`` fails on any violation),
* a refusal is ephemeral and leaves the database exactly as it was (every row of every table),
* the bot stays up: an ordinary command still works afterwards.

This module holds the shared tools (``Probe``; the seeded table and its ``repair`` are in
``seeded_table.py``) and shows that their checks catch what they claim to; every option of
every command at and past its limits is in ``test_bad_input_limits.py``, the hypothesis run over
every synced command in ``test_bad_input_fuzz.py``, over every registered button, menu and form
in ``test_bad_input_clicks.py``, hostile files in ``test_bad_input_import.py`` and the
cross-server, cross-user probes in ``test_probes.py``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord.app_commands import AppCommandError

from bot.app import MistbornBot
from bot.cogs.server_setup import ServerSetup
from bot.errors import APOLOGY, BotError, user_message
from fake_discord import payloads
from fake_discord.commandline import find_command
from fake_discord.harness import Harness
from fake_discord.payloads import Actor, Resolved
from fake_discord.records import InteractionRecord, settle
from fake_discord.world import FakeGuild, FakeMember
from storage import RollLog, Storage
from testbed.bot_env import BotEnv
from testbed.cards import is_card

JSON = dict[str, Any]
SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, ATTACHMENT = 1, 2, 3, 4, 5, 6, 7, 8, 11
Rows = dict[str, list[tuple[Any, ...]]]


async def db_rows(storage: Storage) -> Rows:
    """Every row of every table (SQLite's own counters included), in a stable order."""
    reader = storage.sqlite.reader
    async with reader.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as cur:
        tables = [row[0] for row in await cur.fetchall()]
    rows: Rows = {}
    for table in tables:
        async with reader.execute(f'SELECT * FROM "{table}"') as cur:
            rows[table] = sorted((tuple(row) for row in await cur.fetchall()), key=repr)
    return rows


def leaves(commands: list[JSON]) -> Iterator[tuple[JSON, list[str], list[JSON]]]:
    """Every chat-input command the bot synced, down to its subcommands: (command, path, options)."""
    for command in commands:
        if command.get("type", 1) != 1:
            continue
        options = command.get("options") or []
        if not any(o["type"] in (SUBCOMMAND, GROUP) for o in options):
            yield command, [], options
            continue
        for sub in options:
            if sub["type"] == SUBCOMMAND:
                yield command, [sub["name"]], sub.get("options") or []
            else:
                for leaf in sub.get("options") or []:
                    yield command, [sub["name"], leaf["name"]], leaf.get("options") or []


def nest(path: list[str], values: list[JSON]) -> list[JSON]:
    """Wrap value options in their subcommand (and group), as Discord nests them."""
    for depth, name in reversed(list(enumerate(path))):
        kind = SUBCOMMAND if depth == len(path) - 1 else GROUP
        values = [{"type": kind, "name": name, "options": values}]
    return values


@dataclass
class Outcome:
    """One interaction and how the bot took it."""

    record: InteractionRecord
    error: BaseException | None

    @property
    def refused(self) -> bool:
        return self.error is not None

    @property
    def text(self) -> str:
        return self.record.text


@dataclass
class Probe:
    """Sends raw payloads as any member of any guild and checks every reply; see the module doc.

    Installs a wrapper on the command tree's error handler to learn which interactions were
    refused (and with which error), and collects ERROR logs from the bot and from discord.py.
    """

    env: BotEnv
    errors: dict[int, BaseException] = field(default_factory=dict)
    log: list[logging.LogRecord] = field(default_factory=list)
    sent: int = 0
    ids: dict[str, int] = field(default_factory=dict)
    """The seeded characters' ids by name, for tests that keep a table."""

    def __post_init__(self) -> None:
        self.install()

    def install(self) -> None:
        tree = self.env.bot.tree
        original = tree.on_error

        @tree.error
        async def on_error(interaction: discord.Interaction[MistbornBot], error: AppCommandError) -> None:
            self.errors[interaction.id] = error
            await original(interaction, error)

    @property
    def harness(self) -> Harness:
        return self.env.harness

    def actor(self, user: str | FakeMember, guild: FakeGuild | None = None) -> Actor:
        guild = guild or self.env.world.guild
        member = user if isinstance(user, FakeMember) else guild.member(user)
        assert member is not None, user
        return Actor(guild, guild.channels[0], member)

    def command(self, name: str, guild: FakeGuild | None = None) -> JSON:
        guild_id = (guild or self.env.world.guild).id
        return find_command(self.harness.fake.commands.visible_in(guild_id), name)

    async def settle(self) -> None:
        """Wait for the last command's handler to end (its answer reaches the fake first, and
        it marks the outbox row that answer showed after), then for background work (boards,
        and those marks), so snapshots compare settled states."""
        while self.env.bot.admission.in_flight:
            await asyncio.sleep(0.001)
        await self.env.bot.conflicts.idle()

    async def send(
        self,
        name: str,
        values: list[JSON],
        *,
        user: str | FakeMember = "player1",
        path: list[str] | None = None,
        resolved: Resolved | None = None,
        guild: FakeGuild | None = None,
        autocomplete: bool = False,
    ) -> Outcome:
        """Send ``/name path… values`` raw and check it; returns what happened."""
        actor = self.actor(user, guild)
        command = self.command(name, actor.guild)
        build = payloads.autocomplete if autocomplete else payloads.slash_command
        payload = build(self.env.world, actor, command, nest(path or [], values), resolved or Resolved())
        await self.settle()
        before = await db_rows(self.env.storage)
        outcome = await self.deliver(payload)
        if outcome.refused:
            await self.settle()
            assert await db_rows(self.env.storage) == before, f"a refusal changed storage: {outcome.text}"
        return outcome

    async def refused(self, payload: JSON) -> InteractionRecord:
        """Deliver any payload (a click, a menu) that must be refused: privately, nothing stored."""
        await self.settle()
        before = await db_rows(self.env.storage)
        outcome = await self.deliver(payload)
        await self.settle()
        assert await db_rows(self.env.storage) == before, f"a refusal changed storage: {outcome.text}"
        assert outcome.record.messages and outcome.record.ephemeral, outcome.text
        return outcome.record

    async def deliver(self, payload: JSON) -> Outcome:
        """Send and check what must hold for any interaction, refused or not."""
        self.sent += 1
        record = await self.harness.fake.send_interaction(payload)
        # The harness's own wait (until discord.py's callback task has ended); the board, the
        # only background work, is awaited separately.
        await settle(record, ack_timeout=self.harness.fake.limits.ack_deadline + 0.5, total=15)
        error = self.errors.get(record.id)
        where = f"{payload['data'].get('name')} {payload['data'].get('options')!r:.300}"
        assert record.response is not None, f"no answer within Discord's window: {where}"
        assert not record.errors, f"Discord refused a reply: {record.errors} ({where})"
        if record.type == payloads.APPLICATION_COMMAND and record.modal is None:
            assert record.messages, f"still thinking, or no message at all: {where}"
        assert all(APOLOGY not in str(m.get("content")) for m in record.messages), f"apology: {where}"
        if error is not None:
            assert user_message(error) is not None, f"unexpected error {error!r}: {where}"
            assert all(m["flags"] & payloads.EPHEMERAL for m in record.messages), where
        assert not self.harness.violations, self.harness.violations
        return Outcome(record, error)

    def check_log(self) -> None:
        """No ERROR logged by the bot or discord.py (an unexpected error anywhere)."""
        bad = [r for r in self.log if r.levelno >= logging.ERROR]
        assert not bad, [r.getMessage() for r in bad]

    async def still_works(self, guild: FakeGuild | None = None) -> None:
        """The process is up and answers an ordinary command normally."""
        outcome = await self.send(
            "odds", [{"type": INTEGER, "name": "dice", "value": 4}], path=["roll"], guild=guild
        )
        assert not outcome.refused and is_card(outcome.record.message)


class LogCatcher(logging.Handler):
    """WARNING and above from the bot, storage and discord.py, whatever pytest's log level."""

    LOGGERS = ("bot", "storage", "discord")

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> list[logging.LogRecord]:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self.records

    def __exit__(self, *exc: object) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)


@pytest.fixture
def probe(bot_env: BotEnv) -> Iterator[Probe]:
    """A :class:`Probe` on ``bot_env``; other modules define theirs the same way."""
    with LogCatcher() as logs:
        yield Probe(bot_env, log=logs)


def text(name: str, value: str) -> JSON:
    return {"type": STRING, "name": name, "value": value}


def integer(name: str, value: int) -> JSON:
    return {"type": INTEGER, "name": name, "value": value}


def boolean(name: str, value: bool) -> JSON:
    return {"type": BOOLEAN, "name": name, "value": value}


async def test_the_probe_catches_the_apology(probe: Probe, monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks are not vacuous: an unexpected error anywhere fails the interaction."""

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(RollLog, "append", broken)
    monkeypatch.setattr(RollLog, "append_once", broken)  # /roll logs with its interaction's claim
    with pytest.raises(AssertionError, match="apology"):
        await probe.send("roll", [integer("dice", 3)])


async def test_the_probe_catches_a_refusal_that_changed_storage(
    probe: Probe, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def refuse(*args: Any, **kwargs: Any) -> None:
        raise BotError("No.")

    monkeypatch.setattr(ServerSetup, "_show", refuse)
    with pytest.raises(AssertionError, match="a refusal changed storage"):
        await probe.send("setup", [], path=["gm-channel"], user="narrator")
