"""What a Contest over metal does beyond winning it (docs/rulings.md §9.3, §9.7): metal in a body
moves only on Outcome 5 or more, and a won deflection catches the object with 2 Nudges of the
deflector's own (Reflect Ranged Attack first), or an Iron burner may draw it in."""

from typing import Any

import pytest

from rules.character import make_character
from rules.conflict import Act, ActionKind, ActionSpec, Burn, Declare, Defend, DiceSpec
from rules.powers.pushes import ObjectSize
from tests.rules.conflict.builders import (
    BRUTE,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
)
from tests.rules.conflict.test_atium import table_of


def inside(target: int, **action: Any) -> Declare:
    spec = ActionSpec(kind=ActionKind.ACTION, target=target, held=True, inside=True, **action)
    return Declare(participant=VIN, action=spec, dice=DiceSpec(stat="Steel"))


@pytest.mark.parametrize(
    ("attack_faces", "defence_faces", "outcome", "moves"),
    [
        # The Outcome is Vin's Result (his highest set) less the Thug's (none with 1 2).
        ((5, 5, 1, 2, 3), (1, 2), 5, True),
        ((5, 5, 1, 2, 3), (1, 1), 4, False),  # won by 5 − 1, short of 5
        ((4, 4, 1, 2, 3), (1, 2), 4, False),
        ((3, 3, 1, 2, 5), (4, 4), -1, False),  # lost outright
    ],
)
def test_metal_in_a_body_moves_only_on_outcome_five(
    attack_faces: tuple[int, ...], defence_faces: tuple[int, ...], outcome: int, moves: bool
) -> None:
    """§9.3: a Contest won with Outcome 5 or more; a smaller win fails, with no Nudges to spend."""
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE), inside(THUG))
    table.do(Act(participant=VIN, pool=5))
    events = table.do(
        Defend(participant=THUG, dice=2, attack_faces=attack_faces, defence_faces=defence_faces)
    )
    (resolved,) = of_type(events, "resolved")
    assert resolved.in_body
    if outcome > 0:
        assert resolved.contest.acting_succeeds and resolved.contest.outcome == outcome
    assert (resolved.success, resolved.wrested) == (moves, moves)
    assert not resolved.awaiting_nudges or moves
    assert table.state.pending is None or moves


@pytest.mark.parametrize(
    ("spec", "refusal"),
    [
        ({"kind": ActionKind.ACTION, "target": THUG, "inside": True}, "add held"),
        ({"kind": ActionKind.ATTACK, "target": THUG, "inside": True}, "declare it as an action"),
        ({"kind": ActionKind.NO_ROLL, "inside": True}, "takes no metal in a body"),
    ],
)
def test_inside_goes_with_a_held_object_only(spec: dict[str, Any], refusal: str) -> None:
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    dice = None if spec["kind"] is ActionKind.NO_ROLL else DiceSpec(stat="Steel")
    table.refuse(Declare(participant=VIN, action=ActionSpec(**spec), dice=dice), refusal)


def _deflector(table: Table, metal: str, *stunts: str) -> None:
    sheet = table.sheets[BRUTE]
    power = {"type": "allomancy", "name": metal, "rating": 4, "stunts": list(stunts)}
    data = sheet.model_dump(exclude={"id"})
    table.sheets[BRUTE] = make_character(**{**data, "powers": [power]})


@pytest.mark.parametrize(
    ("metal", "stunts", "defence_faces", "caught", "draws", "reflected"),
    [
        # Vin: Result 3, no Nudges. The Brute: Result 5 and the sixes as Nudges.
        ("Steel", (), (5, 5, 6, 6), True, False, False),  # 2 Nudges catch it
        ("Iron", (), (5, 5, 6, 6), True, False, False),  # caught beats drawn in
        ("Steel", (), (5, 5, 6, 1), False, False, False),  # 1 Nudge: it only misses
        ("Iron", (), (5, 5, 6, 1), False, True, False),  # Iron may draw it in
        ("Iron", ("Reflect Ranged Attack",), (5, 5, 6, 6), False, False, True),  # the Stunt first
        ("Iron", ("Reflect Ranged Attack",), (5, 5, 6, 1), False, True, False),
    ],
)
def test_a_won_deflection_catches_draws_in_or_sends_back(
    metal: str,
    stunts: tuple[str, ...],
    defence_faces: tuple[int, ...],
    caught: bool,
    draws: bool,
    reflected: bool,
) -> None:
    """§9.3, §9.7: 2 Nudges of the deflector's own catch the object, unless Reflect Ranged Attack
    sends it back; an Iron burner may draw a missed object in."""
    table = Table.start(pick(VIN, THUG, BRUTE))
    _deflector(table, metal, *stunts)
    table.do(Burn(participant=VIN, metal="Steel"), Burn(participant=BRUTE, metal=metal))
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.do(declare_attack(VIN, BRUTE, stat="Steel", push=ObjectSize.SMALL), Act(participant=VIN, pool=5))
    events = table.do(
        Defend(
            participant=BRUTE,
            dice=len(defence_faces),
            deflect=True,
            attack_faces=(3, 3, 1, 1, 1),
            defence_faces=defence_faces,
        )
    )
    (resolved,) = of_type(events, "resolved")
    assert (resolved.deflected, resolved.caught, resolved.draws) == (metal, caught, draws)
    assert bool(of_type(events, "damage_dealt")) == reflected


def test_an_ordinary_defence_that_wins_catches_nothing() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    _deflector(table, "Iron")
    table.do(Burn(participant=VIN, metal="Steel"), Burn(participant=BRUTE, metal="Iron"))
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.do(declare_attack(VIN, BRUTE, stat="Steel", push=ObjectSize.SMALL), Act(participant=VIN, pool=5))
    events = table.do(
        Defend(participant=BRUTE, dice=4, attack_faces=(3, 3, 1, 1, 1), defence_faces=(5, 5, 6, 6))
    )
    (resolved,) = of_type(events, "resolved")
    assert (resolved.deflected, resolved.caught, resolved.draws) == ("", False, False)
