"""Step 2 of a round: each character's turn (docs/rulings.md §4.7–§4.8).

On their turn a character takes the declared action (a pool of 2–10 from Action Dice, the rest
becoming Defense Dice), switches to a new action (once a round: refigured, halved rounding
up, less the dice already gone; they then go last), or does not act (every Action Die becomes
a Defense Die). Characters tied on Action Dice share the turn and may go in any order.

Rulings:

* Dice an opponent's Nudges removed count as gone when a switch is refigured, like dice spent:
  a switch must not hand them back.
* A switch is refused when the new action's dice are 2 or fewer before halving (the rule), and
  also when what is left after halving and subtracting is under 2 (no pool could be formed).
* Dice bought with last round's Nudges belong to the round, so a switch refigures them too.
* The declared action is fixed; a different target is a new action (a switch). Only the
  extra action of a caught Beat may name a new action, since it is a fresh one: ``/switch``
  (or ``Act.action``) names it at no cost, neither halving nor refiguring the dice left, and
  it is the way on when the blow that caught the Beat felled its target (§4.15).
* A switcher goes at the very end of the round, after everyone still to act, whatever dice
  anyone holds (``state.SWITCHED_STEP``; docs/rulings.md §4.7).
* A kind or Resilience the Narrator changes when the action is taken replaces the declared one,
  so the board shows the attack as it was made (docs/rulings.md §4.5).
* Holding fewer than 2 Action Dice on their turn, a character cannot form a pool: acting and
  switching are refused with a plain word that they can only choose not to act (§4.9).
"""

from rules.conflict.commands import Act, Pass, Switch
from rules.conflict.defend import can_defend, settle_roll
from rules.conflict.events import Acted, BeatActionNamed, Passed, Switched
from rules.conflict.figure import WEAPON_MAX, check_action, check_target, figure_pool, kind_of, weapon_bonus
from rules.conflict.order import beat_holder, current_turn, resolve_order
from rules.conflict.pushing import anchor
from rules.conflict.specs import ActionKind, ActionSpec
from rules.conflict.state import Awaiting, Conflict, Declaration, Participant, PendingAttack, Phase, Status
from rules.conflict.taps import as_spent, lost_note, planned_tap, spend_tap
from rules.conflict.work import Work, check_count, require_phase
from rules.errors import RulesError
from rules.outcome import DEFAULT_DIFFICULTY, check_difficulty
from rules.pool import MAX_DICE, MIN_DICE
from rules.words import names_say, verb


def pending_message(conflict: Conflict) -> str:
    pending = conflict.pending
    assert pending is not None
    attacker = conflict.name_of(pending.attacker)
    if pending.awaiting is Awaiting.DEFENCE:
        return f"{conflict.name_of(pending.target)} must first choose how to defend against {attacker}."
    if pending.awaiting is Awaiting.ROLL:
        return f"{attacker} must first give the dice rolled at the table for their action."
    return f"{attacker} must first spend the Nudges of their success."


def _check_turn(conflict: Conflict, actor: Participant) -> None:
    """Refuse anyone whose turn it is not, saying why (docs/rulings.md §4 resolve order)."""
    if conflict.pending is not None:
        raise RulesError(pending_message(conflict))
    holder = beat_holder(conflict)
    if holder is not None and holder.id != actor.id:
        takes = verb("takes", holder.many)
        raise RulesError(f"{holder.name} caught a Beat and {takes} an extra action first.")
    state = actor.round
    if state.passed:
        raise RulesError(f"{actor.name} chose not to act this round.")
    if state.acted:
        raise RulesError(f"{actor.does('has')} already acted this round.")
    if state.late:
        raise RulesError(f"{actor.name} joined during this round and takes their first turn next round.")
    if state.status is Status.UNDECLARED:
        raise RulesError(f"{actor.does('has')} not declared an action this round.")
    if state.status is Status.DONE:
        raise RulesError(f"{actor.name} declared an action that takes no turn; they can only defend.")
    if not actor.in_order:
        raise RulesError(f"{actor.does('is')} defeated and {verb('takes', actor.many)} no more turns.")
    turn = current_turn(conflict)
    if actor.id not in turn:
        first = [conflict.participant(pid) for pid in turn]
        acts = names_say([p.name for p in first], "acts", any(p.many for p in first))
        raise RulesError(f"It is not {actor.name}'s turn yet: {acts} first.")


def too_few_to_act(actor: Participant) -> bool:
    """Fewer than 2 Action Dice on their turn: no pool is possible, only not acting (§4.9)."""
    return actor.round.action_dice < MIN_DICE


def _check_can_act(actor: Participant) -> None:
    if too_few_to_act(actor):
        held = actor.round.action_dice
        dice = "1 Action Die" if held == 1 else f"{held} Action Dice"
        raise RulesError(
            f"{actor.does('holds')} only {dice}, too few for a pool of {MIN_DICE}: "
            "they can only choose not to act."
        )


def _check_pool(actor: Participant, pool: int, held: int, kind: str) -> None:
    if not MIN_DICE <= pool <= MAX_DICE:
        raise RulesError(f"A pool has {MIN_DICE} to {MAX_DICE} dice; {pool} will not do.")
    if pool > held:
        raise RulesError(f"{actor.does('has')} only {held} {kind} Dice; a pool of {pool} is too many.")


def _extra_action(conflict: Conflict, work: Work, actor: Participant, command: Act) -> ActionSpec:
    declared = actor.round.declaration
    if command.action is not None:
        if not command.action.kind.rolls:
            raise RulesError("An extra action is a rolled one; to let it go, choose not to act.")
        return check_action(conflict, work, actor, command.action, None, with_dice=False)
    if declared is None or not declared.action.kind.rolls:
        raise RulesError("Name the extra action to take: the declared action takes no roll.")
    return declared.action


def _named_weapon(work: Work, actor: Participant, action: ActionSpec, command: Act) -> ActionSpec:
    """The Prop named when acting replaces the declared one (docs/rulings.md §5.1)."""
    if command.weapon is None and command.weapon_bonus is None:
        return action
    if action.kind is not ActionKind.ATTACK:
        raise RulesError("Only an attack uses a weapon or a Prop for its damage.")
    if command.weapon is not None and command.weapon_bonus is not None:
        raise RulesError("Name the weapon Prop or give its bonus, not both.")
    if command.weapon_bonus is not None:
        check_count("A weapon's bonus", command.weapon_bonus, 0, WEAPON_MAX)
    action = action.model_copy(
        update={
            "weapon": command.weapon,
            "weapon_bonus": command.weapon_bonus,
            "push": None,
            "anchored": False,
        }
    )
    weapon_bonus(work.sheet(actor), action)
    return action


def _check_table_roll(command: Act, defendable: bool) -> None:
    """Dice rolled at the table (docs/rulings.md §7.2): faces now when nobody can resist; when the
    target may defend, the defence is chosen before anyone rolls (§4.10), so they come after it."""
    if command.table_roll and command.faces is not None:
        raise RulesError("Give the faces now or roll at the table once the defence is chosen, not both.")
    if defendable and command.faces is not None:
        raise RulesError(
            "The target may still defend, and a defence is chosen before anyone rolls: act with "
            "table_dice:true (you roll at the table), then give your dice once the defence is chosen."
        )
    if command.table_roll and not defendable:
        raise RulesError("Nobody can resist this action, so it is rolled now: give the faces you rolled.")


def act(conflict: Conflict, work: Work, command: Act) -> Conflict:
    """Take the action: form a pool; an action the target can resist then waits for the defence."""
    require_phase(conflict, Phase.RESOLVE)
    actor = conflict.participant(command.participant)
    extra = actor.round.extra_action
    if conflict.pending is not None:
        raise RulesError(pending_message(conflict))
    state = actor.round
    if extra:
        action = _extra_action(conflict, work, actor, command)
        held, kind, step_key = state.defense_dice, "Defense", -1
    else:
        _check_turn(conflict, actor)
        _check_can_act(actor)
        if command.action is not None:
            raise RulesError("Taking a different action is a switch (once a round, at half the dice).")
        assert state.declaration is not None
        action = state.declaration.action
        held, kind, step_key = state.action_dice, "Action", actor.order_key
    for field, value, what in (
        ("resilience", command.resilience, "aims at a Resilience"),
        ("attack_kind", command.attack_kind, "is physical, social or mental"),
    ):
        if value is not None:
            if action.kind is not ActionKind.ATTACK:
                raise RulesError(f"Only an attack {what}.")
            action = action.model_copy(update={field: value})
    action = _named_weapon(work, actor, action, command)
    difficulty = next(
        (d for d in (command.difficulty, action.difficulty) if d is not None), DEFAULT_DIFFICULTY
    )
    check_difficulty(difficulty)
    target = None
    if action.target is not None:
        try:
            target = check_target(conflict, actor, action.target)
        except RulesError as error:
            raise RulesError(f"{error} Switch to a new action or choose not to act.") from None
    _check_pool(actor, command.pool, held, kind)
    if extra:
        state = state.model_copy(
            update={
                "defense_dice": held - command.pool,
                "spent": state.spent + command.pool,
                "extra_action": False,
            }
        )
    else:
        declared = state.declaration
        assert declared is not None
        if action is not declared.action:
            # A kind or Resilience called at the last moment is what was done (and shown).
            declared = declared.model_copy(update={"action": action})
        state = state.model_copy(
            update={
                "declaration": declared,
                "action_dice": 0,
                "defense_dice": state.defense_dice + held - command.pool,
                "spent": state.spent + command.pool,
                "acted": True,
                "status": Status.DONE,
            }
        )
    pending = PendingAttack(
        id=conflict.actions + 1,
        attacker=actor.id,
        target=target.id if target is not None else None,
        action=action,
        pool=command.pool,
        difficulty=difficulty,
        step_key=step_key,
        extra=extra,
        defeat_burden=command.defeat_burden,
        table_roll=command.table_roll,
    )
    defendable = action.contest and target is not None and can_defend(target)
    _check_table_roll(command, defendable)
    work.emit(
        Acted(
            action_id=pending.id,
            participant=actor.id,
            kind=action.kind,
            pool=command.pool,
            kept=state.defense_dice,
            target=pending.target,
            resilience=action.resilience,
            attack_kind=action.attack_kind,
            difficulty=difficulty,
            awaiting_defence=defendable,
            extra=extra,
        )
    )
    moved = actor.model_copy(update={"round": state})
    waits: dict[str, object] = {"pending": pending} if defendable else {}  # anchoring reads no pending
    conflict = conflict.with_participant(moved, None, actions=pending.id, **waits)
    if action.anchored:
        conflict = anchor(conflict, work, actor.id)
    if defendable:
        return conflict
    return settle_roll(conflict, work, pending, command.faces, 0, None)


def switch(conflict: Conflict, work: Work, command: Switch) -> Conflict:
    """Declare a new action on one's turn (docs/rulings.md §4.8), or name a caught Beat's."""
    require_phase(conflict, Phase.RESOLVE)
    actor = conflict.participant(command.participant)
    if actor.round.extra_action and conflict.pending is None:
        return _beat_action(conflict, work, actor, command)
    _check_turn(conflict, actor)
    _check_can_act(actor)
    state = actor.round
    if state.switched:
        raise RulesError(f"{actor.does('has')} already switched actions this round; only once a round.")
    if not command.action.kind.rolls:
        raise RulesError("A new action must be one that rolls; to do nothing, choose not to act.")
    action = check_action(conflict, work, actor, command.action, command.dice)
    tapped = planned_tap(work.sheet(actor), action, kind_of(conflict, action), command.dice, declaring=False)
    pool = figure_pool(conflict, work, actor, action, command.dice, tapped)
    bonus = state.declaration.bonus if state.declaration is not None else 0
    refigured = max(0, pool.total) + bonus
    if refigured <= MIN_DICE:
        raise RulesError(
            f"The new action gives only {refigured} Action Dice; switching needs more than {MIN_DICE}."
        )
    halved = -(-refigured // 2)
    lost = state.spent + state.removed
    dice = halved - lost
    if dice < MIN_DICE:
        raise RulesError(
            f"Halved to {halved}, less the {lost} dice already gone, {actor.name} would hold {max(dice, 0)}: "
            "too few for a pool."
        )
    declaration = Declaration(
        action=action,
        dice=as_spent(command.dice, tapped),
        pool=pool.contributions,
        total=max(0, pool.total),
        bonus=bonus,
    )
    state = state.model_copy(
        update={
            "declaration": declaration,
            "action_dice": dice,
            "switched": True,
            "dropped": state.dropped + state.action_dice,
            "gained": state.gained + dice,
        }
    )
    work.emit(
        Switched(
            participant=actor.id,
            action=action,
            pool=pool.contributions,
            refigured=refigured,
            halved=halved,
            lost=lost,
            dice=dice,
        )
    )
    spend_tap(work, actor, tapped, lost_note(tapped, pool))
    return conflict.with_participant(actor.model_copy(update={"round": state}))


def _beat_action(conflict: Conflict, work: Work, actor: Participant, command: Switch) -> Conflict:
    """The Beat's extra action made a new one (docs/rulings.md §4.15): a fresh action, so no
    halving and no switch spent; its pool still comes from the dice left, taken with ``act``."""
    if not command.action.kind.rolls:
        raise RulesError("An extra action is a rolled one; to let it go, choose not to act.")
    if command.dice.tap is not None:
        raise RulesError("A Beat's extra action rolls the dice left: it taps nothing; leave the tap out.")
    action = check_action(conflict, work, actor, command.action, command.dice)
    state = actor.round
    declared = state.declaration
    declaration = (
        declared.model_copy(update={"action": action, "dice": command.dice})
        if declared is not None
        else Declaration(action=action, dice=command.dice)
    )
    work.emit(BeatActionNamed(participant=actor.id, action=action))
    state = state.model_copy(update={"declaration": declaration})
    return conflict.with_participant(actor.model_copy(update={"round": state}))


def pass_over_empty(conflict: Conflict, work: Work) -> Conflict:
    """Whoever's turn comes with no Action Dice at all is passed over at once: not acting is
    all that is left to them, and nothing would move over (docs/rulings.md §4.9)."""
    while conflict.phase is Phase.RESOLVE and conflict.pending is None and beat_holder(conflict) is None:
        order = resolve_order(conflict)  # current_turn's, the Beat's holder and the pending asked above
        empty = [conflict.participant(pid) for pid in (order[0] if order else ())]
        empty = [p for p in empty if p.round.action_dice == 0]
        if not empty:
            return conflict
        for actor in empty:
            state = actor.round.model_copy(update={"passed": True, "status": Status.DONE})
            work.emit(Passed(participant=actor.id, defense_dice=state.defense_dice, empty=True))
            conflict = conflict.with_participant(actor.model_copy(update={"round": state}))
    return conflict


def pass_turn(conflict: Conflict, work: Work, command: Pass) -> Conflict:
    """Choose not to act: every Action Die becomes a Defense Die. Also declines a Beat's action."""
    require_phase(conflict, Phase.RESOLVE)
    actor = conflict.participant(command.participant)
    if conflict.pending is not None:
        raise RulesError(pending_message(conflict))
    state = actor.round
    if state.extra_action:
        state = state.model_copy(update={"extra_action": False})
        work.emit(Passed(participant=actor.id, defense_dice=state.defense_dice, declined_beat=True))
        return conflict.with_participant(actor.model_copy(update={"round": state}))
    _check_turn(conflict, actor)
    state = state.model_copy(
        update={
            "defense_dice": state.defense_dice + state.action_dice,
            "action_dice": 0,
            "passed": True,
            "status": Status.DONE,
        }
    )
    work.emit(Passed(participant=actor.id, defense_dice=state.defense_dice))
    return conflict.with_participant(actor.model_copy(update={"round": state}))
