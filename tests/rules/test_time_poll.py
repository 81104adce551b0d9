"""Which times of a poll for the next night won (docs/rulings.md §6.15)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.time_poll import leaders


@pytest.mark.parametrize(
    ("counts", "won"),
    [
        ((3, 1), (0,)),
        ((0, 2, 1), (1,)),
        ((2, 2, 1), (0, 1)),
        ((1, 1, 1, 1, 1), (0, 1, 2, 3, 4)),
        ((0, 0), ()),
        ((), ()),
    ],
)
def test_the_most_votes_win_and_an_equal_most_is_a_tie(counts: tuple[int, ...], won: tuple[int, ...]) -> None:
    assert leaders(counts) == won


@given(st.lists(st.integers(0, 50), min_size=2, max_size=5))
def test_every_leader_has_the_most_and_no_other_time_does(counts: list[int]) -> None:
    won = leaders(counts)
    if not any(counts):
        assert won == ()
        return
    assert won and all(counts[place] == max(counts) for place in won)
    assert all(counts[place] < max(counts) for place in range(len(counts)) if place not in won)
