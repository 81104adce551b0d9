"""Step 2: turns in the resolve order: act, switch, or do not act (docs/rulings.md §4)."""

from collections.abc import Callable

import pytest

from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    AdjustDice,
    Command,
    Declare,
    Defend,
    DiceSpec,
    Pass,
    SpendNudges,
    Step,
    Switch,
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
    sheet,
    waiting,
)

MISS = (1, 2, 3, 4, 5, 6)


def fight() -> Table:
    """Vin (5 Action Dice) and Thug (5) attack each other; Brute (6) attacks Vin; Kelsier guards."""
    table = Table.start(pick(VIN, KELL, THUG, BRUTE))
    table.do(
        declare_attack(THUG, VIN),
        declare_attack(BRUTE, VIN),
        declare_attack(VIN, THUG, traits_for=1),
        declare_defence(KELL, "Wits"),
    )
    return table


def test_the_resolve_order_is_descending_action_dice_with_ties_together() -> None:
    table = fight()
    assert resolve_order(table.state) == ((BRUTE,), (THUG, VIN))
    assert current_turn(table.state) == (BRUTE,)


def test_acting_forms_a_pool_and_keeps_the_rest_for_defence() -> None:
    table = fight()
    events = table.do(Act(participant=BRUTE, pool=4))
    assert table.dice(BRUTE) == (0, 2)
    (acted,) = of_type(events, "acted")
    assert (acted.pool, acted.kept, acted.awaiting_defence) == (4, 2, True)


@pytest.mark.parametrize(
    ("pool", "message"),
    [
        (1, "A pool has 2 to 10 dice; 1"),
        (0, "A pool has 2 to 10"),
        (11, "A pool has 2 to 10"),
        (7, "only 6 Action Dice"),
    ],
)
def test_pools_outside_2_to_10_or_beyond_the_dice_held_are_refused(pool: int, message: str) -> None:
    fight().refuse(Act(participant=BRUTE, pool=pool), message)


def test_a_pool_never_passes_ten_even_with_more_dice() -> None:
    table = Table.start({1: sheet("Big", physique=10), 2: sheet("Foe", "villain")})
    table.do(declare_attack(1, 2, traits_for=3, tool=1), declare_defence(2))
    assert table.dice(1) == (14, 0)
    table.refuse(Act(participant=1, pool=11), "2 to 10")
    table.do(Act(participant=1, pool=10))
    assert table.dice(1) == (0, 4)


def test_not_your_turn_and_tied_characters_act_in_either_order() -> None:
    table = fight()
    table.refuse(Act(participant=VIN, pool=2), "not Vin's turn yet: Brute act")
    table.do(Act(participant=BRUTE, pool=2), Defend(participant=VIN, dice=0, attack_faces=(1, 2)))
    assert current_turn(table.state) == (THUG, VIN)
    table.do(Act(participant=VIN, pool=2), Defend(participant=THUG, dice=0, attack_faces=(1, 2)))
    assert current_turn(table.state) == (THUG,)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Act(participant=KELL, pool=2), "takes no turn; they can only defend"),
        (
            Act(participant=BRUTE, pool=2, action=ActionSpec(kind=ActionKind.ATTACK, target=KELL)),
            "is a switch",
        ),
        (Act(participant=BRUTE, pool=2, faces=(1, 1)), "a defence is chosen before anyone rolls"),
        (Act(participant=BRUTE, pool=2, difficulty=6), "Difficulty runs from 1"),
        (Pass(participant=VIN), "not Vin's turn"),
        (Act(participant=42, pool=2), "not taking part"),
    ],
)
def test_turn_refusals(command: Act | Pass, message: str) -> None:
    fight().refuse(command, message)


def test_acting_twice_acting_after_passing_and_acting_while_an_attack_waits() -> None:
    table = fight()
    table.do(Act(participant=BRUTE, pool=2))
    table.refuse(Act(participant=THUG, pool=2), "Vin must first choose how to defend against Brute")
    table.refuse(Pass(participant=THUG), "must first choose how to defend")
    table.do(Defend(participant=VIN, dice=0, attack_faces=(1, 2)))
    table.refuse(Act(participant=BRUTE, pool=2), "already acted")
    table.do(Pass(participant=THUG))
    assert table.dice(THUG) == (0, 5)
    table.refuse(Act(participant=THUG, pool=2), "chose not to act")


def test_acting_in_the_declare_phase_is_refused() -> None:
    table = Table.start(pick(VIN, THUG))
    table.refuse(Act(participant=THUG, pool=2), "still being declared")


@pytest.mark.parametrize(("faces", "success"), [((3, 3, 1), True), ((2, 2, 1), False), ((6, 6, 6), False)])
def test_a_challenge_rolls_at_once_against_its_difficulty(faces: tuple[int, ...], success: bool) -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(
        Declare(
            participant=THUG,
            action=ActionSpec(kind=ActionKind.ACTION, label="kicks the door in", difficulty=3),
            dice=DiceSpec(stat="Physique"),
        ),
        declare_nothing(VIN),
    )
    events = table.do(Act(participant=THUG, pool=3, faces=faces))
    (resolved,) = of_type(events, "resolved")
    assert resolved.success is success
    assert resolved.contest.decided_by.value == "undefended"
    assert waiting(events).step is Step.NEXT_ROUND


class TestSwitching:
    def test_switching_halves_rounding_up_and_goes_last(self) -> None:
        table = fight()
        events = table.do(
            Switch(
                participant=BRUTE,
                action=ActionSpec(kind=ActionKind.ATTACK, target=KELL),
                dice=DiceSpec(stat="Physique", traits_for=1),
            )
        )
        (switched,) = of_type(events, "switched")
        assert (switched.refigured, switched.halved, switched.dice) == (7, 4, 4)
        assert resolve_order(table.state) == ((THUG, VIN), (BRUTE,))
        assert table.declaration(BRUTE).action.target == KELL

    def test_dice_already_spent_or_removed_are_subtracted(self) -> None:
        table = fight()
        # Brute hits Thug's target... Vin; Vin defends with 2 Action Dice before her turn.
        table.do(
            Act(participant=BRUTE, pool=2),
            Defend(participant=VIN, dice=2, attack_faces=MISS[:2], defence_faces=(1, 2)),
        )
        assert table.dice(VIN) == (3, 0)
        assert current_turn(table.state) == (THUG,)
        # Thug hits Vin and spends a Nudge to take another of her dice.
        table.do(Act(participant=THUG, pool=4), Defend(participant=VIN, dice=0, attack_faces=(2, 2, 6, 1)))
        table.do(SpendNudges(participant=THUG, remove_dice=1))
        assert table.dice(VIN) == (2, 0)
        events = table.do(
            Switch(
                participant=VIN,
                action=ActionSpec(kind=ActionKind.ATTACK, target=BRUTE),
                dice=DiceSpec(stat="Steel", traits_for=5),
            )
        )
        (switched,) = of_type(events, "switched")
        assert (switched.refigured, switched.halved, switched.lost, switched.dice) == (10, 5, 3, 2)
        state = table.p(VIN).round
        assert (
            state.action_dice + state.defense_dice
            == state.gained - state.spent - state.removed - state.dropped
        )

    def test_switching_twice_is_refused(self) -> None:
        table = fight()
        new = Switch(
            participant=BRUTE,
            action=ActionSpec(kind=ActionKind.ATTACK, target=KELL),
            dice=DiceSpec(stat="Physique"),
        )
        table.do(new)
        table.do(Pass(participant=THUG), Pass(participant=VIN))
        table.refuse(new, "already switched")

    @pytest.mark.parametrize(
        ("dice", "message"),
        [
            (DiceSpec(stat="Physique", traits_against=4), "only 2 Action Dice; switching needs more than 2"),
            (DiceSpec(stat="Physique", traits_against=5), "only 1 Action Dice"),
            (DiceSpec(stat="Wits", traits_against=9), "only 0 Action Dice"),
        ],
    )
    def test_switching_to_two_dice_or_fewer_is_refused(self, dice: DiceSpec, message: str) -> None:
        table = fight()
        table.refuse(
            Switch(participant=BRUTE, action=ActionSpec(kind=ActionKind.ATTACK, target=KELL), dice=dice),
            message,
        )

    def test_switching_is_refused_when_too_few_dice_would_be_left(self) -> None:
        table = fight()
        table.do(
            Act(participant=BRUTE, pool=2),
            Defend(participant=VIN, dice=4, attack_faces=(1, 2), defence_faces=(1, 2, 3, 4)),
        )
        table.do(Pass(participant=THUG))
        table.refuse(
            Switch(
                participant=VIN,
                action=ActionSpec(kind=ActionKind.ATTACK, target=BRUTE),
                dice=DiceSpec(stat="Physique"),
            ),
            "too few for a pool",
        )

    def test_switching_to_nothing_is_refused(self) -> None:
        table = fight()
        table.refuse(
            Switch(
                participant=BRUTE,
                action=ActionSpec(kind=ActionKind.FULL_DEFENCE),
                dice=DiceSpec(stat="Physique"),
            ),
            "must be one that rolls",
        )

    @pytest.mark.parametrize("vin_keeps", [0, 1, 2])
    def test_a_switcher_goes_after_everyone_still_to_act_whatever_their_dice(self, vin_keeps: int) -> None:
        """docs/rulings.md §4.7: the switcher goes at the very end of the round, after everyone
        still to act, even a character holding 0 or 1 die (it no longer counts as 1 die)."""
        table = fight()
        table.do(AdjustDice(participant=VIN, delta=vin_keeps - 5))
        assert resolve_order(table.state) == ((BRUTE,), (THUG,), (VIN,))
        table.do(
            Switch(
                participant=BRUTE,
                action=ActionSpec(kind=ActionKind.ATTACK, target=KELL),
                dice=DiceSpec(stat="Physique"),
            )
        )
        assert resolve_order(table.state) == ((THUG,), (VIN,), (BRUTE,))

    def test_switchers_share_the_last_step(self) -> None:
        table = fight()
        new = {"action": ActionSpec(kind=ActionKind.ATTACK, target=KELL), "dice": DiceSpec(stat="Physique")}
        table.do(Switch(participant=BRUTE, **new), Pass(participant=THUG))
        table.do(Switch(participant=VIN, **new))
        assert resolve_order(table.state) == ((BRUTE, VIN),)
        assert current_turn(table.state) == (BRUTE, VIN)


@pytest.mark.parametrize("held", [1])
@pytest.mark.parametrize(
    "command",
    [
        lambda: Act(participant=VIN, pool=2),
        lambda: Switch(
            participant=VIN,
            action=ActionSpec(kind=ActionKind.ATTACK, target=BRUTE),
            dice=DiceSpec(stat="Steel", traits_for=5),
        ),
    ],
)
def test_fewer_than_two_action_dice_can_only_not_act(held: int, command: Callable[[], Command]) -> None:
    """docs/rulings.md §4.9: with 0 or 1 Action Die on their turn a character cannot form a
    pool, so acting and switching are refused in plain words, and not acting works."""
    table = fight()
    table.do(AdjustDice(participant=VIN, delta=held - 5), Pass(participant=BRUTE), Pass(participant=THUG))
    assert current_turn(table.state) == (VIN,)
    die = "1 Action Die" if held == 1 else "0 Action Dice"
    table.refuse(command(), f"Vin holds only {die}, too few for a pool of 2: they can only choose not to act")
    events = table.do(Pass(participant=VIN))
    assert table.dice(VIN) == (0, held) and of_type(events, "passed")[0].defense_dice == held


@pytest.mark.parametrize("how", ["adjusted", "defended"])
def test_a_turn_that_comes_with_no_action_dice_is_passed_over_by_itself(how: str) -> None:
    """docs/rulings.md §4.9: with no Action Dice left, not acting is all there is, so the engine
    passes the character over when their turn comes instead of waiting for a click."""
    table = fight()
    if how == "adjusted":
        table.do(AdjustDice(participant=VIN, delta=-5), Pass(participant=BRUTE))
        events = table.do(Pass(participant=THUG))
    else:  # Vin spends every Action Die defending against the Brute, then the Thug passes
        table.do(Act(participant=BRUTE, pool=2))
        table.do(Defend(participant=VIN, dice=table.dice(VIN)[0], attack_faces=(1, 1), defence_faces=None))
        events = table.do(*(Pass(participant=pid) for pid in current_turn(table.state) if pid != VIN))
    passed = [e for e in of_type(events, "passed") if e.participant == VIN]
    assert passed and passed[0].empty and table.p(VIN).round.passed
    assert waiting(events).step is Step.NEXT_ROUND


def test_two_action_dice_make_a_pool() -> None:
    """A pool of exactly 2 from exactly 2 Action Dice is an action like any other (§4.8)."""
    table = fight()
    table.do(AdjustDice(participant=VIN, delta=-3), Pass(participant=BRUTE), Pass(participant=THUG))
    events = table.do(Act(participant=VIN, pool=2))
    assert of_type(events, "acted")[0].pool == 2 and table.dice(VIN) == (0, 0)


def test_not_acting_turns_every_action_die_into_a_defense_die() -> None:
    table = fight()
    events = table.do(Pass(participant=BRUTE))
    assert table.dice(BRUTE) == (0, 6)
    assert of_type(events, "passed")[0].defense_dice == 6
    assert current_turn(table.state) == (THUG, VIN)


def test_an_action_on_a_defeated_or_departed_target_must_switch() -> None:
    table = fight()
    table.state = table.state.with_participant(table.p(VIN).model_copy(update={"defeated": True}))
    table.refuse(Act(participant=BRUTE, pool=2), "already defeated; choose another target. Switch")
