"""Exact odds for rolls and Contests, as fractions.

A throw of n dice is summarised by how many dice show each face. There are C(n+5, 5) such
tallies (3003 for ten dice), each with a multinomial weight, so the exact distribution of
(Result, 6s) for every pool size costs a few thousand integer steps and is computed once.
Everything else — success, Outcomes, Complications, Contests — follows from that
distribution by applying the same reading rules as :mod:`rules.roll`, so the odds and the
dice can never disagree.
"""

from collections import defaultdict
from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import cache
from math import factorial, prod

from pydantic import BaseModel, ConfigDict

from rules.errors import RulesError
from rules.outcome import DEFAULT_DIFFICULTY, MAX_DIFFICULTY, MIN_DIFFICULTY, check_difficulty
from rules.pool import MAX_DICE, MIN_DICE, Pool
from rules.roll import CATCH_A_BEAT, outcome_of

Distribution = Mapping[tuple[int, int], Fraction]
"""Chance of each (Result, number of 6s) for one throw."""


def _tallies(dice: int, faces: int = 6) -> Iterator[tuple[int, ...]]:
    """Every way to split ``dice`` dice among ``faces`` faces (counts per face)."""
    if faces == 1:
        yield (dice,)
        return
    for first in range(dice + 1):
        for rest in _tallies(dice - first, faces - 1):
            yield (first, *rest)


@cache
def distribution(dice: int) -> Distribution:
    """Exact chance of every (Result, 6s) pair when throwing ``dice`` dice (2–10)."""
    if not MIN_DICE <= dice <= MAX_DICE:
        raise RulesError(f"A roll has {MIN_DICE} to {MAX_DICE} dice; {dice} is out of range.")
    weights: defaultdict[tuple[int, int], int] = defaultdict(int)
    for counts in _tallies(dice):
        result = next((v for v in range(5, 0, -1) if counts[v - 1] >= 2), 0)
        ways = factorial(dice) // prod(factorial(c) for c in counts)
        weights[(result, counts[5])] += ways
    total = 6**dice
    return {key: Fraction(w, total) for key, w in sorted(weights.items())}


def _as_pool(pool: Pool | int) -> Pool:
    return pool if isinstance(pool, Pool) else _bare_pool(pool)


@cache
def _bare_pool(dice: int) -> Pool:
    """A bare count as a pool, built once per count (pools are frozen, so sharing is safe)."""
    return Pool.of_dice(dice)


class Odds(BaseModel):
    """What to expect from one pool against one Difficulty."""

    model_config = ConfigDict(frozen=True)

    dice: int
    free_nudges: int
    underflow: int
    difficulty: int
    extra: bool
    success: Fraction
    outcomes: dict[int, Fraction]
    """Chance of each Outcome, -6…+6, zeros left out."""
    expected_complications: Fraction
    """Average Complications left after rolled Nudges cancel what they can."""
    catch_a_beat: Fraction
    """Chance of a success with three or more rolled 6s (free Nudges never count, §2.10)."""


def odds(pool: Pool | int, difficulty: int = DEFAULT_DIFFICULTY, *, extra: bool = False) -> Odds:
    """Exact odds of a pool (or a bare dice count) against a Difficulty (docs/rulings.md §1–2).

    A failure's Outcome counts its Result as 0 (§2.5), exactly as
    :func:`rules.roll.read` reads the dice.
    """
    pool = _as_pool(pool)
    check_difficulty(difficulty)
    return _odds(pool.dice, pool.free_nudges, pool.underflow, difficulty, extra)


@cache
def _odds(dice: int, free_nudges: int, underflow: int, difficulty: int, extra: bool) -> Odds:
    """The odds depend only on these five numbers; a few hundred combinations exist, each
    computed once (the full table costs ~10 ms of fractions the first time, nothing after)."""
    success = Fraction(0)
    beat = Fraction(0)
    complications = Fraction(0)
    outcomes: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (result, sixes), chance in distribution(dice).items():
        succeeded = result >= difficulty
        outcome = outcome_of(result, difficulty, underflow)
        owed = max(0, -outcome)
        if not succeeded and not extra:
            owed = max(0, owed - sixes)
        outcomes[outcome] += chance
        complications += owed * chance
        if succeeded:
            success += chance
            if not extra and sixes >= CATCH_A_BEAT:
                beat += chance
    return Odds(
        dice=dice,
        free_nudges=free_nudges,
        underflow=underflow,
        difficulty=difficulty,
        extra=extra,
        success=success,
        outcomes=dict(sorted(outcomes.items())),
        expected_complications=complications,
        catch_a_beat=beat,
    )


def success_chance(pool: Pool | int, difficulty: int = DEFAULT_DIFFICULTY) -> Fraction:
    """Exact chance that a pool meets a Difficulty."""
    return odds(pool, difficulty).success


def odds_table() -> dict[int, dict[int, Fraction]]:
    """Chance of success for every pool of 2–10 dice against every Difficulty 1–5."""
    return {
        dice: {d: success_chance(dice, d) for d in range(MIN_DIFFICULTY, MAX_DIFFICULTY + 1)}
        for dice in range(MIN_DICE, MAX_DICE + 1)
    }


class ContestOdds(BaseModel):
    """Exact chances of a two-pool Contest, from the acting side's view."""

    model_config = ConfigDict(frozen=True)

    win: Fraction
    lose: Fraction
    stalemate: Fraction


def contest_odds(
    acting: Pool | int,
    opposing: Pool | int,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    acting_extra: bool = False,
    opposing_extra: bool = False,
) -> ContestOdds:
    """Exact win / lose / stalemate chances of a Contest between two pools (docs/rulings.md §3).

    Uses the same tie-break as :func:`rules.contest.decide`: Nudges are 6s plus free Nudges,
    and Extras count none.
    """
    acting, opposing = _as_pool(acting), _as_pool(opposing)
    check_difficulty(difficulty)
    return _contest_odds(
        acting.dice,
        0 if acting_extra else acting.free_nudges,
        acting_extra,
        opposing.dice,
        0 if opposing_extra else opposing.free_nudges,
        opposing_extra,
        difficulty,
    )


@cache
def _contest_odds(
    acting_dice: int,
    acting_free: int,
    acting_extra: bool,
    opposing_dice: int,
    opposing_free: int,
    opposing_extra: bool,
    difficulty: int,
) -> ContestOdds:
    """A Contest's odds depend only on these numbers (a few thousand combinations), so each is
    computed once, like a roll's (:func:`_odds`): a member asking again costs nothing."""
    win = stalemate = Fraction(0)
    opp_dist = distribution(opposing_dice)
    for (a_result, a_sixes), a_chance in distribution(acting_dice).items():
        if a_result < difficulty:
            continue
        a_nudges = 0 if acting_extra else a_sixes + acting_free
        for (o_result, o_sixes), o_chance in opp_dist.items():
            o_nudges = 0 if opposing_extra else o_sixes + opposing_free
            if (a_result, a_nudges) > (o_result, o_nudges):
                win += a_chance * o_chance
            elif (a_result, a_nudges) == (o_result, o_nudges):
                stalemate += a_chance * o_chance
    return ContestOdds(win=win, lose=1 - win - stalemate, stalemate=stalemate)
