"""Rolling a pool and reading the dice (docs/rulings.md §2).

Reading is split from rolling so that the same reading applies to dice thrown by the bot (with
an injected ``random.Random``) and to physical dice a player typed in. Every place that reads a
roll (rolls, Contests, Conflict actions and defences, the exact odds, the roll log) goes
through :func:`read` or :func:`outcome_of`, so they can never disagree.

* A failed roll counts its Result as 0 for the Outcome, whether it had no set or a set short of
  the Difficulty: a set of 4s against Difficulty 5 is Outcome -5, not -1 (docs/rulings.md
  §2.5). The matched value is still kept in ``Reading.result``, since it is what the dice show.
* A pool under 2 dice can succeed and still have a negative Outcome (Result 2, Difficulty 1, a
  pool of 0: Outcome -1). Its Complications stand; its Nudges stay perks of the success, since
  Nudges only cancel Complications on a *failed* roll (docs/rulings.md §2.8, our ruling).
* Only rolled 6s catch a Beat: three or more of them on a success ("roll three or more 6's").
  Free Nudges from an oversized pool are perks of the success and are spent with the rest, but
  never count towards the three (docs/rulings.md §2.10).
"""

import random
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.errors import RulesError
from rules.outcome import DEFAULT_DIFFICULTY, check_difficulty, clamp_outcome, outcome_name
from rules.pool import MAX_DICE, MIN_DICE, Pool

NUDGE_FACE = 6
CATCH_A_BEAT = 3
"""Rolled 6s needed on a success to spend every Nudge on an extra action (docs/rulings.md §2.10)."""
GROUP_COMPLICATION_AT = -3
"""At this Outcome or worse, one Complication may hit the roller and every ally nearby instead."""


class Reading(BaseModel):
    """Everything a roll means: the faces as thrown and what the table reads from them."""

    model_config = ConfigDict(frozen=True)

    pool: Pool
    faces: tuple[int, ...]
    difficulty: int
    extra: bool
    """Extras get no Nudges: their 6s count for nothing."""
    result: int
    """Highest value 1–5 shown on two or more dice; 0 with no matching set. Kept on a failure
    for the table to see, though the Outcome then counts it as 0 (``counted_result``)."""
    sixes: int
    """6s thrown, whoever threw them."""
    success: bool
    outcome: int
    complications: int
    group_complication: bool
    """The Narrator may swap the Complications for one that hits the roller and allies nearby."""
    nudges: int
    """Nudges this roll can spend: rolled plus free on a success, 0 on a failure or for Extras."""
    cancelled_complications: int
    """Complications the rolled Nudges cancelled on a failure."""

    @property
    def outcome_name(self) -> str:
        return outcome_name(self.outcome)

    @property
    def rolled_nudges(self) -> int:
        """6s that count as Nudges (none for Extras)."""
        return 0 if self.extra else self.sixes

    @property
    def free_nudges(self) -> int:
        """Free Nudges from an oversized pool that this roll can use (success only, never Extras)."""
        return self.pool.free_nudges if self.success and not self.extra else 0

    @property
    def tiebreak_nudges(self) -> int:
        """Nudges that break a tie in a Contest: rolled and free, none for Extras."""
        return 0 if self.extra else self.sixes + self.pool.free_nudges

    @property
    def counted_result(self) -> int:
        """The Result the Outcome counts: the matched value on a success, 0 on a failure."""
        return self.result if self.success else 0

    @property
    def can_catch_beat(self) -> bool:
        """Three or more rolled 6s on a success (never an Extra's): free Nudges do not count."""
        return self.success and self.rolled_nudges >= CATCH_A_BEAT

    @property
    def has_set(self) -> bool:
        return self.result > 0


def result_of(faces: Sequence[int]) -> int:
    """Highest value 1–5 that shows on two or more dice, or 0 with no matching set."""
    for value in range(5, 0, -1):
        if faces.count(value) >= 2:
            return value
    return 0


def outcome_of(result: int, difficulty: int, underflow: int = 0) -> int:
    """The Outcome of a Result against a Difficulty (docs/rulings.md §2.5).

    A Result short of the Difficulty is a failure and counts as 0, so a failure's Outcome is
    always -Difficulty less the undersized-pool penalty; the sum is kept on the -6…+6 scale.
    """
    counted = result if result >= difficulty else 0
    return clamp_outcome(counted - difficulty - underflow)


def _check_faces(faces: Sequence[int], pool: Pool) -> tuple[int, ...]:
    if len(faces) != pool.dice:
        raise RulesError(
            f"This pool rolls {pool.dice} dice, but {len(faces)} faces were given; "
            "type one face for each die."
        )
    for face in faces:
        if type(face) is not int or not 1 <= face <= 6:
            raise RulesError(f"Dice show 1 to 6; {face!r} is not a face of a die.")
    return tuple(faces)


def read(
    faces: Sequence[int],
    *,
    pool: Pool | None = None,
    difficulty: int = DEFAULT_DIFFICULTY,
    extra: bool = False,
) -> Reading:
    """Read dice already thrown, by the bot or at the table (docs/rulings.md §2).

    Without a ``pool`` the faces are taken as a plain pool of that many dice, which is what a
    Narrator typing in physical dice usually means. Give the pool to keep its free Nudges and
    its underflow penalty.
    """
    if not MIN_DICE <= len(faces) <= MAX_DICE:
        raise RulesError(f"A roll has {MIN_DICE} to {MAX_DICE} dice; {len(faces)} were given.")
    pool = pool if pool is not None else Pool.of_dice(len(faces))
    checked = _check_faces(faces, pool)
    check_difficulty(difficulty)
    return _reading(checked, pool, difficulty, extra)


def _reading(faces: tuple[int, ...], pool: Pool, difficulty: int, extra: bool) -> Reading:
    """What checked ``faces`` of ``pool`` read as. Built by its own constructor: for a flat model
    of plain fields pydantic-core's check costs less than ``model_construct``'s Python loop."""
    result = result_of(faces)
    sixes = faces.count(NUDGE_FACE)
    success = result >= difficulty
    outcome = outcome_of(result, difficulty, pool.underflow)
    if success and pool.outcome_bonus:
        outcome = clamp_outcome(outcome + pool.outcome_bonus)  # a tap's Outcome helps a success only (§9.4)
    owed = max(0, -outcome)
    cancelled = 0
    if not success and not extra:
        cancelled = min(owed, sixes)
    complications = owed - cancelled
    nudges = sixes + pool.free_nudges if success and not extra else 0
    return Reading(
        pool=pool,
        faces=faces,
        difficulty=difficulty,
        extra=extra,
        result=result,
        sixes=sixes,
        success=success,
        outcome=outcome,
        complications=complications,
        group_complication=outcome <= GROUP_COMPLICATION_AT and complications > 0,
        nudges=nudges,
        cancelled_complications=cancelled,
    )


def roll_faces(dice: int, rng: random.Random) -> tuple[int, ...]:
    """Throw ``dice`` six-sided dice with the given generator, one ``randint`` a die in order."""
    randint = rng.randint
    return tuple([randint(1, 6) for _ in range(dice)])


def roll(
    pool: Pool,
    rng: random.Random,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    extra: bool = False,
) -> Reading:
    """Throw a pool's dice and read them. The generator is injected so rolls replay in tests.

    The faces need no check: ``pool.dice`` is already 2-10 and the generator throws 1-6."""
    check_difficulty(difficulty)
    return _reading(roll_faces(pool.dice, rng), pool, difficulty, extra)
