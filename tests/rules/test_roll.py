"""Rolling and reading dice (docs/rulings.md §2)."""

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.outcome import OUTCOME_NAMES, difficulty_name, outcome_name
from rules.pool import Pool, build_pool
from rules.roll import outcome_of, read, result_of, roll

FACES = st.lists(st.integers(1, 6), min_size=2, max_size=10)


@pytest.mark.parametrize(
    ("faces", "difficulty", "result", "success", "outcome", "complications", "nudges"),
    [
        ([1, 2, 3, 4, 5], 1, 0, False, -1, 1, 0),  # no set: Result 0
        ([5, 5, 1], 3, 5, True, 2, 0, 0),
        ([2, 2, 5, 5, 1], 1, 5, True, 4, 0, 0),  # two sets: the higher counts
        ([4, 4, 2], 5, 4, False, -5, 5, 0),  # a short set shows its 4s, but counts as 0: -5
        ([4, 4, 6], 5, 4, False, -5, 4, 0),  # a rolled Nudge cancels one Complication
        ([1, 2, 3, 6, 6], 5, 0, False, -5, 3, 0),  # two of five cancelled
        ([1, 2, 6, 6, 6], 3, 0, False, -3, 0, 0),  # cancelling never goes below 0
        ([1, 2, 6, 6, 6, 6, 6], 1, 0, False, -1, 0, 0),
        ([3, 3, 6, 6, 6], 1, 3, True, 2, 0, 3),
        ([3, 3, 6, 6, 6, 6, 1, 2], 1, 3, True, 2, 0, 4),  # Thorrow's hit
        ([3, 3, 3, 3], 3, 3, True, 0, 0, 0),  # Outcome 0 is a bare success
        ([6, 6], 1, 0, False, -1, 0, 0),  # 6s are never a set
        ([1, 1], 2, 1, False, -2, 2, 0),  # a set of 1s short of 2 counts as 0
    ],
)
def test_reading(
    faces: list[int],
    difficulty: int,
    result: int,
    success: bool,
    outcome: int,
    complications: int,
    nudges: int,
) -> None:
    """6s are Nudges, the Result is the highest pair, and a failure's Outcome counts the Result
    as 0 (docs/rulings.md §2.1, §2.4, §2.5, §2.7)."""
    reading = read(faces, difficulty=difficulty)
    assert reading.faces == tuple(faces)
    assert (reading.result, reading.success, reading.outcome) == (result, success, outcome)
    assert (reading.complications, reading.nudges) == (complications, nudges)


@pytest.mark.parametrize(
    ("faces", "difficulty", "pool", "shown", "outcome", "name", "complications"),
    [
        ((4, 4, 1), 5, 3, 4, -5, "Disastrous", 5),  # /read faces:"4 4 1" difficulty:5
        ((4, 4, 1), 4, 3, 4, 0, "Passable", 0),  # the same 4s meet Difficulty 4: no failure
        ((3, 3, 5, 5, 1), 5, 5, 5, 0, "Passable", 0),  # the higher set counts
        ((3, 3, 1), 4, 3, 3, -4, "Horrible", 4),
        ((2, 2, 6), 3, 3, 2, -3, "Cringe-worthy", 2),  # the 6 cancels one Complication
        ((1, 2, 3), 3, 3, 0, -3, "Cringe-worthy", 3),  # no set: 0 as ever
        ((4, 4), 5, 1, 4, -6, "Catastrophic", 6),  # a pool of 1: -5 - 1
        ((4, 4), 5, 0, 4, -6, "Catastrophic", 6),  # -5 - 2 is kept on the scale
        ((2, 2), 1, 0, 2, -1, "Just shy", 1),  # a success from a pool of 0 keeps its 2 (§2.8)
    ],
)
def test_a_failed_roll_counts_its_result_as_zero(
    faces: tuple[int, ...],
    difficulty: int,
    pool: int,
    shown: int,
    outcome: int,
    name: str,
    complications: int,
) -> None:
    """docs/rulings.md §2.5: Outcome is Result − Difficulty, and a failed roll's Result is 0
    for it — a set short of the Difficulty reads like no set at all. The matched value is
    still shown. An undersized pool worsens it further (§1.9), never past −6."""
    reading = read(faces, pool=build_pool(pool), difficulty=difficulty)
    assert reading.result == shown
    assert reading.counted_result == (shown if reading.success else 0)
    assert (reading.outcome, reading.outcome_name, reading.complications) == (outcome, name, complications)


@pytest.mark.parametrize(
    ("faces", "difficulty", "outcome", "complications", "group"),
    [
        ([1, 2, 3, 4, 5], 3, -3, 3, True),
        ([1, 2, 3, 6, 6], 5, -5, 3, True),
        ([1, 2, 6, 6, 6], 3, -3, 0, False),  # nothing left to swap
        ([1, 2, 3, 4, 5], 2, -2, 2, False),
    ],
)
def test_group_complication_option(
    faces: list[int], difficulty: int, outcome: int, complications: int, group: bool
) -> None:
    reading = read(faces, difficulty=difficulty)
    assert (reading.outcome, reading.complications, reading.group_complication) == (
        outcome,
        complications,
        group,
    )


def test_extras_get_no_nudges() -> None:
    success = read([3, 3, 6, 6, 6], extra=True)
    assert success.success and success.nudges == 0 and not success.can_catch_beat
    assert success.sixes == 3 and success.rolled_nudges == 0 and success.tiebreak_nudges == 0
    failure = read([1, 2, 6], difficulty=2, extra=True)
    assert failure.outcome == -2 and failure.complications == 2 and failure.cancelled_complications == 0


def test_free_nudges_count_on_success_only() -> None:
    pool = build_pool(12)
    hit = read([3, 3, 1, 2, 4, 5, 1, 2, 4, 6], pool=pool)
    assert hit.success and hit.nudges == 3 and hit.free_nudges == 2
    assert not hit.can_catch_beat  # one rolled 6: free Nudges never count towards a Beat
    # Free Nudges never cancel Complications.
    miss = read([4, 4, 1, 1, 2, 2, 3, 3, 4, 4], pool=pool, difficulty=5)
    assert not miss.success and miss.complications == 5 and miss.nudges == 0 and miss.free_nudges == 0


def test_underflow_worsens_the_outcome() -> None:
    pool = build_pool(0)
    assert pool.dice == 2 and pool.underflow == 2
    # A success with a negative Outcome keeps its Complication and its success.
    low = read([2, 2], pool=pool)
    assert low.success and low.outcome == -1 and low.complications == 1
    worst = read([1, 2], pool=pool, difficulty=5)
    assert worst.outcome == -6 and worst.outcome_name == "Catastrophic"


@pytest.mark.parametrize(
    ("faces", "total", "extra", "nudges", "beat"),
    [
        ((3, 3, 6, 6, 6), 5, False, 3, True),  # three rolled 6s on a success
        ((3, 3, 6, 6, 6, 6), 6, False, 4, True),
        ((3, 3, 6, 6, 1), 5, False, 2, False),
        ((3, 3, 1, 2, 4, 5, 1, 2, 4, 5), 13, False, 3, False),  # three free Nudges, no 6
        ((3, 3, 6, 1, 2, 4, 5, 1, 2, 4), 12, False, 3, False),  # one 6 + two free
        ((3, 3, 6, 6, 6, 1, 2, 4, 5, 1), 12, False, 5, True),  # the free ones are spent with them
        ((3, 3, 6, 6, 6), 5, True, 0, False),  # an Extra's 6s are no Nudges at all
    ],
)
def test_only_rolled_sixes_catch_a_beat(
    faces: tuple[int, ...], total: int, extra: bool, nudges: int, beat: bool
) -> None:
    """docs/rulings.md §2.10: three or more *rolled* 6s on a success let the roller spend every
    Nudge on an extra action; free Nudges from an oversized pool are perks of the success but
    never count towards the three."""
    reading = read(faces, pool=build_pool(total), extra=extra)
    assert reading.success
    assert (reading.nudges, reading.can_catch_beat) == (nudges, beat)


def test_catch_a_beat_needs_three_nudges_and_a_success() -> None:
    assert read([2, 2, 6, 6, 6]).can_catch_beat
    assert not read([2, 2, 6, 6]).can_catch_beat
    assert not read([1, 2, 6, 6, 6], difficulty=1).can_catch_beat


@pytest.mark.parametrize(
    ("faces", "kwargs", "message"),
    [
        ([1, 7], {}, "not a face"),
        ([0, 1], {}, "not a face"),
        ([1, True], {}, "not a face"),
        ([1], {}, "2 to 10 dice"),
        ([1] * 11, {}, "2 to 10 dice"),
        ([1] * 30, {}, "2 to 10 dice"),
        ([1, 2], {"difficulty": 9}, "Difficulty runs from 1"),
        ([1, 2], {"difficulty": 0}, "Difficulty runs from 1"),
        ([1, 2, 3], {"pool": Pool.of_dice(4)}, "rolls 4 dice"),
    ],
)
def test_bad_faces_explain_themselves(faces: list[int], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        read(faces, **kwargs)


def test_roll_is_reproducible_from_the_seed() -> None:
    pool = build_pool(7)
    first = roll(pool, random.Random(42), difficulty=3)
    again = roll(pool, random.Random(42), difficulty=3)
    assert first == again and len(first.faces) == 7
    assert first == read(first.faces, pool=pool, difficulty=3)


def test_names() -> None:
    assert [outcome_name(o) for o in (6, 2, 0, -1, -3, -6)] == [
        "Godlike",
        "Excellent",
        "Passable",
        "Just shy",
        "Cringe-worthy",
        "Catastrophic",
    ]
    assert outcome_name(-9) == "Catastrophic" and len(OUTCOME_NAMES) == 13
    assert difficulty_name(4) == "Very Hard"


@given(faces=FACES, difficulty=st.integers(1, 5), total=st.integers(0, 20), extra=st.booleans())
def test_reading_invariants(faces: list[int], difficulty: int, total: int, extra: bool) -> None:
    pool = build_pool(total)
    faces = (faces * 10)[: pool.dice]
    r = read(faces, pool=pool, difficulty=difficulty, extra=extra)
    assert -6 <= r.outcome <= 6
    assert r.complications >= 0
    assert r.success == (r.result >= difficulty)
    assert r.result == result_of(faces)
    assert r.result == 0 or faces.count(r.result) >= 2
    assert all(faces.count(v) < 2 for v in range(r.result + 1, 6))
    assert r.outcome >= 0 or r.complications + r.cancelled_complications == -r.outcome
    if r.outcome >= 0:
        assert r.complications == 0
    if not r.success or extra:
        assert r.nudges == 0
    else:
        assert r.nudges == faces.count(6) + pool.free_nudges
    if r.success and pool.underflow == 0:
        assert r.outcome >= 0
    assert not r.group_complication or r.outcome <= -3


@given(faces=FACES, difficulty=st.integers(1, 5), total=st.integers(0, 20), extra=st.booleans())
def test_a_beat_is_offered_only_for_three_rolled_sixes_on_a_success(
    faces: list[int], difficulty: int, total: int, extra: bool
) -> None:
    """docs/rulings.md §2.10: a Beat iff the roll succeeds and shows three or more 6s (not an
    Extra's), however many free Nudges the pool has."""
    pool = build_pool(total)
    faces = (faces * 10)[: pool.dice]
    r = read(faces, pool=pool, difficulty=difficulty, extra=extra)
    assert r.can_catch_beat == (r.success and not extra and faces.count(6) >= 3)


@given(faces=FACES, difficulty=st.integers(1, 5), total=st.integers(-10, 20), extra=st.booleans())
def test_a_failures_outcome_is_minus_the_difficulty_less_the_underflow(
    faces: list[int], difficulty: int, total: int, extra: bool
) -> None:
    """docs/rulings.md §2.5: on any failure, whatever set was rolled, Outcome =
    −Difficulty − underflow, kept on the −6 scale; on a success it is Result − Difficulty −
    underflow."""
    pool = build_pool(0, modifiers=[("Modifier", total)]) if total < 0 else build_pool(total)
    faces = (faces * 10)[: pool.dice]
    r = read(faces, pool=pool, difficulty=difficulty, extra=extra)
    if r.success:
        assert r.outcome == max(-6, min(6, r.result - difficulty - pool.underflow))
    else:
        assert r.outcome == max(-6, -difficulty - pool.underflow)
        assert r.outcome == outcome_of(r.result, difficulty, pool.underflow)


@given(
    faces=st.lists(st.integers(-10, 20), max_size=15),
    difficulty=st.integers(-3, 10),
    extra=st.booleans(),
)
def test_any_input_reads_or_raises_a_rules_error(faces: list[int], difficulty: int, extra: bool) -> None:
    try:
        r = read(faces, difficulty=difficulty, extra=extra)
    except RulesError as error:
        assert str(error)
    else:
        assert 2 <= len(r.faces) <= 10 and 1 <= difficulty <= 5
