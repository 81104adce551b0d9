"""``rules.memo``: an answer is remembered per object, never shared by an equal copy, and what a
changed copy reads is its own (a sheet's maxima, a state's next move)."""

import pytest

from rules.character import Attributes, Resilience, make_character, resilience_current, resilience_max
from rules.conflict import waiting
from rules.memo import IdentityMemo
from tests.rules.conflict.builders import Table, cast


class Box:
    def __init__(self, value: int) -> None:
        self.value = value


def test_the_work_is_done_once_per_object_and_key() -> None:
    memo: IdentityMemo[Box, int] = IdentityMemo(4)
    done: list[int] = []
    first, twin = Box(1), Box(1)

    def work(box: Box, add: int) -> int:
        done.append(box.value)
        return box.value + add

    assert memo.get(first, 1, lambda: work(first, 1)) == 2
    assert memo.get(first, 1, lambda: work(first, 1)) == 2
    assert memo.get(first, 2, lambda: work(first, 2)) == 3
    assert memo.get(twin, 1, lambda: work(twin, 1)) == 2
    assert done == [1, 1, 1]


def test_a_failure_is_not_remembered_and_old_answers_are_let_go() -> None:
    memo: IdentityMemo[Box, int] = IdentityMemo(2)
    box = Box(5)
    with pytest.raises(ZeroDivisionError):
        memo.get(box, None, lambda: 1 // 0)
    assert memo.get(box, None, lambda: 7) == 7
    others = [Box(n) for n in range(6)]
    for other in others:
        memo.get(other, None, lambda: 0)
    assert memo.get(box, None, lambda: 8) == 8  # two generations of two: long gone


def test_a_changed_sheet_reads_its_own_maxima() -> None:
    vin = make_character(
        name="Vin", kind="hero", owner_id=1, attributes={"physique": 3, "charm": 3, "wits": 3}
    )
    assert resilience_max(vin, Resilience.HEALTH) == 5
    stronger = vin.model_copy(update={"attributes": Attributes(physique=6, charm=3, wits=3)})
    hurt = vin.model_copy(update={"damage": vin.damage.with_value(Resilience.HEALTH, 2)})
    assert resilience_max(stronger, Resilience.HEALTH) == 8
    assert (resilience_max(hurt, "health"), resilience_current(hurt, Resilience.HEALTH)) == (5, 3)
    assert resilience_current(vin, Resilience.HEALTH) == 5


def test_each_state_says_what_it_waits_for() -> None:
    table = Table.start(cast())
    before = waiting(table.state)
    assert waiting(table.state) is before
    assert waiting(table.state.model_copy(update={"round": 2})).round == 2
