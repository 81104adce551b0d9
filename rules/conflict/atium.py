"""Atium and Electrum in a Conflict (docs/rulings.md §9.3, §9.7, §9.10).

* Atium adds its rating to the dice of every declared action that rolls (an attack, another
  rolled action, a full defence) while it burns, less the target's Electrum rating when the
  target burns Electrum (``rules.powers.metal_effects.atium_dice``). *We chose* the
  declaration's dice, not a busy defender's granted ones: those answer an action, they are not
  one.
* An Atium burner declares after everyone who does not burn it and resolves before them
  (``rules.conflict.order``); its charge each round is ``rules.powers.burning.pay_round``'s.
* Electrum adds its rating in Defense Dice once a round, when its burner declares.
* Atium Advantage: whoever defends against an Atium burner with the Stunt rolls 2 dice fewer
  (a pool under 2 rolls 2 at the Outcome penalty, §1).
"""

from rules.conflict.specs import ActionSpec
from rules.conflict.state import Conflict, Participant
from rules.conflict.work import Work
from rules.powers.metal_effects import atium_advantage, atium_dice, burns_atium, electrum_defense
from rules.powers.rolls import split

ATIUM = "Atium"


def atium_parts(
    conflict: Conflict, work: Work, actor: Participant, action: ActionSpec
) -> list[tuple[str, int]]:
    """Atium's dice on a declaration that rolls, named, less the target's Electrum."""
    if ATIUM not in actor.burning:
        return []
    sheet = work.sheet(actor)
    electrum = 0
    target = conflict.find(action.target) if action.target is not None else None
    if target is not None and (target_sheet := work.sheets.get(target.id)) is not None:
        electrum = electrum_defense(target_sheet)
    return split(ATIUM, atium_dice(sheet, electrum))


def electrum_dice(work: Work, actor: Participant) -> int:
    """Electrum's Defense Dice for the round, given when its burner declares."""
    return electrum_defense(work.sheet(actor)) if "Electrum" in actor.burning else 0


def advantage_dice(work: Work, attacker: Participant) -> int:
    """Dice off the defence against an Atium burner with Atium Advantage (a negative count)."""
    sheet = work.sheets.get(attacker.id)
    if sheet is None or not burns_atium(sheet):
        return 0
    return atium_advantage(sheet)
