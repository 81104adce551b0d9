"""Contests (docs/rulings.md §3)."""

import random

import pytest

from rules.contest import Decision, Side, decide, roll_contest
from rules.errors import RulesError
from rules.pool import build_pool
from rules.roll import Reading, read

THORROW = [3, 3, 6, 6, 6, 6, 1, 2]  # Result 3, four Nudges
CARROW = [3, 3, 6, 1]  # Result 3, one Nudge


@pytest.mark.parametrize(
    ("acting", "opposing", "difficulty", "winner", "decided_by", "outcome"),
    [
        (THORROW, CARROW, 1, Side.ACTING, Decision.NUDGES, 0),
        (CARROW, THORROW, 1, Side.OPPOSING, Decision.NUDGES, 0),
        ([5, 5, 1], [2, 2, 6], 1, Side.ACTING, Decision.RESULT, 3),
        ([2, 2, 6], [5, 5, 1], 1, Side.OPPOSING, Decision.RESULT, 3),
        ([4, 4, 6], [4, 4, 6], 1, None, Decision.STALEMATE, 0),
        ([4, 4, 1], [4, 4, 2], 1, None, Decision.STALEMATE, 0),
        ([1, 2, 3], [1, 2, 3], 1, Side.OPPOSING, Decision.FAILED_OUTRIGHT, 0),  # no set at all
        ([1, 2, 6], [2, 2, 1], 1, Side.OPPOSING, Decision.FAILED_OUTRIGHT, 2),
        ([3, 3, 6], [1, 2, 4], 4, Side.OPPOSING, Decision.FAILED_OUTRIGHT, 0),  # below Difficulty
        ([4, 4, 1], [2, 2, 1], 5, Side.OPPOSING, Decision.FAILED_OUTRIGHT, 2),  # 4s count as 0: 2 - 0
        ([3, 3, 1], [5, 5, 1], 4, Side.OPPOSING, Decision.FAILED_OUTRIGHT, 5),  # not 5 - 3
        ([4, 4, 1], [1, 2, 3], 3, Side.ACTING, Decision.RESULT, 4),  # defender has no set
        ([5, 5, 6], [4, 4, 6], 4, Side.ACTING, Decision.RESULT, 1),
    ],
)
def test_decide(
    acting: list[int],
    opposing: list[int],
    difficulty: int,
    winner: Side | None,
    decided_by: Decision,
    outcome: int,
) -> None:
    """docs/rulings.md §3.2, §3.3, §3.6: the actor must succeed first; then the higher Result
    wins, then Nudges. The Outcome is the winner's Result less the loser's, and an actor who
    failed outright counts as Result 0, so it is the defender's Result."""
    contest = decide([read(acting, difficulty=difficulty)], [read(opposing)])
    assert (contest.winner, contest.decided_by, contest.outcome) == (winner, decided_by, outcome)
    assert contest.stalemate == (winner is None)
    assert contest.acting_succeeds == (winner is Side.ACTING)


@pytest.mark.parametrize(
    ("faces", "difficulty", "winner", "outcome"),
    [
        ([3, 3, 1], 1, Side.ACTING, 2),
        ([3, 3, 1], 4, Side.OPPOSING, -4),  # a failure counts its 3s as 0 (§2.5)
        ([1, 2, 3], 1, Side.OPPOSING, -1),
    ],
)
def test_undefended_action_is_a_challenge(
    faces: list[int], difficulty: int, winner: Side, outcome: int
) -> None:
    """docs/rulings.md §3.5: undefended, the roll's own Outcome (a failure's is −Difficulty)."""
    contest = decide([read(faces, difficulty=difficulty)])
    assert contest.decided_by is Decision.UNDEFENDED
    assert (contest.winner, contest.outcome) == (winner, outcome)
    assert contest.opposing is None


def test_each_side_keeps_its_best_roll() -> None:
    contest = decide([read([1, 2, 3]), read([2, 2, 1])], [read([1, 1, 6]), read([2, 2, 6, 6])])
    assert contest.acting.faces == (2, 2, 1)
    assert contest.opposing is not None and contest.opposing.faces == (2, 2, 6, 6)
    assert contest.winner is Side.OPPOSING and contest.decided_by is Decision.NUDGES


def test_acting_side_prefers_a_success_over_a_higher_failed_result() -> None:
    contest = decide([read([4, 4, 1], difficulty=5), read([5, 5, 1], difficulty=5)], [read([1, 2, 3])])
    assert contest.acting.result == 5 and contest.winner is Side.ACTING


def test_extras_count_no_nudges_in_a_tie() -> None:
    contest = decide([read([3, 3, 6, 6], extra=True)], [read([3, 3, 6])])
    assert contest.winner is Side.OPPOSING and contest.decided_by is Decision.NUDGES


def test_free_nudges_break_ties() -> None:
    big = read([3, 3, 1, 2, 4, 5, 1, 2, 4, 5], pool=build_pool(12))
    assert big.result == 5
    contest = decide([big], [read([5, 5, 6])])
    assert contest.winner is Side.ACTING and contest.decided_by is Decision.NUDGES


@pytest.mark.parametrize(("acting", "opposing"), [([], [read([1, 1])]), ([read([1, 1])] * 11, [])])
def test_bad_contests(acting: list[Reading], opposing: list[Reading]) -> None:
    with pytest.raises(RulesError):
        decide(acting, opposing)


def test_roll_contest_is_reproducible() -> None:
    pools = [build_pool(6)], [build_pool(5), build_pool(3)]
    first = roll_contest(*pools, random.Random(7), difficulty=2)
    assert first == roll_contest(*pools, random.Random(7), difficulty=2)
    assert len(first.opposing_rolls) == 2 and first.acting.difficulty == 2
