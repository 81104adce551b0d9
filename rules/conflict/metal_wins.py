"""What a Contest over metal does beyond winning it (docs/rulings.md §9.3, §9.7).

Metal inside a body moves only on a Contest won by Outcome 5 or more: won by less, the action
fails and the metal stays. A deflection that wins makes the attack miss; with 2 Nudges of the
deflector's own it catches the object, unless Reflect Ranged Attack sends it back (the Stunt
takes precedence, *we chose*); an Iron burner may draw a missed object in.
"""

from pydantic import BaseModel, ConfigDict

from rules.conflict.reflect import reflects_back
from rules.conflict.state import PendingAttack
from rules.contest import ContestResult
from rules.powers.pushes import REFLECT_NUDGES, in_body_moves


def moves_metal(pending: PendingAttack, result: ContestResult) -> bool:
    """Whether the action succeeds: a Contest won, and by Outcome 5 or more when the metal is
    inside the target's body (§9.3)."""
    if not result.acting_succeeds:
        return False
    return not pending.action.inside or in_body_moves(result.outcome)


class DeflectionWon(BaseModel):
    """A won deflection: ``back`` the Nudges past the 2 when Reflect Ranged Attack sends it
    back (else -1), ``caught`` with 2 Nudges and no reflection, ``draws`` for an Iron burner."""

    model_config = ConfigDict(frozen=True)

    back: int = -1
    caught: bool = False
    draws: bool = False


def deflection_won(
    pending: PendingAttack, result: ContestResult, deflected: str, reflects: bool, burns_iron: bool
) -> DeflectionWon | None:
    """What a deflection that won does, or None when there was none or it did not win."""
    opposing = result.opposing
    if not deflected or result.acting_succeeds or result.stalemate or opposing is None:
        return None
    back = reflects_back(pending, result, reflects)
    caught = back < 0 and opposing.nudges >= REFLECT_NUDGES
    return DeflectionWon(back=back, caught=caught, draws=burns_iron and back < 0 and not caught)
