"""A Conflict action's task (docs/rulings.md §9.10): what the action leans on (senses, strength, …)
adds the dice ``/roll task:`` adds, by the same rule (``rules.powers.rolls.sheet_parts``), and each
part is counted once beside what the Conflict adds itself (Atium, storing Steel, a held emotion,
a tap)."""

from collections import Counter
from typing import Any

import pytest

from rules.character import Character, find_stat
from rules.character.metals import Task
from rules.conflict import Act, ActionKind, ActionSpec, Declare, Defend, DiceSpec, next_declarer
from rules.conflict.specs import TapSpec
from rules.powers.rolls import power_roll
from tests.rules.conflict.builders import THUG, Table, declare_attack, declare_nothing, of_type, sheet

HERO = 1

TINEYE: dict[str, Any] = {
    "powers": [{"type": "allomancy", "name": "Tin", "rating": 5, "stunts": ["Focused Sense"]}],
    "allomancy": {"burning": ["Tin"]},
}
PEWTERARM: dict[str, Any] = {
    "powers": [{"type": "allomancy", "name": "Pewter", "rating": 3, "stunts": ["Prodigious Strength"]}],
    "allomancy": {"burning": ["Pewter"]},
}
SOOTHER: dict[str, Any] = {
    "powers": [{"type": "allomancy", "name": "Brass", "rating": 5, "stunts": ["Tug/Push Emotion"]}],
    "allomancy": {"burning": ["Brass"], "hold": {"metal": "Brass", "dice": 2}},
}
ATIUM_TINEYE: dict[str, Any] = {
    "powers": [
        {"type": "allomancy", "name": "Tin", "rating": 4},
        {"type": "allomancy", "name": "Atium", "rating": 3},
    ],
    "allomancy": {"burning": ["Tin", "Atium"]},
}
TIN_SAVANT: dict[str, Any] = {
    "powers": [{"type": "allomancy", "name": "Tin", "rating": 7}],
    "allomancy": {"savants": ["Tin"]},
}
INQUISITOR: dict[str, Any] = {
    "physique": 6,
    "charm": 4,
    "hemalurgy": {"spikes": [{"metal": "Iron"}, {"metal": "Iron"}, {"metal": "Tin"}]},
}
KANDRA: dict[str, Any] = {"hemalurgy": {"blessings": ["awareness"]}}


def keeper(metal: str, rate: int) -> dict[str, Any]:
    return {
        "physique": 6,
        "wits": 6,
        "powers": [{"type": "feruchemy", "name": metal, "rating": 4}],
        "feruchemy": {"storing": [{"metal": metal, "rate": rate}]},
    }


CASES: list[tuple[str, dict[str, Any], str, Task | None, dict[str, int]]] = [
    ("Tin on a sense roll", TINEYE, "Wits", Task.SENSES, {"Tin": 5, "Focused Sense": 1}),
    ("Tin needs the senses", TINEYE, "Wits", None, {}),
    ("Tin only on Wits", TINEYE, "Physique", Task.SENSES, {"Focused Sense": 1}),
    ("Prodigious Strength", PEWTERARM, "Physique", Task.STRENGTH, {"Pewter": 3, "Prodigious Strength": 1}),
    ("no strength, no Stunt", PEWTERARM, "Physique", Task.SPEED, {"Pewter": 3}),
    ("Iron spikes and a Tin spike", INQUISITOR, "Physique", Task.STRENGTH, {"Iron spikes": 3}),
    ("a Tin spike on the senses", INQUISITOR, "Wits", Task.SENSES, {"Tin spike": 2}),
    ("Awareness", KANDRA, "Wits", Task.SENSES, {"Awareness": 2}),
    ("a Tin Savant not burning", TIN_SAVANT, "Wits", Task.SENSES, {"Tin Savant, not burning": -1}),
    ("storing Pewter on strength", keeper("Pewter", 2), "Physique", Task.STRENGTH, {"Storing Pewter": -2}),
    ("storing Pewter elsewhere", keeper("Pewter", 2), "Physique", Task.SPEED, {}),
    ("storing Steel on speed: once", keeper("Steel", 2), "Physique", Task.SPEED, {"Storing Steel": -2}),
    ("storing Steel on any action", keeper("Steel", 2), "Physique", None, {"Storing Steel": -2}),
    ("a held emotion: once", SOOTHER, "Charm", None, {"Soothing": 2, "Tug/Push Emotion": 1}),
    ("a held emotion, a task too", SOOTHER, "Charm", Task.SENSES, {"Soothing": 2, "Tug/Push Emotion": 1}),
    ("Atium once, beside Tin", ATIUM_TINEYE, "Wits", Task.SENSES, {"Atium": 3, "Tin": 4}),
]


def in_turn(table: Table, hero: Declare) -> None:
    """The hero's declaration and the Thug's nothing, in the declaring order (Atium goes last)."""
    thug = declare_nothing(THUG)
    first = next_declarer(table.state)
    table.do(*((hero, thug) if first is not None and first.id == HERO else (thug, hero)))


def declared_parts(fields: dict[str, Any], stat: str, task: Task | None, **dice: Any) -> Counter[str]:
    """The parts of the Action Dice a hero's attack on ``stat`` about ``task`` is figured with,
    each label with its dice summed, the rating left out."""
    hero = sheet("Hero", **fields)
    table = Table.start({HERO: hero, THUG: sheet("Thug", "villain", physique=5)})
    in_turn(table, declare_attack(HERO, THUG, stat, task=task, **dice))
    parts: Counter[str] = Counter()
    for part in table.declaration(HERO).pool[1:]:
        parts[part.label] += part.dice
    return parts


@pytest.mark.parametrize(("why", "fields", "stat", "task", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_part_of_the_task_is_counted_once(
    why: str, fields: dict[str, Any], stat: str, task: Task | None, expected: dict[str, int]
) -> None:
    """§9.10: the task's parts join the Action Dice, each named once, whatever the Conflict adds."""
    assert declared_parts(fields, stat, task) == Counter(expected), why


@pytest.mark.parametrize(("why", "fields", "stat", "task", "expected"), CASES, ids=[c[0] for c in CASES])
def test_an_action_takes_what_a_roll_takes(
    why: str, fields: dict[str, Any], stat: str, task: Task | None, expected: dict[str, int]
) -> None:
    """One rule: the roll's parts and the action's are the same, but for storing Steel, which a
    Conflict takes off every action instead of off speed rolls (§9.4)."""
    hero = sheet("Hero", **fields)
    rolled = Counter[str]()
    for label, dice in power_roll(hero, find_stat(hero, stat), task).modifiers:
        rolled[label] += dice
    declared = declared_parts(fields, stat, task)
    declared.pop("Pewter", None)  # the rating's own part: ``rating_parts``, on both
    if task is not Task.SPEED:
        declared.pop("Storing Steel", None)
    assert declared == rolled, why


def test_a_tap_names_the_task_as_on_a_roll() -> None:
    """A tap for the metal's effect names its task when the action names none (§9.10): Pewter
    tapped is a strength action, so Prodigious Strength helps it."""
    fields = {
        **PEWTERARM,
        "powers": [*PEWTERARM["powers"], {"type": "feruchemy", "name": "Pewter", "rating": 3}],
    }
    mind = {"kind": "metalmind", "metal": "Pewter", "size": "average", "charges": 10}
    fields["props"] = [{"name": "Pewter bracer", "implement": mind}]
    parts = declared_parts(fields, "Physique", None, tap=TapSpec(metal="Pewter", charges=2))
    assert parts == Counter({"Pewter": 3, "Prodigious Strength": 1, "Pewter tapped": 2})


def test_a_full_defence_leans_on_its_task_too() -> None:
    table = Table.start({HERO: sheet("Hero", **TINEYE), THUG: sheet("Thug", "villain")})
    defence = ActionSpec(kind=ActionKind.FULL_DEFENCE)
    in_turn(table, Declare(participant=HERO, action=defence, dice=DiceSpec(stat="Wits", task=Task.SENSES)))
    assert table.dice(HERO) == (0, 3 + 5 + 1)


def test_the_task_is_kept_with_the_declaration() -> None:
    hero: Character = sheet("Hero", **TINEYE)
    table = Table.start({HERO: hero, THUG: sheet("Thug", "villain")})
    in_turn(table, declare_attack(HERO, THUG, "Wits", task=Task.SENSES))
    dice = table.declaration(HERO).dice
    assert dice is not None and dice.task is Task.SENSES
    assert table.dice(HERO) == (3 + 5 + 1, 0)


STEEL_SAVANT: dict[str, Any] = {
    "powers": [{"type": "allomancy", "name": "Steel", "rating": 7}],
    "allomancy": {"burning": ["Steel"], "savants": ["Steel"]},
}


@pytest.mark.parametrize(("stat", "nudges"), [("Steel", 2), ("Physique", 0)])
def test_a_savants_free_nudges_ride_on_an_action_of_their_metal(stat: str, nudges: int) -> None:
    """§9.3, §9.10: a Savant's 2 free Nudges on a won action rolling their metal, as on a roll."""
    table = Table.start({HERO: sheet("Hero", **STEEL_SAVANT), THUG: sheet("Thug", "villain", physique=5)})
    in_turn(table, declare_attack(HERO, THUG, stat))
    table.do(Act(participant=HERO, pool=3))
    events = table.do(Defend(participant=THUG, dice=0, attack_faces=(3, 3, 1)))
    (resolved,) = of_type(events, "resolved")
    assert resolved.success and resolved.nudges == nudges
