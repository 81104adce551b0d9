"""Exact odds against brute force and against seeded dice."""

import itertools
import math
import random
from fractions import Fraction

import pytest

from rules.contest import Decision, Side, decide
from rules.errors import RulesError
from rules.odds import contest_odds, distribution, odds, odds_table, success_chance
from rules.pool import Pool, build_pool
from rules.roll import Reading, read, roll


def brute_force_readings(pool: Pool, difficulty: int, extra: bool = False) -> tuple[Reading, ...]:
    """Every face tuple the pool can throw, read by ``rules.roll.read`` (6**dice of them)."""
    faces = itertools.product(range(1, 7), repeat=pool.dice)
    return tuple(read(f, pool=pool, difficulty=difficulty, extra=extra) for f in faces)


@pytest.mark.parametrize("dice", range(2, 11))
def test_distribution_is_a_distribution(dice: int) -> None:
    dist = distribution(dice)
    assert sum(dist.values()) == 1
    assert all(0 <= result <= 5 and 0 <= sixes <= dice for result, sixes in dist)


@pytest.mark.parametrize(
    ("total", "difficulty", "extra"),
    [(n, d, False) for n in range(2, 7) for d in range(1, 6)]
    + [(4, 2, True), (0, 1, False), (1, 3, False), (3, 5, True), (0, 5, False)],
)
def test_exact_odds_equal_brute_force(total: int, difficulty: int, extra: bool) -> None:
    """Every pool of 2–6 dice at every Difficulty (and some Extras and undersized pools): the
    exact odds equal enumerating every face tuple through ``rules.roll.read``, so the
    odds read a failure's Result as 0 and count only rolled 6s for a Beat, as the dice do
    (docs/rulings.md §2.5, §2.10)."""
    pool = build_pool(total)
    readings = brute_force_readings(pool, difficulty, extra)
    n = Fraction(1, len(readings))
    exact = odds(pool, difficulty, extra=extra)
    assert exact.success == n * sum(r.success for r in readings)
    assert exact.expected_complications == n * sum(r.complications for r in readings)
    assert exact.catch_a_beat == n * sum(r.can_catch_beat for r in readings)
    outcomes = {o: n * sum(r.outcome == o for r in readings) for o in range(-6, 7)}
    assert exact.outcomes == {o: p for o, p in outcomes.items() if p}


@pytest.mark.parametrize("difficulty", range(1, 6))
@pytest.mark.parametrize("dice", range(2, 7))
def test_every_failure_reads_minus_the_difficulty(dice: int, difficulty: int) -> None:
    """docs/rulings.md §2.5: the odds put every failure at Outcome −Difficulty and nowhere else
    below 0 (a full-sized pool's success is never negative)."""
    exact = odds(dice, difficulty)
    assert exact.outcomes.get(-difficulty, 0) == 1 - exact.success
    assert all(o >= 0 for o in exact.outcomes if o != -difficulty)


@pytest.mark.parametrize("dice", range(2, 7))
def test_distribution_equals_brute_force(dice: int) -> None:
    counts: dict[tuple[int, int], int] = {}
    for r in brute_force_readings(Pool.of_dice(dice), 1):
        counts[(r.result, r.sixes)] = counts.get((r.result, r.sixes), 0) + 1
    assert distribution(dice) == {k: Fraction(v, 6**dice) for k, v in sorted(counts.items())}


CONTESTS = [(a, o, d) for a, o in [(2, 2), (2, 3), (3, 2), (3, 3)] for d in range(1, 6)]
CONTESTS += [(a, o, d) for a, o in [(2, 4), (4, 2)] for d in (1, 3, 5)]


@pytest.mark.parametrize(("a", "o", "difficulty"), CONTESTS)
def test_contest_odds_equal_brute_force(a: int, o: int, difficulty: int) -> None:
    """Every pair of face tuples, read by ``rules.roll.read`` and settled by
    ``rules.contest.decide`` (docs/rulings.md §3): the exact Contest odds agree, and a Contest
    failed outright always has the defender's Result as its Outcome (§3.6)."""
    acting = brute_force_readings(Pool.of_dice(a), difficulty)
    opposing = brute_force_readings(Pool.of_dice(o), 1)
    tally = {Side.ACTING: 0, Side.OPPOSING: 0, None: 0}
    for x, y in itertools.product(acting, opposing):
        contest = decide([x], [y])
        tally[contest.winner] += 1
        if contest.decided_by is Decision.FAILED_OUTRIGHT:
            assert contest.outcome == y.result
    total = len(acting) * len(opposing)
    exact = contest_odds(a, o, difficulty=difficulty)
    assert exact.win == Fraction(tally[Side.ACTING], total)
    assert exact.lose == Fraction(tally[Side.OPPOSING], total)
    assert exact.stalemate == Fraction(tally[None], total)


def test_known_values() -> None:
    assert success_chance(2, 1) == Fraction(5, 36)
    assert success_chance(3, 2) == Fraction(8, 27)
    # Two dice at -2: no set reads 0 - 1 - 2 = -3; a set of v reads v - 3.
    sixth = Fraction(1, 36)
    expected = {-3: 31 * sixth, -2: sixth, -1: sixth, 0: sixth, 1: sixth, 2: sixth}
    assert odds(build_pool(0), 1).outcomes == expected
    assert odds(build_pool(12), 1).free_nudges == 2


@pytest.mark.parametrize("total", [11, 13, 20])
def test_free_nudges_never_raise_the_chance_of_a_beat(total: int) -> None:
    """docs/rulings.md §2.10: only rolled 6s catch a Beat, so an oversized pool's free Nudges
    leave the chance where 10 plain dice put it."""
    for difficulty in range(1, 6):
        assert odds(build_pool(total), difficulty).catch_a_beat == odds(10, difficulty).catch_a_beat


def test_odds_table_shape_and_order() -> None:
    table = odds_table()
    assert list(table) == list(range(2, 11))
    for dice, row in table.items():
        assert list(row) == [1, 2, 3, 4, 5]
        assert all(row[d] > row[d + 1] for d in range(1, 5))
        if dice < 10:
            assert all(table[dice + 1][d] > row[d] for d in row)


def test_contest_odds_add_up_and_favour_the_bigger_pool() -> None:
    for a, o in [(10, 10), (2, 10), (10, 2), (6, 6)]:
        c = contest_odds(a, o)
        assert c.win + c.lose + c.stalemate == 1 and min(c.win, c.lose, c.stalemate) >= 0
    assert contest_odds(8, 4).win > contest_odds(4, 8).win
    assert contest_odds(6, 6, difficulty=3).win < contest_odds(6, 6).win
    assert contest_odds(6, 6, acting_extra=True).win < contest_odds(6, 6).win


@pytest.mark.parametrize(("pool", "difficulty"), [(50, 1), (3, 9), (3, 0), (-1, 1)])
def test_bad_odds_requests(pool: int, difficulty: int) -> None:
    with pytest.raises(RulesError):
        odds(pool, difficulty)


@pytest.mark.parametrize("difficulty", range(1, 6))
@pytest.mark.parametrize("total", range(0, 15))
def test_seeded_rolls_stay_within_four_sigma(total: int, difficulty: int) -> None:
    pool = build_pool(total)
    rng = random.Random(total * 10 + difficulty)
    trials = 2000
    hits = sum(roll(pool, rng, difficulty=difficulty).success for _ in range(trials))
    p = float(success_chance(pool, difficulty))
    sigma = math.sqrt(p * (1 - p) / trials)
    assert abs(hits / trials - p) <= 4 * sigma + 1e-12
