"""What a success does: damage, wounds, defeat, and the Nudges' other uses (docs/rulings.md §2, §5).

A successful attack deals 1 + the Nudges spent on damage + the weapon's bonus (a physical
attack's, or a Prop a social or mental attack names, docs/rulings.md §5.1), less armour when
the attack is physical (whatever Resilience it aims at; never against a social or mental
attack, docs/rulings.md §5.2), never below 0. The damage lands through
``rules.character.apply_damage``, which keeps wounds and defeat in one place: an Extras group
loses one member a point, a Hero or Villain loses Resilience and may take a wound Burden.

Rulings:

* Removing dice takes them from whatever the target holds now (Action Dice before their turn,
  Defense Dice after) and stops at 0; a Nudge spent on nothing left is simply gone.
* A caught Beat needs at least 2 dice left to form the extra action's pool; otherwise it is
  refused rather than spending the Nudges for nothing, and not offered (``beat_possible``).
* The defeat Burden can be named when acting (used if the roll has no Nudges to spend) and
  again when spending Nudges; a value given when spending wins.
* A target defeated by someone who acted at the same step of the resolve order (tied Action
  Dice) still takes their own action: tied characters act at once (docs/rulings.md §4).
"""

from rules.burdens import Severity
from rules.character import Resilience, apply_damage
from rules.conflict.commands import SpendNudges
from rules.conflict.events import BeatCaught, DamageDealt, Defeated, DiceRemoved, NudgesSpent, Pile
from rules.conflict.figure import armour_of, attack_weapon, kind_of
from rules.conflict.metals import knocked_out_burns
from rules.conflict.specs import ActionKind, ConflictType
from rules.conflict.state import (
    Awaiting,
    Conflict,
    LogEntry,
    LogKind,
    Participant,
    PendingAttack,
    Phase,
    Status,
)
from rules.conflict.work import Work, check_count, require_phase
from rules.errors import RulesError
from rules.powers.metal_effects import stunt_soak
from rules.roll import CATCH_A_BEAT

MIN_POOL = 2


def spend_nudges(conflict: Conflict, work: Work, command: SpendNudges) -> Conflict:
    require_phase(conflict, Phase.RESOLVE)
    pending = conflict.pending
    if pending is None or pending.awaiting is not Awaiting.NUDGES:
        raise RulesError("There are no Nudges waiting to be spent.")
    if command.attack_id is not None and command.attack_id != pending.id:
        raise RulesError("Those Nudges were already spent.")
    if command.participant != pending.attacker:
        raise RulesError(f"Only {conflict.name_of(pending.attacker)} can spend the Nudges of this success.")
    return apply_success(conflict, work, pending, command)


def _check_spending(conflict: Conflict, pending: PendingAttack, command: SpendNudges) -> None:
    available = pending.nudges
    attacker = conflict.participant(pending.attacker)
    parts = (command.damage, command.remove_dice, command.next_round, command.story)
    for what, count in zip(("Damage", "Dice removed", "Next-round dice", "Story"), parts, strict=True):
        check_count(f"{what} Nudges", count, 0, 99)
    asked = sum(parts)
    if asked > available:
        raise RulesError(f"{attacker.does('has')} {available} Nudges to spend; that spends {asked}.")
    if command.damage and pending.action.kind is not ActionKind.ATTACK:
        raise RulesError("Only an attack deals damage; spend these Nudges another way.")
    if command.remove_dice and pending.target is None:
        raise RulesError("This action has no target whose dice could be removed.")
    if command.catch_beat:
        rolled = available - pending.free_nudges  # a tap's free Nudges never catch a Beat (§2, §9.4)
        if rolled < CATCH_A_BEAT:
            free = f" rolled (a tap's {pending.free_nudges} never count)" if pending.free_nudges else ""
            raise RulesError(
                f"Catching a Beat takes {CATCH_A_BEAT} or more Nudges; there are {rolled}{free}."
            )
        if asked:
            raise RulesError("Catching a Beat spends every Nudge; leave the other uses at 0.")
        if attacker.round.defense_dice < MIN_POOL:
            raise RulesError(
                f"{attacker.does('has')} {attacker.round.defense_dice} dice left; an extra action needs 2."
            )


def beat_possible(conflict: Conflict, pending: PendingAttack) -> bool:
    """Whether the success waiting for its Nudges could catch a Beat now (docs/rulings.md §2.10,
    §4.15), so the bot offers it only then.

    It takes three or more rolled 6s: a Conflict's pools are 2–10 dice, so every Nudge there is
    a rolled 6 but a tap's free ones (§9.4). And the extra action needs a pool of 2 from the dice
    the attacker still holds.
    """
    attacker = conflict.find(pending.attacker)
    return (
        pending.awaiting is Awaiting.NUDGES
        and pending.nudges - pending.free_nudges >= CATCH_A_BEAT
        and attacker is not None
        and attacker.round.defense_dice >= MIN_POOL
    )


def apply_success(conflict: Conflict, work: Work, pending: PendingAttack, command: SpendNudges) -> Conflict:
    """Settle a success: damage (attacks), then dice removed, next-round dice, and a Beat."""
    _check_spending(conflict, pending, command)
    defeat_burden = command.defeat_burden or pending.defeat_burden
    if pending.nudges:
        asked = command.damage + command.remove_dice + command.next_round + command.story
        work.emit(
            NudgesSpent(
                action_id=pending.id,
                participant=pending.attacker,
                available=pending.nudges,
                damage=command.damage,
                remove_dice=command.remove_dice,
                next_round=command.next_round,
                story=command.story,
                catch_beat=command.catch_beat,
                unspent=0 if command.catch_beat else pending.nudges - asked,
            )
        )
    if conflict.pending is not None:  # settle_roll has cleared it already
        conflict = conflict.model_copy(update={"pending": None})
    if pending.action.kind is ActionKind.ATTACK and pending.target is not None:
        conflict = deal_damage(conflict, work, pending, command.damage, defeat_burden)
    if command.remove_dice and pending.target is not None:
        conflict = _remove_dice(conflict, work, conflict.participant(pending.target), command.remove_dice)
    if not (command.next_round or command.catch_beat):
        return conflict
    attacker = conflict.participant(pending.attacker)
    if command.next_round:
        attacker = attacker.model_copy(
            update={"next_round_dice": attacker.next_round_dice + command.next_round}
        )
    if command.catch_beat:
        attacker = attacker.model_copy(
            update={"round": attacker.round.model_copy(update={"extra_action": True})}
        )
        work.emit(BeatCaught(participant=attacker.id, dice=attacker.round.defense_dice))
    return conflict.with_participant(attacker)


def deal_damage(
    conflict: Conflict,
    work: Work,
    pending: PendingAttack,
    nudges: int,
    defeat_burden: Severity | None,
    *,
    reflected: bool = False,
) -> Conflict:
    """Damage = 1 + Nudges + weapon − armour, less Denser Tissues or Iron Will while their metal
    burns (docs/rulings.md §9.7), through ``apply_damage`` (§5.1). ``reflected``: the object a
    deflection sent back (§9.3).

    The weapon is a physical attack's (its best by default); a social or mental attack adds
    only a Prop it names (``attack_weapon``). Armour counts against a physical attack, whatever
    Resilience it aims at, and against nothing else (§5.2): a breastplate stops a blow meant to
    break the will, not an insult aimed at Health.
    """
    assert pending.target is not None and pending.action.resilience is not None
    attacker = conflict.participant(pending.attacker)
    target = conflict.participant(pending.target)
    resilience = pending.action.resilience
    physical = kind_of(conflict, pending.action) is ConflictType.PHYSICAL
    weapon, weapon_name = attack_weapon(work.sheet(attacker), pending.action, physical)
    sheet = work.sheet(target)
    armour = armour_of(sheet, pending.action) if physical else 0
    amount = max(0, 1 + nudges + weapon - armour)
    soak = stunt_soak(sheet, resilience) if amount else None
    soaked = min(amount, soak[1]) if soak is not None else 0
    amount -= soaked
    result = apply_damage(sheet, resilience, amount, defeat_burden, burning_pewter=target.burning_pewter)
    if result.character is not sheet:
        work.save_sheet(target.id, result.character)
    grace = result.defeated and target.in_order and not pending.extra and target.order_key == pending.step_key
    state = target.round.model_copy(update={"grace": True}) if grace else target.round
    target = target.model_copy(
        update={
            "defeated": target.defeated or result.defeated,
            "members_left": result.character.members_left,
            "round": state,
        }
    )
    work.emit(
        DamageDealt(
            action_id=pending.id,
            attacker=attacker.id,
            target=target.id,
            resilience=resilience,
            nudges=nudges,
            weapon=weapon,
            armour=armour,
            weapon_name=weapon_name,
            amount=amount,
            taken=result.taken,
            before=result.before,
            after=result.after,
            wound=result.wound,
            burdens_added=result.burdens_added,
            burdens_skipped=result.burdens_skipped,
            members_lost=result.members_lost,
            soaked=soaked,
            soaked_by=soak[0] if soak is not None and soaked else "",
            reflected=reflected,
        )
    )
    if result.defeated:
        work.emit(Defeated(participant=target.id, condition=result.condition, simultaneous=grace))
    entry = LogEntry(
        kind=LogKind.DAMAGE,
        round=conflict.round,
        attacker=attacker.id,
        attacker_name=attacker.name,
        target=target.id,
        target_name=target.name,
        resilience=resilience,
        amount=amount,
        taken=result.taken,
        wound=result.wound,
        burdens=result.burdens_added,
        defeated=result.defeated,
        members_lost=result.members_lost,
    )
    conflict = conflict.with_participant(target, entry)
    if result.defeated and resilience is Resilience.HEALTH:
        conflict = knocked_out_burns(conflict, work, target.id)  # unconscious: no burn goes on (§9.2)
    return conflict


def _remove_dice(conflict: Conflict, work: Work, target: Participant, count: int) -> Conflict:
    """Nudges that take the target's dice (docs/rulings.md §5): from the pile they hold now."""
    state = target.round
    waiting = state.status is Status.WAITING
    held = state.action_dice if waiting else state.defense_dice
    removed = min(count, held)
    pile_field = "action_dice" if waiting else "defense_dice"
    new_state = state.model_copy(update={pile_field: held - removed, "removed": state.removed + removed})
    work.emit(
        DiceRemoved(
            participant=target.id,
            pile=Pile.ACTION if waiting else Pile.DEFENSE,
            removed=removed,
            left=held - removed,
        )
    )
    return conflict.with_participant(target.model_copy(update={"round": new_state}))
