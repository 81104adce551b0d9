"""Small helpers for building Conflicts in tests: plain sheets and a table that applies commands."""

import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules.character import Character, make_character
from rules.conflict import (
    ActionKind,
    ActionSpec,
    Begin,
    Command,
    Conflict,
    Declaration,
    Declare,
    DiceSpec,
    Event,
    Join,
    Participant,
    Side,
    Transition,
    Waiting,
    apply,
    new_conflict,
)
from rules.errors import RulesError


def sheet(name: str, kind: str = "hero", **fields: Any) -> Character:
    """A sheet with Attributes 3/3/3 unless given (``physique=5`` etc. as shortcuts)."""
    attributes = {"physique": 3, "charm": 3, "wits": 3}
    for key in list(attributes):
        if key in fields:
            attributes[key] = fields.pop(key)
    return make_character(name=name, kind=kind, owner_id=1, attributes=attributes, **fields)


def attack(target: int, stat: str = "Physique", **action: Any) -> tuple[ActionSpec, DiceSpec]:
    dice = {k: action.pop(k) for k in list(action) if k in DiceSpec.model_fields}
    return ActionSpec(kind=ActionKind.ATTACK, target=target, **action), DiceSpec(stat=stat, **dice)


def declare_attack(participant: int, target: int, stat: str = "Physique", **action: Any) -> Declare:
    spec, dice = attack(target, stat, **action)
    return Declare(participant=participant, action=spec, dice=dice)


def declare_defence(participant: int, stat: str = "Physique", **dice: Any) -> Declare:
    return Declare(
        participant=participant,
        action=ActionSpec(kind=ActionKind.FULL_DEFENCE),
        dice=DiceSpec(stat=stat, **dice),
    )


def declare_nothing(participant: int) -> Declare:
    return Declare(participant=participant, action=ActionSpec(kind=ActionKind.NO_ROLL))


class Table:
    """A Conflict and its sheets, changed only by applying commands through the engine."""

    def __init__(self, state: Conflict, sheets: dict[int, Character], seed: int = 1) -> None:
        self.state = state
        self.sheets = dict(sheets)
        self.rng = random.Random(seed)
        self._last: Transition | None = None
        self.revealed: frozenset[int] = frozenset()
        """The Villains and Extras a Narrator revealed (docs/rulings.md §7.1)."""

    @classmethod
    def start(
        cls,
        sheets: dict[int, Character],
        *,
        conflict_type: str = "physical",
        sides: dict[int, Side] | None = None,
        surprised: tuple[int, ...] = (),
        begin: bool = True,
    ) -> "Table":
        """The cast joined and (unless ``begin`` is False) round 1 opened by the Narrator."""
        table = cls(new_conflict(1, conflict_type, "Test stakes"), sheets)
        for character_id in sheets:
            side = (sides or {}).get(character_id)
            table.do(Join(character_id=character_id, side=side, surprised=character_id in surprised))
        if begin and sheets:
            table.do(Begin())
        return table

    def do(self, *commands: Command) -> tuple[Event, ...]:
        events: list[Event] = []
        for command in commands:
            step = apply(self.state, command, self.sheets, self.rng, self.revealed)
            assert Conflict.model_validate_json(step.state.model_dump_json()) == step.state
            self.sheets.update(step.changed_sheets)
            self.state = step.state
            self._last = step
            events.extend(step.events)
        return tuple(events)

    def refuse(self, command: Command, match: str) -> RulesError:
        before = self.state
        with pytest.raises(RulesError, match=match) as info:
            apply(self.state, command, self.sheets, self.rng, self.revealed)
        assert self.state == before
        return info.value

    @property
    def last(self) -> Transition:
        """The transition of the last command applied."""
        assert self._last is not None, "no command applied yet"
        return self._last

    def p(self, participant_id: int) -> Participant:
        return self.state.participant(participant_id)

    def declaration(self, participant_id: int) -> Declaration:
        """What the participant declared this round (they must have)."""
        declared = self.p(participant_id).round.declaration
        assert declared is not None, f"participant {participant_id} has not declared"
        return declared

    def dice(self, participant_id: int) -> tuple[int, int]:
        state = self.p(participant_id).round
        return state.action_dice, state.defense_dice


def of_type(events: tuple[Event, ...], kind: str) -> list[Any]:
    """The events of one kind. Typed Any: each kind is its own event class, and the tests read
    the fields of the kind they asked for by name."""
    return [e for e in events if e.type == kind]


def waiting(events: Sequence[Event]) -> Waiting:
    """The last event, which says whose move it is now (it must be one)."""
    last = events[-1]
    assert isinstance(last, Waiting), last
    return last


VIN, KELL, THUG, BRUTE, CROWD = 1, 2, 3, 4, 5


def cast() -> dict[int, Character]:
    """A small cast for rule tests: two Heroes, two Villains and a crowd of Extras."""
    return {
        VIN: sheet(
            "Vin",
            physique=4,
            charm=3,
            wits=4,
            standings={"resources": 4, "influence": 3, "spirit": 5},
            traits={"specialty": "knife fighter"},
            powers=[
                {"type": "allomancy", "name": "Pewter", "rating": 3},
                {"type": "allomancy", "name": "Steel", "rating": 5},
            ],
            props=[{"name": "Dagger", "weapon": 1}, {"name": "Cloak"}],
        ),
        KELL: sheet(
            "Kelsier", physique=3, charm=5, wits=5, standings={"resources": 6, "influence": 5, "spirit": 4}
        ),
        THUG: sheet(
            "Thug",
            "villain",
            physique=5,
            charm=2,
            wits=2,
            props=[{"name": "Club", "weapon": 2}, {"name": "Leather", "armour": 1}],
        ),
        BRUTE: sheet("Brute", "villain", physique=6, charm=1, wits=3, props=[{"name": "Mail", "armour": 2}]),
        CROWD: sheet("Crowd", "extra", size=4, physique=2, charm=2, wits=1),
    }


def pick(*ids: int) -> dict[int, Character]:
    full = cast()
    return {i: full[i] for i in ids}
