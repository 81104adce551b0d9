"""What a load run measured: per-interaction outcomes, the summary rows, and GC pauses.

Kept apart from :mod:`bench.load_generator`, which drives the load, and :mod:`bench.load_bench`,
which runs it, so each stays small.
"""

from __future__ import annotations

import gc
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import percentile
from bot.admission import BUSY
from fake_discord.records import InteractionRecord

ACK_WINDOW = 3.0
P99_GOAL_MS = 20.0
"""A rate is held when nothing failed and p99 stays under this."""
UNKNOWN_INTERACTION = 10062


class GcWatch:
    """Full (generation 2) collections and the longest collection pause while running.

    ``hold``: no automatic collection at all meanwhile (``gc.disable``), for the load bench's
    own process, where a pause stalls the generator and the fake's clock alike and would be
    counted as the bot's latency; the caller collects once the window is over.
    """

    def __init__(self, *, hold: bool = False) -> None:
        self.full = 0
        self.longest = 0.0
        self._started = 0.0
        self._hold = hold

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.longest = max(self.longest, time.perf_counter() - self._started)
        self.full += info["generation"] == 2

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self)
        if self._hold:
            gc.disable()
        return self

    def __exit__(self, *_: object) -> None:
        if self._hold:
            gc.enable()
        gc.callbacks.remove(self)


class ProcessClock:
    """CPU seconds used so far by another process (all its threads), from ``/proc`` (Linux)."""

    def __init__(self, pid: int) -> None:
        self.path = Path(f"/proc/{pid}/stat")
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def seconds(self) -> float:
        try:
            fields = self.path.read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime + stime


def log_levels(text: str) -> Counter[str]:
    """WARNING / ERROR / CRITICAL lines in the bot's log (its tracebacks are not printed here)."""
    return Counter(level for line in text.splitlines() for level in LEVELS if f" {level} " in line)


LEVELS = ("WARNING", "ERROR", "CRITICAL")


@dataclass
class Sent:
    kind: str
    due: float
    record: InteractionRecord


@dataclass
class RateResult:
    """One rate's figures; the records themselves are dropped once it is summed up."""

    rate: int
    seconds: float
    sent: list[Sent] = field(default_factory=list)
    outcomes: list[tuple[str, str, float | None]] = field(default_factory=list)
    """(kind, outcome, latency s) per interaction sent."""
    lag: float = 0.0
    violations: int = 0
    gc_full: int = 0
    gc_max: float = 0.0
    bot_cpu: float = float("nan")
    """CPU seconds the bot's process used while this rate was sent (nan when unknown)."""
    steal: float = float("nan")
    """The share of the machine's CPU time its hypervisor gave to others meanwhile (``/proc/stat``'s
    steal): on a shared host, what a run's tail may owe to it rather than to the bot."""
    harness_cpu: float = float("nan")
    """CPU seconds the generator's own process used meanwhile (with the fake Discord in it, where
    a saturated core shows as lag and as latency that is not the bot's)."""


def outcome(sent: Sent) -> str:
    """'ok', 'late' (no ack in 3 s: none, or refused as Unknown interaction), 'busy' (the bot's
    "busy, try again" at once, past capacity) or 'error'."""
    record = sent.record
    if any(error.get("code") == UNKNOWN_INTERACTION for error in record.errors):
        return "late"
    if record.errors:
        return "error"
    if record.responded_at is None or record.responded_at - sent.due > ACK_WINDOW:
        return "late"
    if record.ephemeral:
        return "busy" if record.content == BUSY else "error"
    return "ok"


def summarize(result: RateResult, *, beside_cpu: tuple[str, ...] = ()) -> tuple[list[str], bool]:
    """The rate's row of the table (``beside_cpu``: more cells after the bot's CPU), and whether it held."""
    outcomes = Counter(o for _, o, _ in result.outcomes)
    latencies = [t for _, o, t in result.outcomes if o == "ok" and t is not None]
    p50 = 1000 * percentile(latencies, 50)
    p99 = 1000 * percentile(latencies, 99)
    failures = outcomes["late"] + outcomes["error"] + outcomes["busy"] + result.violations
    held = failures == 0 and p99 < P99_GOAL_MS
    row = [
        str(result.rate),
        str(len(result.outcomes)),
        str(outcomes["ok"]),
        str(outcomes["late"]),
        str(outcomes["busy"]),
        str(outcomes["error"]),
        str(result.violations),
        f"{p50:.2f}",
        f"{p99:.2f}",
        f"{1000 * max(latencies, default=float('nan')):.1f}",
        f"{1000 * result.lag:.1f}",
        cpu_cell(result),
        *beside_cpu,
        f"{result.gc_full} / {1000 * result.gc_max:.0f}",
        "yes" if held else "no",
    ]
    return row, held


def cpu_cell(result: RateResult) -> str:
    """The bot's CPU ms per interaction sent, and its share of one core over the rate's seconds."""
    per = 1000 * result.bot_cpu / max(1, len(result.outcomes))
    return f"{per:.2f} / {100 * result.bot_cpu / result.seconds:.0f}%"


def harness_cell(result: RateResult) -> str:
    """The generator's process's CPU share of one core over the rate's seconds, and the share of
    the machine's time its hypervisor stole meanwhile."""
    return f"{100 * result.harness_cpu / result.seconds:.0f}% / {100 * result.steal:.0f}%"


def held_without(result: RateResult, kind: str) -> bool:
    """Whether the rate held if `kind` were left out of the latency figures (failures still count)."""
    outcomes = Counter(o for _, o, _ in result.outcomes)
    latencies = [t for k, o, t in result.outcomes if o == "ok" and t is not None and k != kind]
    failures = outcomes["late"] + outcomes["error"] + result.violations
    return failures == 0 and 1000 * percentile(latencies, 99) < P99_GOAL_MS


def per_kind(results: list[RateResult]) -> list[list[str]]:
    """p50/p99 per command kind at each rate, how many of that kind answered past the p99 goal
    (which kinds make up the overall tail), and that kind's failures (which kind misses its
    deadline, or is told "busy")."""
    rows = []
    kinds = sorted({k for r in results for k, _, _ in r.outcomes})
    for kind in kinds:
        cells = [kind]
        for result in results:
            values = [t for k, o, t in result.outcomes if k == kind and o == "ok" and t is not None]
            slow = sum(1 for t in values if 1000 * t >= P99_GOAL_MS)
            cell = (
                f"{1000 * percentile(values, 50):.1f} / {1000 * percentile(values, 99):.1f}"
                + (f", {slow} slow" if slow else "")
                if values
                else "none in 3 s"
            )
            failed = Counter(o for k, o, _ in result.outcomes if k == kind and o != "ok")
            if failed:
                cell += " (" + ", ".join(f"{n} {o}" for o, n in sorted(failed.items())) + ")"
            cells.append(cell)
        rows.append(cells)
    return rows
