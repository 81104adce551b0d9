"""What a Contest over metal does beyond winning it (docs/rulings.md §9.3, §9.7).

Metal inside a body moves only on a Contest won by Outcome 5 or more: won by less, the action
fails and the metal stays. A deflection that wins makes the attack miss; with 2 Nudges of the
deflector's own it catches the object, unless Reflect Ranged Attack sends it back (the Stunt
takes precedence, *we chose*); an Iron burner may draw a missed object in. A rioting or
soothing rolled as an action holds the emotion when it succeeds, as on ``/roll``.
"""

from pydantic import BaseModel, ConfigDict

from rules.conflict.reflect import reflects_back
from rules.conflict.state import Participant, PendingAttack
from rules.conflict.work import Work
from rules.contest import ContestResult
from rules.powers.metal_effects import emotion_roll
from rules.powers.pushes import REFLECT_NUDGES, in_body_moves
from rules.roll import Reading


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


def stirred(
    work: Work, actor: Participant, pending: PendingAttack, acting: Reading, result: ContestResult
) -> str:
    """A rioting or soothing rolled as an action does what it does on ``/roll`` (§9.3), by the
    one rule (``emotion_roll``), read from the Contest: a success while the metal burns holds
    the emotion on the actor's sheet, saved in the move's one write; a failure's Complications
    are said. The line for the roll, "" for any other action."""
    metal = pending.action.stirs
    if metal is None:
        return ""
    success = result.acting_succeeds and not result.stalemate
    done = emotion_roll(
        work.sheet(actor), metal, acting.model_copy(update={"success": success, "outcome": result.outcome})
    )
    if done is None:
        return ""
    if done.character is not None:
        work.save_sheet(actor.id, done.character)
    return done.note
