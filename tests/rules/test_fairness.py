"""The fairness check behind ``/history fairness``."""

import random

import pytest

from rules.errors import RulesError
from rules.fairness import chi_square_tail_5, fairness


@pytest.mark.parametrize(
    # Reference values of the chi-square(5) upper tail.
    ("x", "tail"),
    [(0.0, 1.0), (1.0, 0.9626), (4.351, 0.5), (11.070, 0.05), (15.086, 0.01), (20.515, 0.001)],
)
def test_tail_matches_tables(x: float, tail: float) -> None:
    assert chi_square_tail_5(x) == pytest.approx(tail, abs=5e-4)


def test_fair_and_loaded_dice() -> None:
    assert fairness([100] * 6).p_value == 1.0
    rng = random.Random(5)
    fair = [0] * 6
    for _ in range(6000):
        fair[rng.randint(0, 5)] += 1
    assert fairness(fair).p_value > 0.001
    assert fairness([50, 50, 50, 50, 50, 250]).p_value < 1e-6
    assert fairness([0] * 6).dice == 0


@pytest.mark.parametrize("counts", [[1, 2, 3], [1, 1, 1, 1, 1, -1]])
def test_bad_counts(counts: list[int]) -> None:
    with pytest.raises(RulesError):
        fairness(counts)
