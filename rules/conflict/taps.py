"""A Feruchemical tap on a Conflict action (docs/rulings.md §9.4, §9.10).

The tap is the one ``/roll`` takes (``rules.powers.feruchemy``: at most 10 × the rating, from one
metalmind, a Nudge for every 5 charges or +1 Outcome for every 10), declared with the dice of a
declaration or a switch (``DiceSpec.tap``), before any roll:

* Its charges are spent at once, whatever the roll does, in the move's one write, and told as
  any charges are (a :class:`ChargesMoved` event, one journal line, §9.9).
* Tapped for the metal's effect, its dice join the Action Dice (or a full defence's Defense
  Dice) up to 10 in all, the rest lost as on any roll (*we chose* the roll's rule: Action Dice
  may pass 10 by Traits, never by a tap); Steel's Action Dice help a physical action only, as
  the rule says. Gold lends its Health at once, Iron is a note.
* Tapped for Nudges or Outcome, it helps the action's roll only, on a success: its Nudges are
  free ones (they never count toward a Beat, §2), its Outcome is added to the Contest's.
* A Beat's extra action rolls the dice left, so it taps nothing new.

A Savant's free Nudges ride on the action's roll beside the tap's (``roll_boons``), when it rolls
their metal, by the rule ``/roll`` uses (``rules.powers.rolls.savant_boon``, §9.3, §9.10).
"""

from rules.character import Character, find_stat
from rules.conflict.events import ChargesMoved
from rules.conflict.specs import ActionKind, ActionSpec, ConflictType, DiceSpec, TapSpec
from rules.conflict.state import Conflict, Participant, PendingAttack
from rules.conflict.work import Work
from rules.contest import ContestResult, Decision
from rules.errors import RulesError
from rules.outcome import clamp_outcome
from rules.pool import MAX_DICE, Boon, Pool
from rules.powers.feruchemy import TapEffect, TapUse, bought, tap, tap_effect
from rules.powers.rolls import savant_boon, split, tapped_dice
from rules.roll import Reading

STEEL_NEEDS = ConflictType.PHYSICAL
"""Steel's tapped Action Dice help a physical action only (§9.4)."""


def planned_tap(
    sheet: Character, action: ActionSpec, kind: ConflictType, dice: DiceSpec, *, declaring: bool = True
) -> TapEffect | None:
    """The tap the dice declare, checked against the sheet (rating and metalmind) and the action
    (Steel's dice on a physical action only; Wits to declare by only on a declaration), or None."""
    asked = dice.tap
    if asked is None:
        return None
    if asked.use is TapUse.WITS and not declaring:
        raise RulesError("A tap for Wits moves you in the declaring order: tap it when you declare.")
    if action.kind is ActionKind.NO_ROLL:
        raise RulesError("An action without a roll has nothing to tap for; leave the tap out.")
    effect = tap_effect(sheet, asked.metal, asked.charges, asked.use)
    if asked.use is TapUse.EFFECT and effect.metal == "Steel" and kind is not STEEL_NEEDS:
        raise RulesError(
            "Tapped Steel gives Action Dice to a physical action only: tap it for Nudges or Outcome "
            "instead, or declare a physical action."
        )
    return effect


def as_spent(dice: DiceSpec, effect: TapEffect | None) -> DiceSpec:
    """The dice as declared, the tap's metal named as the sheet names it, so the roll reads it."""
    if effect is None or dice.tap is None:
        return dice
    return dice.model_copy(update={"tap": dice.tap.model_copy(update={"metal": effect.metal})})


def tap_parts(effect: TapEffect | None, before: int) -> list[tuple[str, int]]:
    """The dice a tap for its effect adds to a pile of ``before`` dice, named ("Steel tapped 4"):
    up to 10 in all, the rest lost as on any roll (``rules.powers.rolls.tapped_dice``)."""
    if effect is None or not effect.dice:
        return []
    kept, _ = tapped_dice(effect, before)
    return split(f"{effect.metal} tapped", kept)


def lost_note(effect: TapEffect | None, pool: Pool) -> tuple[str, ...]:
    """The line for tapped dice lost past 10 in the figured ``pool``, for the charges' event."""
    if effect is None or not effect.dice:
        return ()
    label = f"{effect.metal} tapped"
    kept = sum(part.dice for part in pool.contributions if part.label == label)
    return tuple(tapped_dice(effect, MAX_DICE - kept)[1])


def spend_tap(
    work: Work, participant: Participant, effect: TapEffect | None, lost: tuple[str, ...] = ()
) -> None:
    """Spend the tap's charges from the fullest metalmind of its metal, saved with the move and
    told as a :class:`ChargesMoved` (§9.9); a note says what the dice do not show."""
    if effect is None:
        return
    sheet = work.sheet(participant)
    changed = tap(sheet, effect)
    work.save_sheet(participant.id, changed.character)
    notes = [f"{effect.metal} tapped: {effect.note}."] if effect.note else []
    notes += lost
    if effect.nudges:
        notes.append(f"{effect.metal} tapped: {effect.nudges} free Nudges on a success.")
    if effect.outcome:
        notes.append(f"{effect.metal} tapped: +{effect.outcome} Outcome on a success.")
    if effect.wits:
        notes.append(f"{effect.metal} tapped: +{effect.wits} Wits to declare by next round.")
    work.emit(ChargesMoved(participant=participant.id, moves=changed.moves, notes=tuple(notes)))


def _declared_tap(conflict: Conflict, pending: PendingAttack) -> TapSpec | None:
    if pending.extra:
        return None  # a Beat's extra action taps nothing (its dice are what is left)
    attacker = conflict.find(pending.attacker)
    declaration = attacker.round.declaration if attacker is not None else None
    if declaration is None or declaration.dice is None:
        return None
    return declaration.dice.tap


def roll_boons(conflict: Conflict, work: Work, pending: PendingAttack) -> tuple[Boon, ...]:
    """What the action's roll gets on a success besides its dice: a Savant's free Nudges when it
    rolls their metal (§9.3, §9.10), and the Nudges or Outcome of the tap spent at its
    declaration (§9.4)."""
    savant = _savant(conflict, work, pending)
    asked = _declared_tap(conflict, pending)
    if asked is None or asked.use in (TapUse.EFFECT, TapUse.WITS):
        return savant
    effect = bought(asked.metal, asked.charges, asked.use)
    return (*savant, Boon(label=f"{effect.metal} tapped", nudges=effect.nudges, outcome=effect.outcome))


def _savant(conflict: Conflict, work: Work, pending: PendingAttack) -> tuple[Boon, ...]:
    attacker = conflict.find(pending.attacker)
    declaration = attacker.round.declaration if attacker is not None and not pending.extra else None
    if attacker is None or declaration is None or declaration.dice is None:
        return ()
    sheet = work.sheet(attacker)
    if not sheet.allomancy.savants:
        return ()
    try:
        ref = find_stat(sheet, declaration.dice.stat)
    except RulesError:  # the Power was taken off the sheet since: no Savant's Nudges on it
        return ()
    return savant_boon(sheet, ref)


def with_tapped_outcome(result: ContestResult, acting: Reading) -> ContestResult:
    """A tap's Outcome on a won Contest: the roll's reading adds it to an undefended roll's
    Outcome already (``rules.roll.read``); a defended one's is the Results' difference, so it is
    added here, kept within 6 (§9.4)."""
    bonus = acting.pool.outcome_bonus
    if not bonus or not result.acting_succeeds or result.decided_by is Decision.UNDEFENDED:
        return result
    return result.model_copy(update={"outcome": clamp_outcome(result.outcome + bonus)})
