"""How long one member's input may hold the event loop: the meter and the worst inputs known.

Every server shares one event loop, so an interaction that computes for a second makes every
other server's interactions miss Discord's 3 s meanwhile. :class:`StallMeter` times each step
the loop runs (each callback of a task: the code between two awaits), the way asyncio's debug
mode does for ``slow_callback_duration``, and keeps the longest, with the task that ran it.
Both the wall time and the thread's CPU time of a step are kept: on a busy shared machine the
wall time of a step also holds the time the OS gave other processes, the CPU time does not.

The crafted inputs are those that once took seconds (issue 30): a Roll20 file whose
``_reporder`` lists 200,000 ids for 4,000 rows, one with 160,000 Stunts, and name lists made of
nothing but commas. ``tests/bot/test_loop_stalls.py`` sends them and every option of every
command at its largest; ``python -m bench.stall_bench`` prints the longest stall each caused.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rules.character.roll20 import MAX_ATTRIBUTES, MAX_BYTES

DISCORD_OPTION_MAX = 6000
"""Discord's cap on a string option's length (and on a message's whole text)."""


@dataclass
class Stall:
    wall: float = 0.0
    cpu: float = 0.0
    step: str = ""


@dataclass
class StallMeter:
    """The longest steps the event loop ran while :meth:`measuring` was open."""

    longest: Stall = field(default_factory=Stall)

    def reset(self) -> Stall:
        """The longest step since the last reset, and start again."""
        found, self.longest = self.longest, Stall()
        return found

    @contextmanager
    def measuring(self) -> Iterator[StallMeter]:
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
