"""How long one member's input may hold the event loop: the meter and the worst inputs known.

Every server shares one event loop, so an interaction that computes for a second makes every
other server's interactions miss Discord's 3 s meanwhile. :class:`StallMeter` times each step
the loop runs (each callback of a task: the code between two awaits), the way asyncio's debug
mode does for ``slow_callback_duration``, and keeps the longest, with the task that ran it.
Both the wall time and the thread's CPU time of a step are kept: on a busy shared machine the
wall time of a step also holds the time the OS gave other processes, the CPU time does not.

A step's CPU time cannot see the loop kept waiting from outside its steps: another thread of
the process holding the interpreter's lock (Pillow reading a picture's chunks in Python, in a
worker thread, made every other server wait so), or the OS running something else. So the
meter also keeps the loop's wall-clock lag: a heartbeat task sleeps :data:`BEAT` again and
again and records how late it wakes (:attr:`Stall.lag`).

The crafted inputs are those that once took seconds (issue 30): a Roll20 file whose
``_reporder`` lists 200,000 ids for 4,000 rows, one with 160,000 Stunts, and name lists made of
nothing but commas. Then the surfaces that read or draw much from little input: a night of
6,000 journal entries each a thousand emoji (:func:`long_night`; :data:`WIDE` costs the most
per character to validate, encode and escape), the largest pictures (:func:`portrait_images`),
a Conflict's 25 fighters at the longest names (:func:`fighter_names`); and the pictures built
to be costly to decode (``testbed.hostile_images``), read two at once while another server
plays (:func:`beside_hostile`: the loop's lag, and how long that server's roll and ordinary
portrait take meanwhile).
``tests/bot/test_loop_stalls.py`` sends them and every option of every command at its largest;
``python -m bench.stall_bench`` prints the longest stall each caused.
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import random
import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image

from bot.render.portrait_worker import MAX_PIXELS
from bot.render.portraits import MAX_UPLOAD_BYTES
from fake_discord import payloads
from fake_discord.commandline import parse_slash
from fake_discord.records import InteractionRecord, settle
from fake_discord.world import FakeGuild
from rules.character import CharacterKind, make_character
from rules.character.limits import NAME_MAX
from rules.character.roll20 import MAX_ATTRIBUTES, MAX_BYTES
from rules.conflict import MAX_PARTICIPANTS
from rules.journal import TEXT_MAX, EntryKind, JournalEntry
from storage.journal import MAX_ENTRIES
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from testbed.hostile_images import ordinary_png

T = TypeVar("T")

DISCORD_OPTION_MAX = 6000
"""Discord's cap on a string option's length (and on a message's whole text)."""


BEAT = 0.005
"""Seconds the heartbeat sleeps between two wakes."""


@dataclass
class Stall:
    wall: float = 0.0
    cpu: float = 0.0
    step: str = ""
    lag: float = 0.0
    """The latest the heartbeat woke meanwhile: the loop's wall-clock lag, whatever held it."""


@dataclass
class StallMeter:
    """The longest steps the event loop ran while :meth:`measuring` was open, and its lag."""

    longest: Stall = field(default_factory=Stall)
    lag: float = 0.0
    _since: float = 0.0

    def reset(self) -> Stall:
        """The longest step and the longest lag since the last reset, and start again (a beat
        under way counts from now: how late the loop was before is no part of what follows)."""
        found = replace(self.longest, lag=self.lag)
        self.longest, self.lag, self._since = Stall(), 0.0, time.perf_counter()
        return found

    async def _beat(self) -> None:
        while True:
            self._since = time.perf_counter()
            await asyncio.sleep(BEAT)
            self.lag = max(self.lag, time.perf_counter() - self._since - BEAT)

    @contextmanager
    def measuring(self) -> Iterator[StallMeter]:
        """Time every step of the running loop, and beat, until the block ends."""
        heartbeat = asyncio.get_running_loop().create_task(self._beat(), name="stall-heartbeat")
        original = asyncio.Handle._run
        meter = self

        def timed(handle: asyncio.Handle) -> None:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                original(handle)
            finally:
                took = time.thread_time() - cpu
                if took > meter.longest.cpu:
                    meter.longest = Stall(time.perf_counter() - wall, took, repr(handle)[:300])

        setattr(asyncio.Handle, "_run", timed)  # noqa: B010 - asyncio's own hook has no public name
        try:
            yield self
        finally:
            setattr(asyncio.Handle, "_run", original)  # noqa: B010
            heartbeat.cancel()


def _fill(attribs: list[dict[str, Any]], filled: str, pad: str) -> bytes:
    """The export with attribute ``filled`` made of ``pad`` as long as :data:`MAX_BYTES` allows."""
    base: dict[str, Any] = {"schema_version": 2, "name": "Crafted", "attribs": attribs}
    empty = len(json.dumps(base | {"attribs": [*attribs, {"name": filled, "current": ""}]}).encode())
    room = MAX_BYTES - empty - 16
    base["attribs"] = [{"name": filled, "current": (pad * (room // len(pad)))[:room]}, *attribs]
    data = json.dumps(base).encode()
    assert len(data) <= MAX_BYTES, len(data)
    return data


def roll20_reporder() -> bytes:
    """4,000 repeating rows and an order of ~200,000 ids (each row checked against all: seconds)."""
    rows = [
        {"name": f"repeating_traitsburdens_r{i}_tblabel", "current": ""} for i in range(MAX_ATTRIBUTES - 1)
    ]
    return _fill(rows, "_reporder_repeating_traitsburdens", "a,")


def roll20_stunts() -> bytes:
    """One Power with ~250,000 Stunts past the sheet's cap: each was listed back."""
    power: list[dict[str, Any]] = [
        {"name": "repeating_powers_p1_power", "current": "Steel"},
        {"name": "repeating_powers_p1_type", "current": "1"},
        {"name": "repeating_powers_p1_rating", "current": 3},
    ]
    return _fill(power, "repeating_powers_p1_stunts", "s,")


def roll20_unknown_fields() -> bytes:
    """4,000 fields the sheet does not have, each with a long value: each is listed back."""
    value = "x" * ((MAX_BYTES - 200_000) // MAX_ATTRIBUTES)
    attribs = [{"name": f"unknown{i}", "current": value} for i in range(MAX_ATTRIBUTES)]
    data = json.dumps({"schema_version": 2, "name": "Crafted", "attribs": attribs}).encode()
    assert len(data) <= MAX_BYTES
    return data


CRAFTED_FILES = {
    "roll20 reporder": roll20_reporder,
    "roll20 stunts": roll20_stunts,
    "roll20 unknown fields": roll20_unknown_fields,
}


def name_lists(limit: int = DISCORD_OPTION_MAX) -> dict[str, str]:
    """Texts for an option that lists names, ``limit`` characters long: the worst known shapes."""
    return {
        "commas": "," * limit,
        "semicolons and commas": ";," * (limit // 2),
        "one letter each": ("a," * limit)[:limit],
        "a name each": ("Vin," * limit)[:limit],
        "misspelt each": ("Vinn," * limit)[:limit],
        "no separator": "V" * limit,
    }


WIDE = "🔥"
"""The character costliest to validate, encode and escape per character (four bytes in UTF-8,
two in UTF-16: Discord counts it as two of a limit, pydantic and Python as one)."""


def widest(limit: int) -> str:
    """The longest text of :data:`WIDE` a limit counted as Discord counts (UTF-16 units) takes."""
    return WIDE * (limit // 2)


def long_night(
    started_at: datetime, count: int = MAX_ENTRIES + 1000, heroes: int = 200
) -> list[JournalEntry]:
    """A night's journal past what a recap reads, every entry at its longest in :data:`WIDE`
    characters (both wordings), for ``heroes`` Heroes (the recap's tallies group by Hero)."""
    kinds = list(EntryKind)
    return [
        JournalEntry(
            at=started_at + timedelta(microseconds=n + 1),
            kind=kinds[n % len(kinds)],
            text=(f"{n} " + WIDE * TEXT_MAX)[:TEXT_MAX],
            public=(f"{n} " + WIDE * TEXT_MAX)[:TEXT_MAX],
            hero=f"{n % heroes:03d}" + widest(NAME_MAX - 4),
            character_id=n % heroes + 1,
            amount=n % 5,
            outcome=n % 7 - 3,
        )
        for n in range(count)
    ]


def portrait_images() -> dict[str, bytes]:
    """The worst pictures ``/character portrait`` accepts: the most bytes (noise, which no format
    compresses, just under the cap) and the most pixels (a flat picture at the cap: tiny on
    disk, the longest to decode), each decoded in a worker thread."""
    width = 1640
    height = MAX_UPLOAD_BYTES // (width * 3) - 10
    noise = Image.frombytes("RGB", (width, height), random.Random(30).randbytes(width * height * 3))
    side = int(MAX_PIXELS**0.5)
    found = {}
    flat = Image.new("RGB", (side, side), (10, 20, 30))
    for name, image, kind, options in [
        ("noise, 8 MiB", noise, "PNG", {"compress_level": 0}),
        ("24 Mpx PNG", flat, "PNG", {}),
        ("24 Mpx JPEG", flat, "JPEG", {}),
    ]:
        out = io.BytesIO()
        image.save(out, kind, **options)
        assert len(out.getvalue()) <= MAX_UPLOAD_BYTES, (name, len(out.getvalue()))
        found[name] = out.getvalue()
    return found


def fighter_names(count: int = MAX_PARTICIPANTS) -> list[str]:
    """A Conflict's most participants, each named at the longest a name may be, in :data:`WIDE`."""
    return [f"{n:02d}" + widest(NAME_MAX - 2) for n in range(count)]


async def measured(env: BotEnv, meter: StallMeter, act: Awaitable[T]) -> tuple[Stall, T]:
    """The longest loop step while ``act`` runs to its end with the work it started (boards,
    the outbox), and what it returned."""
    gc.collect()
    gc.freeze()
    await asyncio.sleep(0)  # the step that collected ends here, before the meter starts
    meter.reset()
    try:
        done = await act
        await env.bot.conflicts.idle()
        return meter.reset(), done
    finally:
        gc.unfreeze()


async def answered(
    env: BotEnv, meter: StallMeter, act: Awaitable[InteractionRecord], expect: str = ""
) -> Stall:
    """:func:`measured` for an interaction, which must have been answered with ``expect``."""
    stall, record = await measured(env, meter, act)
    assert not record.errors and record.response is not None, record.text
    assert expect in record.text + card_text(record.message or {}), (expect, record.text)
    return stall


async def sent_in(env: BotEnv, guild: FakeGuild, user: str, line: str) -> InteractionRecord:
    """Type ``line`` as ``user`` in ``guild``'s first channel (its commands synced there or
    globally), without waiting for the answer: the fake's record of it."""
    member = guild.member(user)
    assert member is not None, user
    commands = env.harness.fake.commands.visible_in(guild.id)
    parsed = parse_slash(line, commands, guild, member, attach=env.harness.attach)
    actor = payloads.Actor(guild, guild.channels[0], member)
    payload = payloads.slash_command(env.world, actor, parsed.command, parsed.options, parsed.resolved)
    return await env.harness.fake.send_interaction(payload)


async def answer_of(record: InteractionRecord, timeout: float) -> tuple[float, InteractionRecord]:
    """Seconds from sending ``record``'s interaction to its answer (not a "thinking…"), and it."""
    await record.wait_for(lambda r: bool(r.messages) or bool(r.errors), timeout)
    return time.monotonic() - record.sent_at, record


@dataclass
class Beside:
    """What another server saw while two members' hostile pictures were read."""

    lag: float
    """The loop's worst wall-clock lag from the first picture sent to the last answered."""
    roll: float
    """Seconds another server's ``/roll`` took to be answered, sent meanwhile."""
    portrait: float
    """Seconds another server's ordinary 64×64 portrait took to be answered, sent meanwhile."""
    portrait_first: bool
    """Whether that portrait was answered before either hostile picture was."""
    hostile: list[tuple[float, str]]
    """Each hostile picture's seconds to its answer, and the answer."""


NEIGHBOURS = ("player1", "player2")
"""Who sends the hostile pictures, and who plays in the other server meanwhile."""
HEAD_START = 0.3
"""Seconds the hostile pictures get before the other server plays: both are being read by then."""


async def seat_neighbours(env: BotEnv, guild: FakeGuild) -> None:
    """A Hero for each of :data:`NEIGHBOURS` in ``guild``, their active one there."""
    for user in NEIGHBOURS:
        member = guild.member(user)
        assert member is not None
        sheet = make_character(name=f"{user} hero", kind=CharacterKind.HERO, owner_id=member.user.id)
        stored = await env.storage.characters.create(guild.id, sheet)
        await env.storage.active.set(guild.id, member.user.id, stored.id)


async def beside_hostile(
    env: BotEnv, meter: StallMeter, other: FakeGuild, data: bytes | None, folder: Path, timeout: float = 600.0
) -> Beside:
    """Two members send ``data`` as their Heroes' portraits at once; meanwhile, in ``other``, one
    member rolls and another sends an ordinary portrait. Every member named in
    :data:`NEIGHBOURS` has an active Hero in both servers. With no ``data``, the other server
    plays alone: what the machine itself costs."""
    hostile, ordinary = folder / "hostile", folder / "ordinary.png"
    hostile.write_bytes(data or b"")
    ordinary.write_bytes(ordinary_png())
    here = env.world.guild
    await asyncio.sleep(0)
    meter.reset()
    line = f'/character portrait image:"{hostile}"'
    sent = [await sent_in(env, here, user, line) for user in NEIGHBOURS if data is not None]
    await asyncio.sleep(HEAD_START)
    roll = await sent_in(env, other, NEIGHBOURS[0], "/roll dice:2")
    portrait = await sent_in(env, other, NEIGHBOURS[1], f'/character portrait image:"{ordinary}"')
    (roll_took, _), (portrait_took, _) = await asyncio.gather(
        answer_of(roll, timeout), answer_of(portrait, timeout)
    )
    portrait_first = not any(record.messages for record in sent)
    answers = await asyncio.gather(*(answer_of(record, timeout) for record in sent))
    for record in (*sent, roll, portrait):
        await settle(record, total=timeout)
    assert "New portrait" in card_text(portrait.message or {}), portrait.text
    stall = meter.reset()
    return Beside(
        lag=stall.lag,
        roll=roll_took,
        portrait=portrait_took,
        portrait_first=portrait_first,
        hostile=[(took, (record.text + card_text(record.message or {}))[:60]) for took, record in answers],
    )
