"""Defending against an action, and rolling it (docs/rulings.md §3, §4.10)."""

import random
from typing import Any

import pytest

from rules.character import Resilience
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Burn,
    ConflictType,
    Declare,
    Defend,
    DiceSpec,
    NextRound,
    Pass,
    Pile,
    Step,
    apply,
    available_defence,
    resolve_order,
)
from tests.rules.conflict.builders import (
    BRUTE,
    CROWD,
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

HIT = (3, 3)


def duel() -> Table:
    """Brute (6) attacks Vin, Vin (5) attacks Thug, Thug (5) attacks Vin; Brute goes first."""
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(declare_attack(THUG, VIN), declare_attack(BRUTE, VIN), declare_attack(VIN, THUG, traits_for=1))
    return table


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Defend(participant=VIN, dice=1), "0 dice \\(no defence\\) or a pool of 2 to 10; 1 will not do"),
        (Defend(participant=VIN, dice=11), "2 to 10; 11"),
        (Defend(participant=VIN, dice=-2), "-2 will not do"),
        (Defend(participant=VIN, dice=6), "only 5 Action Dice"),
        (Defend(participant=THUG, dice=2), "Only Vin can defend"),
        (Defend(participant=VIN, dice=2, attack_id=7), "already been settled"),
        (Defend(participant=VIN, dice=0, defence_faces=(1, 2)), "leave the faces out"),
        (Defend(participant=VIN, dice=2, traits_for=1), "Reaction Traits"),
        (Defend(participant=VIN, dice=2, defence_faces=(1, 2, 3)), "rolls 2 dice, but 3 faces"),
        (Defend(participant=VIN, dice=2, attack_faces=(7, 1)), "not a face of a die"),
    ],
)
def test_defence_refusals(command: Defend, message: str) -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=2))
    table.refuse(command, message)


def test_no_attack_to_defend_against() -> None:
    table = duel()
    table.refuse(Defend(participant=VIN, dice=2), "no attack to defend against")
    table2 = Table.start(pick(VIN, THUG))
    table2.refuse(Defend(participant=VIN, dice=2), "still being declared")


def test_defending_twice_against_one_action_is_refused() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=2))
    assert table.state.pending is not None
    attack_id = table.state.pending.id
    table.do(Defend(participant=VIN, dice=2, attack_id=attack_id, attack_faces=(1, 2), defence_faces=(1, 2)))
    table.refuse(Defend(participant=VIN, dice=2, attack_id=attack_id), "already been settled")
    # A success waiting for its Nudges is already defended against, too.
    table.do(Act(participant=THUG, pool=2))
    table.do(Defend(participant=VIN, dice=0, attack_faces=(6, 6)))
    table.do(Act(participant=VIN, pool=2), Defend(participant=THUG, dice=0, attack_faces=(1, 1)))
    assert table.state.pending is None


def test_defending_with_action_dice_moves_the_defender_down_at_once() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=2))
    events = table.do(Defend(participant=VIN, dice=3, attack_faces=(1, 2), defence_faces=(1, 2, 3)))
    (defended,) = of_type(events, "defended")
    assert (defended.dice, defended.pile, defended.left) == (3, Pile.ACTION, 2)
    assert resolve_order(table.state) == ((THUG,), (VIN,))
    assert table.p(VIN).round.defended == (1,)


def test_after_acting_the_defence_comes_from_defense_dice() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=3), Defend(participant=VIN, dice=0, attack_faces=(1, 2, 3)))
    table.do(Act(participant=VIN, pool=3), Defend(participant=THUG, dice=0, attack_faces=(1, 2, 4)))
    assert table.dice(VIN) == (0, 2)
    table.do(Act(participant=THUG, pool=2))
    events = table.do(Defend(participant=VIN, dice=2, attack_faces=(1, 2), defence_faces=(5, 1)))
    assert of_type(events, "defended")[0].pile is Pile.DEFENSE
    assert table.dice(VIN) == (0, 0)
    assert waiting(events).step is Step.NEXT_ROUND


def test_full_defence_dice_are_spent_in_pools() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_defence(VIN, traits_for=2))
    table.do(
        Act(participant=THUG, pool=5),
        Defend(participant=VIN, dice=4, attack_faces=(1,) * 5, defence_faces=(2,) * 4),
    )
    assert table.dice(VIN) == (0, 2)


@pytest.mark.parametrize(
    ("kind", "resilience", "expected"),
    [
        (ConflictType.PHYSICAL, Resilience.HEALTH, 2),
        (ConflictType.PHYSICAL, Resilience.WILLPOWER, 2),  # a beating to break the will: Physique
        (ConflictType.SOCIAL, Resilience.REPUTATION, 2 + 1),
        (ConflictType.MENTAL, Resilience.WILLPOWER, 1 + 1),
        (ConflictType.MENTAL, Resilience.HEALTH, 1 + 1),  # a trick into harming oneself: Wits
    ],
)
def test_a_busy_character_gets_defense_dice_by_the_kind_of_attack(
    kind: ConflictType, resilience: Resilience, expected: int
) -> None:
    """docs/rulings.md §4.11: the kind of the
    attack decides, never the Resilience it aims at (crowd: Physique 2, Charm 2, Wits 1), and
    the reaction's Traits and Tools still count."""
    table = Table.start(pick(VIN, CROWD))
    table.do(declare_nothing(CROWD), declare_attack(VIN, CROWD, resilience=resilience, attack_kind=kind))
    table.do(Act(participant=VIN, pool=2))
    bonus: dict[str, Any] = {} if kind is ConflictType.PHYSICAL else {"traits_for": 1}
    assert available_defence(table.state, table.sheets, CROWD) == expected - sum(bonus.values())
    events = table.do(Defend(participant=CROWD, dice=0, attack_faces=(1, 2), **bonus))
    assert of_type(events, "defence_granted")[0].dice == expected
    assert table.dice(CROWD) == (0, expected)


def test_the_grant_comes_once_and_pewter_counts() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(Burn(participant=VIN, metal="Pewter"))
    table.do(declare_attack(THUG, VIN), declare_attack(BRUTE, VIN), declare_nothing(VIN))
    table.do(Act(participant=BRUTE, pool=2))
    events = table.do(Defend(participant=VIN, dice=3, tool=1, attack_faces=(1, 2), defence_faces=(1, 2, 4)))
    assert of_type(events, "defence_granted")[0].dice == 4 + 3 + 1
    assert table.dice(VIN) == (0, 5)
    table.do(Act(participant=THUG, pool=2))
    table.refuse(Defend(participant=VIN, dice=2, tool=1), "Reaction Traits")
    events = table.do(Defend(participant=VIN, dice=5, attack_faces=(1, 2), defence_faces=(1, 2, 3, 4, 5)))
    assert not of_type(events, "defence_granted")
    assert table.dice(VIN) == (0, 0)


def test_a_target_with_one_die_left_cannot_defend_so_the_attack_rolls_at_once() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_attack(VIN, THUG))
    table.do(Act(participant=THUG, pool=4), Defend(participant=VIN, dice=0, attack_faces=(1, 2, 3, 4)))
    assert table.dice(THUG) == (0, 1)
    events = table.do(Act(participant=VIN, pool=2))
    assert not of_type(events, "acted")[0].awaiting_defence
    assert table.state.pending is None and of_type(events, "resolved")
    assert table.dice(THUG) == (0, 1)


def test_an_attack_on_someone_with_nothing_left_is_a_challenge() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_attack(VIN, THUG))
    table.do(Act(participant=THUG, pool=5), Defend(participant=VIN, dice=0, attack_faces=(1, 2, 3, 4, 5)))
    events = table.do(Act(participant=VIN, pool=4, faces=(4, 4, 1, 2)))
    (acted,) = of_type(events, "acted")
    assert not acted.awaiting_defence
    assert of_type(events, "resolved")[0].contest.decided_by.value == "undefended"


def test_an_attack_declared_as_a_challenge_cannot_be_defended() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_defence(THUG), declare_attack(VIN, THUG, contest=False))
    events = table.do(Act(participant=VIN, pool=2, faces=(1, 2)))
    assert not of_type(events, "acted")[0].awaiting_defence
    assert table.dice(THUG) == (0, 5)


def test_a_stalemate_has_no_effect_and_carries_into_the_next_round() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=3))
    events = table.do(Defend(participant=VIN, dice=3, attack_faces=(4, 4, 6), defence_faces=(4, 4, 6)))
    (resolved,) = of_type(events, "resolved")
    assert resolved.stalemate and not resolved.success
    assert table.state.pending is None and table.sheets[VIN].damage.health == 0
    assert table.state.log[-1].kind.value == "stalemate"
    table.do(Pass(participant=THUG), Pass(participant=VIN))
    events = table.do(NextRound())
    assert of_type(events, "round_started")[0].stalemates == ((BRUTE, VIN),)


def test_extras_sixes_break_no_ties() -> None:
    table = Table.start(pick(VIN, CROWD))
    table.do(declare_defence(CROWD, traits_for=1), declare_attack(VIN, CROWD))
    table.do(Act(participant=VIN, pool=3))
    events = table.do(Defend(participant=CROWD, dice=3, attack_faces=(4, 4, 1), defence_faces=(4, 4, 6)))
    (resolved,) = of_type(events, "resolved")
    assert resolved.contest.decided_by.value == "stalemate"


def test_the_defender_wins_on_a_higher_result() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=2))
    events = table.do(Defend(participant=VIN, dice=2, attack_faces=(3, 3), defence_faces=(5, 5)))
    (resolved,) = of_type(events, "resolved")
    assert not resolved.success and resolved.contest.decided_by.value == "higher Result"
    assert table.state.pending is None


def test_seeded_dice_replay_exactly() -> None:
    table = duel()
    table.do(Act(participant=BRUTE, pool=4))
    one = apply(table.state, Defend(participant=VIN, dice=3), table.sheets, random.Random(7))
    two = apply(table.state, Defend(participant=VIN, dice=3), table.sheets, random.Random(7))
    assert one == two
    faces = next(e.contest for e in one.events if e.type == "resolved")
    assert faces.opposing is not None
    assert len(faces.acting.faces) == 4 and len(faces.opposing.faces) == 3


def test_non_harming_contests_can_be_resisted_but_deal_no_damage() -> None:
    table = Table.start(pick(VIN, KELL))
    table.do(
        Declare(
            participant=VIN,
            action=ActionSpec(kind=ActionKind.ACTION, target=KELL, label="distracts Kelsier"),
            dice=DiceSpec(stat="Charm"),
        ),
        declare_defence(KELL, "Wits"),
    )
    table.do(Act(participant=VIN, pool=3))
    events = table.do(Defend(participant=KELL, dice=2, attack_faces=(5, 5, 1), defence_faces=(1, 2)))
    assert of_type(events, "resolved")[0].success
    assert not of_type(events, "damage_dealt")
