"""Catching a Beat in a Conflict: offered only when it can be taken (docs/rulings.md §2.10, §4.15)."""

import pytest

from rules.conflict import SpendNudges, beat_possible
from tests.rules.conflict.builders import THUG, VIN, Table, declare_attack, declare_nothing, pick
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
