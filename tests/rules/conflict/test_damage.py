"""Successes: damage, wounds, and the other uses of Nudges (docs/rulings.md §2, §5); defeat and
Extras are ``test_defeat.py``'s."""

from typing import Any

import pytest

from rules.burdens import Severity
from rules.character import Resilience
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    ConflictType,
    Declare,
    Defend,
    DiceSpec,
    NextRound,
    Pass,
    SpendNudges,
    Step,
    current_turn,
    resolve_order,
)
from tests.rules.conflict.builders import (
    BRUTE,
    KELL,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
    waiting,
)


def hit(table: Table, attacker: int, target: int, pool: int, sixes: int) -> None:
    """A certain success with ``sixes`` Nudges, against no defence."""
    faces = (6,) * sixes + (3, 3) + (1,) * (pool - sixes - 2)
    table.do(Act(participant=attacker, pool=pool))
    if table.state.pending is not None:
        table.do(Defend(participant=target, dice=0, attack_faces=faces))


def vin_hits_thug(sixes: int = 3, **action: Any) -> Table:
    """Vin (Physique 4 + 2 Traits = 6 dice) attacks Thug, who does nothing this round."""
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG, traits_for=2, **action))
    hit(table, VIN, THUG, 6, sixes)
    return table


@pytest.mark.parametrize(
    ("action", "nudges", "expected"),
    [
        # Unnamed, the weapon is Vin's best weapon Prop, her Dagger (+1) (docs/rulings.md §5.2).
        ({}, 0, 1 + 1 - 1),  # less Thug's leather armour 1
        ({}, 3, 1 + 3 + 1 - 1),
        ({"weapon_bonus": 0}, 0, 1 - 1),  # unarmed
        ({"weapon": "Dagger"}, 2, 1 + 2 + 1 - 1),
        ({"weapon_bonus": 4}, 0, 1 + 4 - 1),
        ({"armour": 0}, 0, 1 + 1),
        ({"armour": 3}, 1, 0),  # never below 0
        # A Physique blow is physical whatever it aims at: armour counts (docs/rulings.md §5.2).
        ({"resilience": Resilience.REPUTATION}, 0, 1 + 1 - 1),
        ({"resilience": Resilience.WILLPOWER, "weapon_bonus": 2}, 2, 1 + 2 + 2 - 1),
        # Social and mental attacks ignore armour, even aimed at Health, and add no blade
        # unless they name a Prop (docs/rulings.md §5.1).
        ({"attack_kind": ConflictType.SOCIAL}, 0, 1),
        ({"attack_kind": ConflictType.SOCIAL, "resilience": Resilience.HEALTH}, 0, 1),
        ({"attack_kind": ConflictType.SOCIAL, "weapon": "Dagger"}, 1, 1 + 1 + 1),
        ({"attack_kind": ConflictType.MENTAL}, 2, 1 + 2),
        ({"attack_kind": ConflictType.MENTAL, "weapon_bonus": 1}, 1, 1 + 1 + 1),
    ],
)
def test_damage_is_one_plus_nudges_plus_weapon_less_armour(
    action: dict[str, Any], nudges: int, expected: int
) -> None:
    """docs/rulings.md §5.1–5.2: 1 + Nudges + weapon, less armour against a physical attack
    only, whatever Resilience it aims at; never below 0."""
    table = vin_hits_thug(sixes=nudges, **action)
    if nudges:
        table.do(SpendNudges(participant=VIN, damage=nudges))
    (dealt,) = of_type(table.last.events, "damage_dealt")
    assert dealt.amount == expected
    kind = action.get("attack_kind", ConflictType.PHYSICAL)
    assert dealt.armour == (action.get("armour", 1) if kind is ConflictType.PHYSICAL else 0)
    resilience = action.get("resilience", kind.resilience)
    assert dealt.resilience is resilience
    # Thug's Reputation and Willpower are only 4: the damage beyond it is lost.
    assert table.sheets[THUG].damage.get(resilience) == dealt.taken == min(expected, 4)


@pytest.mark.parametrize(
    ("spend", "message"),
    [
        ({"damage": 2, "story": 2}, "has 3 Nudges to spend; that spends 4"),
        ({"damage": -1}, "between 0 and 99"),
        ({"catch_beat": True, "damage": 1}, "spends every Nudge"),
        ({"participant": THUG}, "Only Vin can spend"),
        ({"attack_id": 9}, "already spent"),
    ],
)
def test_spending_refusals(spend: dict[str, Any], message: str) -> None:
    table = vin_hits_thug(sixes=3)
    table.refuse(SpendNudges(**{"participant": VIN, **spend}), message)


def test_no_nudges_to_spend() -> None:
    table = vin_hits_thug(sixes=0)
    table.refuse(SpendNudges(participant=VIN), "no Nudges waiting")
    table.refuse(Defend(participant=THUG, dice=0), "no attack")


def test_catching_a_beat_needs_three_nudges() -> None:
    table = vin_hits_thug(sixes=2)
    table.refuse(SpendNudges(participant=VIN, catch_beat=True), "3 or more Nudges; there are 2")


def test_a_beat_gives_an_extra_action_at_once_from_the_dice_left() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_attack(THUG, VIN), declare_attack(BRUTE, VIN), declare_attack(VIN, THUG, traits_for=3))
    assert current_turn(table.state) == (VIN,)
    hit(table, VIN, THUG, 5, 3)
    events = table.do(SpendNudges(participant=VIN, catch_beat=True))
    assert of_type(events, "nudges_spent")[0].unspent == 0
    assert of_type(events, "beat_caught")[0].dice == 2
    assert waiting(events).step is Step.ACT and waiting(events).participants == (VIN,)
    table.refuse(Act(participant=BRUTE, pool=2), "Vin caught a Beat")
    table.refuse(Pass(participant=BRUTE), "Vin caught a Beat")
    table.refuse(Act(participant=VIN, pool=3), "only 2 Defense Dice")
    table.refuse(Act(participant=VIN, pool=2, action=ActionSpec(kind=ActionKind.NO_ROLL)), "rolled one")
    events = table.do(
        Act(participant=VIN, pool=2, action=ActionSpec(kind=ActionKind.ATTACK, target=BRUTE, weapon="Dagger"))
    )
    assert of_type(events, "acted")[0].extra
    events = table.do(Defend(participant=BRUTE, dice=0, attack_faces=(4, 4)))
    assert of_type(events, "damage_dealt")[0].amount == 0  # 1 + dagger 1 - mail 2
    assert table.dice(VIN) == (0, 0)
    assert current_turn(table.state) == (BRUTE,)


def test_a_beat_needs_two_dice_left_and_can_be_declined() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_nothing(THUG), declare_attack(VIN, THUG, traits_for=2))
    hit(table, VIN, THUG, 5, 3)
    table.refuse(SpendNudges(participant=VIN, catch_beat=True), "has 1 dice left")
    table = Table.start(pick(VIN, THUG))
    table.do(declare_nothing(THUG), declare_attack(VIN, THUG, traits_for=3))
    hit(table, VIN, THUG, 5, 3)
    table.do(SpendNudges(participant=VIN, catch_beat=True))
    events = table.do(Pass(participant=VIN))
    assert of_type(events, "passed")[0].declined_beat
    assert waiting(events).step is Step.NEXT_ROUND
    assert table.dice(VIN) == (0, 2)


def test_nudges_remove_dice_and_move_the_target_down() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_attack(THUG, VIN), declare_attack(BRUTE, VIN), declare_attack(VIN, THUG, traits_for=3))
    hit(table, VIN, THUG, 4, 2)
    events = table.do(SpendNudges(participant=VIN, remove_dice=2))
    assert of_type(events, "dice_removed")[0].removed == 2
    assert table.dice(THUG) == (3, 0)
    assert resolve_order(table.state) == ((BRUTE,), (THUG,))
    assert table.p(THUG).round.removed == 2


def test_removing_more_dice_than_held_stops_at_zero() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_defence(THUG, traits_against=3), declare_attack(VIN, THUG, traits_for=3))
    hit(table, VIN, THUG, 7, 4)
    events = table.do(SpendNudges(participant=VIN, remove_dice=4))
    assert of_type(events, "dice_removed")[0].removed == 2
    assert table.dice(THUG) == (0, 0)


def test_next_round_nudges_become_action_dice_when_declaring() -> None:
    table = vin_hits_thug(sixes=3)
    table.do(SpendNudges(participant=VIN, next_round=2, story=1))
    assert table.p(VIN).next_round_dice == 2
    table.do(NextRound())
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    events = table.do(declare_attack(VIN, THUG))
    assert of_type(events, "declared")[0].bonus == 2
    assert table.dice(VIN) == (4 + 2, 0)
    assert table.p(VIN).next_round_dice == 0


def test_next_round_dice_are_lost_on_a_no_roll_action() -> None:
    table = vin_hits_thug(sixes=1)
    table.do(SpendNudges(participant=VIN, next_round=1))
    table.do(NextRound(), declare_nothing(THUG), declare_defence(BRUTE))
    events = table.do(declare_nothing(VIN))
    assert of_type(events, "declared")[0].bonus_lost == 1


def test_nudges_of_an_action_that_deals_no_damage() -> None:
    table = Table.start(pick(VIN, KELL))
    table.do(
        Declare(participant=VIN, action=ActionSpec(kind=ActionKind.ACTION), dice=DiceSpec(stat="Wits")),
        declare_nothing(KELL),
    )
    table.do(Act(participant=VIN, pool=4, faces=(6, 6, 2, 2)))
    table.refuse(SpendNudges(participant=VIN, damage=1), "Only an attack deals damage")
    table.refuse(SpendNudges(participant=VIN, remove_dice=1), "no target")
    table.do(SpendNudges(participant=VIN, story=2))
    assert table.state.pending is None


def test_a_heavy_hit_leaves_a_grave_wound() -> None:
    table = vin_hits_thug(sixes=4, weapon="Dagger")  # Thug's Health is 5 + 2 = 7
    events = table.do(SpendNudges(participant=VIN, damage=4))
    (dealt,) = of_type(events, "damage_dealt")
    assert (dealt.amount, dealt.before, dealt.after, dealt.wound) == (5, 7, 2, Severity.GRAVE)


@pytest.mark.parametrize(
    ("called", "weapon", "amount"),
    [
        # Vin's Dagger (+1) counts for a physical blow, and Thug's leather (1) stops it.
        ({}, 1, 1 + 1 - 1),
        # Called mental at the last moment: no blade, no armour (docs/rulings.md §5.1, §5.2).
        ({"attack_kind": ConflictType.MENTAL}, 0, 1),
        ({"attack_kind": ConflictType.SOCIAL, "resilience": Resilience.WILLPOWER}, 0, 1),
        # Only the Resilience changes: still a physical blow.
        ({"resilience": Resilience.WILLPOWER}, 1, 1 + 1 - 1),
        # A Prop named when acting counts, whatever the kind; none is unarmed.
        ({"attack_kind": ConflictType.MENTAL, "weapon": "Dagger"}, 1, 1 + 1),
        ({"weapon_bonus": 0}, 0, 0),
    ],
)
def test_a_kind_called_at_act_is_the_declared_attack_and_sets_the_weapon(
    called: dict[str, Any], weapon: int, amount: int
) -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG, traits_for=2))
    table.do(Act(participant=VIN, pool=6, **called))
    table.do(Defend(participant=THUG, dice=0, attack_faces=(3, 3, 1, 1, 2, 2)))
    (dealt,) = of_type(table.last.events, "damage_dealt")
    assert (dealt.weapon, dealt.amount) == (weapon, amount)
    declared = table.p(VIN).round.declaration
    assert declared is not None
    # One of the two called leaves the other as declared (``Act``).
    assert declared.action.attack_kind is called.get("attack_kind", ConflictType.PHYSICAL)
    assert declared.action.resilience is called.get("resilience", Resilience.HEALTH)


@pytest.mark.parametrize(
    ("act", "message"),
    [
        ({"weapon": "Sword"}, "no Prop called 'Sword'"),
        ({"weapon": "Cloak"}, "not a weapon"),
        ({"weapon": "Dagger", "weapon_bonus": 1}, "not both"),
        ({"weapon_bonus": 5}, "between 0 and 4"),
    ],
)
def test_a_prop_named_when_acting_is_checked(act: dict[str, Any], message: str) -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG, traits_for=2))
    table.refuse(Act(participant=VIN, pool=6, **act), message)


def test_only_an_attack_names_a_prop_when_acting() -> None:
    table = Table.start(pick(VIN, KELL))
    table.do(
        Declare(participant=VIN, action=ActionSpec(kind=ActionKind.ACTION), dice=DiceSpec(stat="Wits")),
        declare_nothing(KELL),
    )
    table.refuse(Act(participant=VIN, pool=2, weapon="Dagger"), "Only an attack uses a weapon")
