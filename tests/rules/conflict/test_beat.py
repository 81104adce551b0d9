"""Catching a Beat in a Conflict: offered only when it can be taken (docs/rulings.md §2.10, §4.15)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.conflict import Act, ActionKind, ActionSpec, DiceSpec, SpendNudges, Switch, beat_possible
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
    sheet,
    waiting,
)
from tests.rules.conflict.test_damage import hit


@pytest.mark.parametrize(
    ("traits", "pool", "sixes", "left", "possible"),
    [
        (3, 5, 3, 2, True),  # three rolled 6s and 2 dice left for the extra action
        (2, 5, 3, 1, False),  # three 6s, but 1 die left: no pool of 2 for the extra action
        (4, 6, 3, 2, True),
        (3, 5, 2, 2, False),  # 2 dice left, but only two 6s
    ],
)
def test_a_beat_is_possible_with_three_sixes_and_two_dice_left(
    traits: int, pool: int, sixes: int, left: int, possible: bool
) -> None:
    """A success may trade every Nudge for an extra action only with three or more rolled 6s
    (§2.10), and in a Conflict that action needs a pool of 2 from the dice still held (§4.15),
    so the Beat is offered only when both hold."""
    table = Table.start(pick(VIN, THUG))
    table.do(declare_nothing(THUG), declare_attack(VIN, THUG, traits_for=traits))
    hit(table, VIN, THUG, pool, sixes)
    pending = table.state.pending
    assert pending is not None and table.p(VIN).round.defense_dice == left
    assert beat_possible(table.state, pending) is possible
    if not possible:
        table.refuse(SpendNudges(participant=VIN, catch_beat=True), "Catching a Beat takes|an extra action")
    else:
        table.do(SpendNudges(participant=VIN, catch_beat=True))
        assert table.p(VIN).round.extra_action


LONE = 6
"""A lone Extra: any hit fells it (docs/rulings.md §5.3), so the blow that catches a Beat
usually leaves the Beat's declared target down."""


def felled_by_a_beat(traits: int = 3, pool: int = 5) -> Table:
    """Vin (Physique 4 + ``traits``) hits the lone Extra with ``pool`` dice, three 6s among them,
    and catches a Beat; the hit fells it. Brute, on full defence, is still standing."""
    sheets = {**pick(VIN, BRUTE), LONE: sheet("Lookout", "extra", size=1, physique=2, wits=1)}
    table = Table.start(sheets)
    table.do(declare_nothing(LONE), declare_defence(BRUTE), declare_attack(VIN, LONE, traits_for=traits))
    hit(table, VIN, LONE, pool, 3)
    table.do(SpendNudges(participant=VIN, catch_beat=True))
    assert table.p(LONE).defeated and table.p(VIN).round.extra_action
    return table


def new_action(kind: ActionKind, target: int | None) -> Switch:
    return Switch(
        participant=VIN, action=ActionSpec(kind=kind, target=target), dice=DiceSpec(stat="Physique")
    )


@pytest.mark.parametrize(
    ("command", "refusal"),
    [
        # The declared target is down: the declared action cannot be taken (§4.15)...
        (Act(participant=VIN, pool=2), "already defeated.*Switch to a new action"),
        # ...nor a new one at the fallen target, nor one that rolls nothing.
        (new_action(ActionKind.ATTACK, LONE), "already defeated"),
        (new_action(ActionKind.NO_ROLL, None), "extra action is a rolled one"),
        (new_action(ActionKind.FULL_DEFENCE, None), "extra action is a rolled one"),
        # The Beat goes first: nobody else moves meanwhile.
        (
            Switch(
                participant=BRUTE,
                action=ActionSpec(kind=ActionKind.ATTACK, target=VIN),
                dice=DiceSpec(stat="Physique"),
            ),
            "caught a Beat",
        ),
        (Act(participant=VIN, pool=3, action=ActionSpec(kind=ActionKind.ATTACK, target=BRUTE)), "only 2"),
    ],
)
def test_a_beat_whose_target_fell_refuses_what_cannot_be_done(command: Act | Switch, refusal: str) -> None:
    felled_by_a_beat().refuse(command, refusal)


@pytest.mark.parametrize(
    ("kind", "target", "shown"),
    [
        (ActionKind.ATTACK, BRUTE, ActionKind.ATTACK),  # another target
        (ActionKind.ACTION, None, ActionKind.ACTION),  # another kind of action
    ],
)
def test_a_beat_whose_target_fell_may_be_a_new_action(
    kind: ActionKind, target: int | None, shown: ActionKind
) -> None:
    """§4.15: the Beat's extra action may be a new one; it costs no dice and no switch."""
    table = felled_by_a_beat()
    before = table.p(VIN).round
    events = table.do(new_action(kind, target))
    (named,) = of_type(events, "beat_action_named")
    assert named.action.kind is shown and named.action.target == target
    after = table.p(VIN).round
    assert after.extra_action and not after.switched
    assert (after.action_dice, after.defense_dice, after.spent) == (
        before.action_dice,
        before.defense_dice,
        before.spent,
    )
    assert waiting(events).participants == (VIN,)
    table.do(Act(participant=VIN, pool=2))
    assert not table.p(VIN).round.extra_action
    pending = table.state.pending
    if target is None:
        assert pending is None  # nobody resists an action without a target: rolled at once
    else:
        assert pending is not None and pending.extra and pending.target == BRUTE


@settings(deadline=None)  # each example plays a fight; a shared machine is slow
@given(traits=st.integers(3, 8), data=st.data())
def test_a_beats_new_action_keeps_the_dice_left_and_the_ledger(traits: int, data: st.DataObject) -> None:
    """Whatever is left after the blow (2 or more), the Beat's new action is taken from exactly
    those dice: a pool of up to all of them, the rest kept, the round's ledger balanced."""
    table = felled_by_a_beat(traits=traits, pool=5)
    left = table.p(VIN).round.defense_dice
    assert left == 4 + traits - 5
    table.do(new_action(ActionKind.ATTACK, BRUTE))
    pool = data.draw(st.integers(2, 10))
    if pool > left:
        table.refuse(Act(participant=VIN, pool=pool), "too many")
        return
    table.do(Act(participant=VIN, pool=pool))
    state = table.p(VIN).round
    assert state.defense_dice == left - pool and not state.extra_action
    assert (
        state.action_dice + state.defense_dice == state.gained - state.spent - state.removed - state.dropped
    )
