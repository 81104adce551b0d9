"""A defence click's own work, each phase ready to run alone, hot or cold (``bench.cold_bench``).

:func:`duel` plays the dispatch bench's duel through the rules alone up to the step its defence
click answers (the Thug's attack waiting for Vin's defence); :func:`phases` gives the click's own
work on it, phase by phase, each a call that can run again and again on the same input;
:func:`median_us` times one, after a :class:`Sweeper` has evicted the CPU's caches (cold) or not
(hot). ``tests/test_cold_bench.py`` holds the duel and the phases to the click they stand for.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import cycle

from bot.render.conflict import events_embed
from rules.character import Character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Begin,
    Conflict,
    Declare,
    Defend,
    DiceSpec,
    Join,
    Transition,
    apply,
    dump_conflict,
    load_conflict,
    new_conflict,
)

VIN, THUG = 1, 2
SWEEP_BYTES = 64 * 1024 * 1024
"""Copied before each cold sample: twice the largest last-level cache met here (32 MB)."""


@dataclass(frozen=True)
class Defence:
    """The duel awaiting Vin's defence, and the sheets the engine reads."""

    state: Conflict
    sheets: dict[int, Character]


def duel(vin: Character, thug: Character) -> Defence:
    """Vin and the Thug have declared attacks on each other, and the Thug has attacked with 5
    dice: the step the dispatch bench's defence click answers (``bench.common.Duel``)."""
    sheets = {VIN: vin, THUG: thug}
    rng = random.Random(7)
    state = new_conflict(1, "physical", "A brawl in the alley")
    attack_on = {who: ActionSpec(kind=ActionKind.ATTACK, target=VIN + THUG - who) for who in (VIN, THUG)}
    for command in (
        Join(character_id=VIN),
        Join(character_id=THUG),
        Begin(),
        Declare(participant=THUG, action=attack_on[THUG], dice=DiceSpec(stat="Physique")),
        Declare(participant=VIN, action=attack_on[VIN], dice=DiceSpec(stat="Physique")),
        Act(participant=THUG, pool=5),
    ):
        state = apply(state, command, sheets, rng).state
    return Defence(state, sheets)


def phases(defence: Defence, moves: int) -> dict[str, Callable[[], object]]:
    """Each phase of the click's own work, ready to run again and again: the rules, the new
    document written, the reply's embed, and the document read back (what a move pays when its
    state is not remembered, ``storage.conflict_documents``).

    The rules run on the same state each time. The writing and the embed take each time the next
    of ``moves`` defences made beforehand, as a move finds them: what the defence changed is new,
    and the rest is shared with the state before it, which the previous move wrote (its log's
    JSON remembered, ``rules.conflict.engine``)."""
    rng = random.Random(11)
    command = Defend(participant=VIN, dice=defence.state.participant(VIN).pile)
    dump_conflict(defence.state)
    made = [apply(defence.state, command, defence.sheets, rng) for _ in range(moves)]
    written, shown = cycle(made), cycle(made)
    document = dump_conflict(made[0].state)
    return {
        "rules: the defence applied": lambda: apply(defence.state, command, defence.sheets, rng),
        "document: the new state written": lambda: dump_conflict(next(written).state),
        "reply: the outcome's embed": lambda: _embed(next(shown)),
        "document read back (not remembered)": lambda: load_conflict(document),
    }


def _embed(made: Transition) -> object:
    return events_embed(made.state, made.events, title="Defence")


class Sweeper:
    """Evicts this process's code and data from the CPU's caches by copying a large buffer."""

    def __init__(self, size: int = SWEEP_BYTES) -> None:
        self.source = bytearray(b"\x01") * size
        self.target = bytearray(size)

    def __call__(self) -> None:
        self.target[:] = self.source


def median_us(work: Callable[[], object], samples: int, before: Callable[[], None] | None) -> float:
    """The median thread CPU time of ``work`` in µs, each sample after ``before`` if given."""
    times = []
    for _ in range(samples):
        if before is not None:
            before()
        start = time.thread_time()
        work()
        times.append(time.thread_time() - start)
    return statistics.median(times) * 1e6
