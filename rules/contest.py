"""Contests: one side acts, the other resists (docs/rulings.md §3).

Each side may have several rollers and keeps its best roll. The acting side must first succeed
on its own terms (a matching set that meets its Difficulty, 1 when none was set); then the
higher Result wins, equal Results go to the side with more Nudges, and equal Nudges too are a
stalemate that carries on into the next Beat or round.

Rulings where the text leaves room:

* Nudges in a tie-break count the 6s thrown plus the free Nudges of an oversized pool (a bigger
  pool is meant to be an edge); Extras count none.
* An undefended action is a plain Challenge: its Outcome is the roll's own Outcome, which
  counts a failed roll's Result as 0 (docs/rulings.md §3.5, §2.5).
* When the acting side fails outright, its Result counts as 0 there too, so the Contest's
  Outcome is the defender's Result (docs/rulings.md §3.6): a set of 4s short of Difficulty 5
  against a defender's 2s is Outcome 2, not 0.
"""

import random
from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.errors import RulesError
from rules.outcome import DEFAULT_DIFFICULTY
from rules.pool import Pool
from rules.roll import Reading, roll

MAX_ROLLERS = 10


class Side(StrEnum):
    ACTING = "acting"
    OPPOSING = "opposing"


class Decision(StrEnum):
    """What settled the Contest, so the bot can say why."""

    UNDEFENDED = "undefended"
    FAILED_OUTRIGHT = "failed outright"
    RESULT = "higher Result"
    NUDGES = "more Nudges"
    STALEMATE = "stalemate"


class ContestResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    acting_rolls: tuple[Reading, ...]
    opposing_rolls: tuple[Reading, ...]
    winner: Side | None
    """``None`` for a stalemate."""
    decided_by: Decision
    outcome: int
    """The winner's Result minus the loser's (see the module rulings for the edge cases)."""

    @property
    def acting(self) -> Reading:
        """The acting side's best roll, the one that counts."""
        return best_acting(self.acting_rolls)

    @property
    def opposing(self) -> Reading | None:
        return best_opposing(self.opposing_rolls) if self.opposing_rolls else None

    @property
    def stalemate(self) -> bool:
        return self.winner is None

    @property
    def acting_succeeds(self) -> bool:
        return self.winner is Side.ACTING


def best_acting(rolls: Sequence[Reading]) -> Reading:
    """The acting side's best roll: a success first, then the higher Result, then more Nudges."""
    return max(rolls, key=lambda r: (r.success, r.result, r.tiebreak_nudges))


def best_opposing(rolls: Sequence[Reading]) -> Reading:
    """The resisting side's best roll: the higher Result, then more Nudges."""
    return max(rolls, key=lambda r: (r.result, r.tiebreak_nudges))


def _check_side(rolls: Sequence[object], side: str, *, allow_empty: bool) -> None:
    if not rolls and not allow_empty:
        raise RulesError(f"The {side} side needs at least one roll.")
    if len(rolls) > MAX_ROLLERS:
        raise RulesError(f"At most {MAX_ROLLERS} characters can roll for one side of a Contest.")


def decide(acting: Sequence[Reading], opposing: Sequence[Reading] = ()) -> ContestResult:
    """Settle a Contest from rolls already read (docs/rulings.md §3).

    The acting rolls carry the Contest's Difficulty (read them with it). An empty ``opposing``
    means the target did not defend.
    """
    _check_side(acting, "acting", allow_empty=False)
    _check_side(opposing, "opposing", allow_empty=True)
    act = best_acting(acting)

    def result(winner: Side | None, decided_by: Decision, outcome: int) -> ContestResult:
        return ContestResult(
            acting_rolls=tuple(acting),
            opposing_rolls=tuple(opposing),
            winner=winner,
            decided_by=decided_by,
            outcome=outcome,
        )

    if not opposing:
        winner = Side.ACTING if act.success else Side.OPPOSING
        return result(winner, Decision.UNDEFENDED, act.outcome)
    opp = best_opposing(opposing)
    if not act.success:
        return result(Side.OPPOSING, Decision.FAILED_OUTRIGHT, opp.result - act.counted_result)
    if act.result != opp.result:
        winner = Side.ACTING if act.result > opp.result else Side.OPPOSING
        return result(winner, Decision.RESULT, abs(act.result - opp.result))
    if act.tiebreak_nudges != opp.tiebreak_nudges:
        winner = Side.ACTING if act.tiebreak_nudges > opp.tiebreak_nudges else Side.OPPOSING
        return result(winner, Decision.NUDGES, 0)
    return result(None, Decision.STALEMATE, 0)


def roll_contest(
    acting: Sequence[Pool],
    opposing: Sequence[Pool],
    rng: random.Random,
    *,
    difficulty: int = DEFAULT_DIFFICULTY,
    acting_extra: bool = False,
    opposing_extra: bool = False,
) -> ContestResult:
    """Roll every pool on both sides with one generator and settle the Contest."""
    _check_side(acting, "acting", allow_empty=False)
    _check_side(opposing, "opposing", allow_empty=True)
    acting_rolls = [roll(p, rng, difficulty=difficulty, extra=acting_extra) for p in acting]
    opposing_rolls = [roll(p, rng, extra=opposing_extra) for p in opposing]
    return decide(acting_rolls, opposing_rolls)
