"""Step 1 of a round: declaring actions and determining Action Dice (docs/rulings.md §4.2–§4.4).

Declarations go one at a time in declaration order (``order.declaration_order``). Each gives
Action Dice (attacks and other rolled actions), Defense Dice (full defence), or nothing (an
action that needs no roll, whose Defense Dice come only if attacked). Once every fighter has
declared, the engine moves to the resolve phase.

Ruling: dice bought with Nudges last round (``next_round_dice``) join whatever pile the
declaration makes; a no-roll declaration has no pile, so they are lost, and the event says so.
A declaration changed before anyone else declares (docs/rulings.md §4.23) is figured afresh,
and the bought dice go with the new one.
"""

from rules.conflict.atium import electrum_dice
from rules.conflict.commands import Declare
from rules.conflict.events import Declared, Pile, ResolveStarted
from rules.conflict.figure import check_action, figure_pool, kind_of
from rules.conflict.order import last_declarer, next_declarer, resolve_order
from rules.conflict.quickened import quickened
from rules.conflict.specs import ActionKind
from rules.conflict.state import Conflict, Declaration, Participant, Phase, RoundState, Status
from rules.conflict.taps import as_spent, lost_note, planned_tap, spend_tap
from rules.conflict.work import Work, require_phase
from rules.errors import RulesError


def _turns_taken(conflict: Conflict) -> bool:
    """Whether anything of the resolve phase has happened this round (a turn, a defence)."""
    if conflict.pending is not None:
        return True
    return any(
        p.round.acted or p.round.passed or p.round.switched or p.round.spent or p.round.granted
        for p in conflict.participants
    )


def _check_change(conflict: Conflict, actor: Participant, command: Declare) -> None:
    """A declaration changes only while nobody has declared since, unless the Narrator reopens
    it; never once a turn has been taken (docs/rulings.md §4.23)."""
    if conflict.phase is Phase.RESOLVE and _turns_taken(conflict):
        raise RulesError(
            f"{actor.name}'s declaration stands: turns have been taken this round. "
            "On their turn they may take a new action instead (at half the dice)."
        )
    latest = last_declarer(conflict)
    if not command.reopen and latest is not None and latest.id != actor.id:
        raise RulesError(
            f"{actor.name}'s declaration stands: {latest.name} has declared since. "
            "Only the Narrator can reopen it."
        )


def declare(conflict: Conflict, work: Work, command: Declare) -> Conflict:
    """Record one declaration, in turn, with the dice it produces; or change one (§4.23)."""
    if conflict.phase is not Phase.RESOLVE:
        require_phase(conflict, Phase.DECLARE)
    actor = conflict.participant(command.participant)
    if actor.defeated:
        raise RulesError(f"{actor.does('is')} defeated and cannot declare an action.")
    if actor.round.late:
        raise RulesError(
            f"{actor.name} joined after their place in the declaration order had passed; "
            "they declare from the next round."
        )
    previous = actor.round.declaration
    if previous is not None:
        _check_change(conflict, actor, command)
    else:
        require_phase(conflict, Phase.DECLARE)
        turn = next_declarer(conflict)
        if turn is not None and turn.id != actor.id:
            raise RulesError(
                f"It is {turn.name}'s turn to declare: the surprised declare first, then the lowest Wits."
            )
    action = check_action(conflict, work, actor, command.action, command.dice)
    bonus = actor.next_round_dice + (previous.bonus if previous is not None else 0)
    changed = previous is not None
    electrum = electrum_dice(work, actor)
    tapped, lost = None, tuple[str, ...]()
    if command.dice is None:
        declaration = Declaration(action=action, bonus=bonus)
        state = RoundState(
            declaration=declaration, status=Status.DONE, defense_dice=electrum, gained=electrum
        )
        event = Declared(
            participant=actor.id,
            action=action,
            pile=Pile.NONE,
            dice=0,
            pool=(),
            bonus=0,
            bonus_lost=bonus,
            changed=changed,
        )
    else:
        tapped = planned_tap(work.sheet(actor), action, kind_of(conflict, action), command.dice)
        pool = figure_pool(conflict, work, actor, action, command.dice, tapped)
        lost = lost_note(tapped, pool)
        total = max(0, pool.total)
        dice = total + bonus
        declaration = Declaration(
            action=action,
            dice=as_spent(command.dice, tapped),
            pool=pool.contributions,
            total=total,
            bonus=bonus,
        )
        if action.kind is ActionKind.FULL_DEFENCE:
            defense = dice + electrum
            state = RoundState(
                declaration=declaration, status=Status.DONE, defense_dice=defense, gained=defense
            )
            pile = Pile.DEFENSE
        else:
            state = RoundState(
                declaration=declaration,
                status=Status.WAITING,
                action_dice=dice,
                defense_dice=electrum,
                gained=dice + electrum,
            )
            pile = Pile.ACTION
        event = Declared(
            participant=actor.id,
            action=action,
            pile=pile,
            dice=dice,
            pool=pool.contributions,
            bonus=bonus,
            changed=changed,
        )
    work.emit(event.model_copy(update={"electrum": electrum}) if electrum else event)
    spend_tap(work, actor, tapped, lost)
    update = {"round": state, "next_round_dice": 0, **quickened(actor, tapped)}
    conflict = conflict.with_participant(actor.model_copy(update=update))
    if conflict.phase is Phase.RESOLVE:  # the last declaration changed: the order may have too
        work.emit(ResolveStarted(order=resolve_order(conflict)))
    return conflict
