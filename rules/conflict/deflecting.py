"""What a defence prompt offers a Steel or Iron burner facing a metal attack (docs/rulings.md §9.3):
the metal they would deflect with and the dice they could commit. The deflection itself is an
ordinary defence (``rules.conflict.defend``); this only says when to offer it and how much.
"""

from collections.abc import Mapping

from rules.character import Character
from rules.conflict.commands import Defend
from rules.conflict.defend import needs_grant
from rules.conflict.figure import grant_pool
from rules.conflict.state import Awaiting, Conflict
from rules.conflict.work import Work
from rules.errors import RulesError
from rules.pool import MAX_DICE
from rules.powers.pushes import Deflection, deflection


def metal_attack_waiting(state: Conflict) -> bool:
    """Whether a push, a pull or a metal projectile waits for its target's defence: what a Steel or
    Iron burner may deflect (§9.3)."""
    pending = state.pending
    if pending is None or pending.awaiting is not Awaiting.DEFENCE or pending.target is None:
        return False
    return pending.action.push is not None or pending.action.metal


def deflect_offer(
    state: Conflict, sheets: Mapping[int, Character], traits: int = 0
) -> tuple[Deflection, int] | None:
    """The pending attack's target's deflection and the most dice they could deflect with (a
    busy target's Defense Dice granted with the metal, ``traits`` reaction Traits helping); None
    when the attack is no metal attack, the target burns neither Steel nor Iron, or has under 2."""
    pending = state.pending
    if not metal_attack_waiting(state) or pending is None or pending.target is None:
        return None
    sheet = sheets.get(pending.target)
    if sheet is None:
        return None
    try:
        deflecting = deflection(sheet)
    except RulesError:
        return None
    target = state.participant(pending.target)
    held = target.pile
    if needs_grant(target):
        reaction = Defend(participant=target.id, dice=0, traits_for=traits, deflect=True)
        work = Work.start(sheets, None)
        held += max(0, grant_pool(state, work, target, pending.action, reaction, deflecting).total)
    most = min(MAX_DICE, held)
    return (deflecting, most) if most >= 2 else None
