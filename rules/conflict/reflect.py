"""Reflect Ranged Attack: a deflection won with 2 Nudges sends the object back (docs/rulings.md
§9.3, §9.7).

*We chose* the numbers the book leaves open: the deflector's own Nudges in the Contest pay the
2; the object strikes its attacker as a hit of 1 + the Nudges past those 2 + the object's weapon
bonus (as the attacker figured it), less the attacker's armour, on the Resilience it aimed at.
A deflection that wins with fewer Nudges, or by someone without the Stunt, only makes it miss.
"""

from rules.conflict.damage import deal_damage
from rules.conflict.figure import attack_weapon, kind_of
from rules.conflict.specs import ActionKind, ConflictType
from rules.conflict.state import Conflict, PendingAttack
from rules.conflict.work import Work
from rules.contest import ContestResult
from rules.powers.pushes import REFLECT_NUDGES


def reflects_back(pending: PendingAttack, result: ContestResult, reflects: bool) -> int:
    """The Nudges past the 2 when this deflection sends the attack back, else -1."""
    opposing = result.opposing
    if not reflects or result.acting_succeeds or result.stalemate or opposing is None:
        return -1
    if pending.action.kind is not ActionKind.ATTACK or opposing.nudges < REFLECT_NUDGES:
        return -1
    return opposing.nudges - REFLECT_NUDGES


def reflect(conflict: Conflict, work: Work, pending: PendingAttack, nudges: int) -> Conflict:
    """The object sent back: the attacker takes the hit as if the deflector had made it."""
    assert pending.target is not None
    physical = kind_of(conflict, pending.action) is ConflictType.PHYSICAL
    weapon, _ = attack_weapon(work.sheet(conflict.participant(pending.attacker)), pending.action, physical)
    action = pending.action.model_copy(
        update={
            "target": pending.attacker,
            "weapon": None,
            "weapon_bonus": weapon,
            "push": None,
            "armour": None,
        }
    )
    back = pending.model_copy(
        update={"attacker": pending.target, "target": pending.attacker, "action": action, "extra": True}
    )
    return deal_damage(conflict, work, back, nudges, None, reflected=True)
