"""Steelpushes and Ironpulls as attacks in a Conflict (docs/rulings.md §9.3, §9.7)."""

from typing import Any

import pytest

from rules.character import Character, make_character
from rules.conflict import Act, ActionKind, ActionSpec, Burn, ConflictType, Declare, Defend, SpendNudges
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
from tests.rules.conflict.test_damage import hit


def _coinshot(table: Table, *stunts: str) -> None:
    """Vin's Steel with ``stunts`` taken on it."""
    vin: Character = table.sheets[VIN]
    powers = tuple(p.model_copy(update={"stunts": stunts}) if p.name == "Steel" else p for p in vin.powers)
    table.sheets[VIN] = vin.model_copy(update={"powers": powers})


def push_table(*stunts: str, burn: str | None = "Steel") -> Table:
    table = Table.start(pick(VIN, THUG, BRUTE))
    _coinshot(table, *stunts)
    if burn is not None:
        table.do(Burn(participant=VIN, metal=burn))
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    return table


@pytest.mark.parametrize(
    ("size", "stunts", "nudges", "weapon"),
    [
        (ObjectSize.SMALL, (), 0, 1),
        (ObjectSize.MEDIUM, (), 1, 2),
        (ObjectSize.LARGE, (), 2, 3),
        (ObjectSize.SMALL, ("Increased Velocity",), 0, 2),
        (ObjectSize.LARGE, ("Increased Velocity",), 1, 4),
    ],
)
def test_a_push_adds_the_objects_bonus_not_the_dagger(
    size: ObjectSize, stunts: tuple[str, ...], nudges: int, weapon: int
) -> None:
    """§9.3: the object's +1/+2/+3 is the weapon (Vin's Dagger stays in her belt); §9.7:
    Increased Velocity adds 1 while Steel burns. Thug's leather takes 1, as from any blow."""
    table = push_table(*stunts)
    table.do(declare_attack(VIN, THUG, stat="Steel", push=size))
    declared = table.declaration(VIN).action
    assert declared.attack_kind is ConflictType.PHYSICAL
    hit(table, VIN, THUG, 5, nudges)
    if nudges:
        table.do(SpendNudges(participant=VIN, damage=nudges))
    (dealt,) = of_type(table.last.events, "damage_dealt")
    assert (dealt.weapon, dealt.armour) == (weapon, 1)
    assert dealt.amount == 1 + nudges + weapon - 1
    assert dealt.weapon_name == f"pushed {size.value} object"


@pytest.mark.parametrize(
    ("burn", "action", "refusal"),
    [
        (None, {"push": ObjectSize.SMALL}, "must be burning Steel or Iron"),
        ("Pewter", {"push": ObjectSize.SMALL}, "must be burning Steel or Iron"),
        ("Steel", {"push": ObjectSize.SMALL, "weapon": "Dagger"}, "pushed object is the attack's weapon"),
        ("Steel", {"push": ObjectSize.SMALL, "weapon_bonus": 0}, "pushed object is the attack's weapon"),
    ],
)
def test_only_a_steel_or_iron_burner_pushes(burn: str | None, action: dict[str, Any], refusal: str) -> None:
    table = push_table(burn=burn)
    table.refuse(declare_attack(VIN, THUG, stat="Steel", **action), refusal)


@pytest.mark.parametrize("kind", [ActionKind.NO_ROLL, ActionKind.FULL_DEFENCE, ActionKind.ACTION])
def test_only_an_attack_pushes(kind: ActionKind) -> None:
    table = push_table()
    action = ActionSpec(kind=kind, push=ObjectSize.SMALL, target=THUG if kind is ActionKind.ACTION else None)
    dice = None if kind is ActionKind.NO_ROLL else declare_attack(VIN, THUG, stat="Steel").dice
    table.refuse(
        Declare(participant=VIN, action=action, dice=dice), "takes no pushed object|Only an attack pushes"
    )


def lurcher_table(brute: Declare | None = None) -> Table:
    """Vin burns Steel; the Brute is a Lurcher (Iron 4, Improved Redirection) burning Iron."""
    table = Table.start(pick(VIN, THUG, BRUTE))
    brute_sheet = table.sheets[BRUTE]
    iron = {"type": "allomancy", "name": "Iron", "rating": 4, "stunts": ["Improved Redirection"]}
    lurcher = make_character(**{**brute_sheet.model_dump(exclude={"id"}), "powers": [iron]})
    table.sheets[BRUTE] = lurcher
    table.do(Burn(participant=VIN, metal="Steel"), Burn(participant=BRUTE, metal="Iron"))
    table.do(declare_nothing(THUG), brute or declare_defence(BRUTE))
    return table


def test_a_lurcher_deflects_a_push_with_improved_redirections_die() -> None:
    """§9.3: an ordinary defence from the pile; §9.7: Improved Redirection's die rolls with it."""
    table = lurcher_table()
    table.do(declare_attack(VIN, BRUTE, stat="Steel", push=ObjectSize.SMALL), Act(participant=VIN, pool=5))
    events = table.do(Defend(participant=BRUTE, dice=2, deflect=True))
    (defended,) = of_type(events, "defended")
    assert (defended.deflected, defended.redirection, defended.left) == ("Iron", 1, 4)
    (resolved,) = of_type(events, "resolved")
    assert len(resolved.contest.opposing.faces) == 3


def test_a_busy_lurcher_deflects_with_iron_not_physique() -> None:
    table = lurcher_table(declare_nothing(BRUTE))
    table.do(declare_attack(VIN, BRUTE, stat="Steel", metal=True), Act(participant=VIN, pool=5))
    events = table.do(Defend(participant=BRUTE, dice=2, deflect=True))
    (granted,) = of_type(events, "defence_granted")
    assert granted.dice == 4 and granted.pool[0].label == "Iron"


def test_only_a_metal_attack_is_deflected() -> None:
    table = lurcher_table()
    table.do(declare_attack(VIN, BRUTE), Act(participant=VIN, pool=4))  # her Dagger, in her hand
    table.refuse(Defend(participant=BRUTE, dice=2, deflect=True), "Only a metal attack")


def test_only_a_steel_or_iron_burner_deflects() -> None:
    table = lurcher_table(declare_attack(BRUTE, THUG, metal=True))
    table.do(declare_nothing(VIN), Act(participant=BRUTE, pool=4))
    table.refuse(Defend(participant=THUG, dice=2, deflect=True), "Only a Steel or Iron burner deflects")
