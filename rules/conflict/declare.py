"""Step 1 of a round: declaring actions and determining Action Dice (conflicts.txt, docs/rulings.md §4).

Declarations go one at a time in declaration order (``order.declaration_order``). Each gives
Action Dice (attacks and other rolled actions), Defense Dice (full defence), or nothing (an
action that needs no roll, whose Defense Dice come only if attacked). Once every fighter has
declared, the engine moves to the resolve phase.

Ruling: dice bought with Nudges last round (``next_round_dice``) join whatever pile the
declaration makes; a no-roll declaration has no pile, so they are lost, and the event says so.
"""

from rules.conflict.commands import Declare
from rules.conflict.events import Declared, Pile
from rules.conflict.figure import check_action, figure_pool
from rules.conflict.order import next_declarer
from rules.conflict.specs import ActionKind
from rules.conflict.state import Conflict, Declaration, Phase, RoundState, Status
from rules.conflict.work import Work, require_phase
from rules.errors import RulesError


def declare(conflict: Conflict, work: Work, command: Declare) -> Conflict:
    """Record one declaration, in turn, with the dice it produces."""
    require_phase(conflict, Phase.DECLARE)
    actor = conflict.participant(command.participant)
    if actor.defeated:
        raise RulesError(f"{actor.does('is')} defeated and cannot declare an action.")
    if actor.round.status is not Status.UNDECLARED:
        raise RulesError(f"{actor.does('has')} already declared an action this round.")
    turn = next_declarer(conflict)
    if turn is not None and turn.id != actor.id:
        raise RulesError(
            f"It is {turn.name}'s turn to declare: the surprised declare first, then the lowest Wits."
        )
    action = check_action(conflict, work, actor, command.action, command.dice)
    bonus = actor.next_round_dice
    if command.dice is None:
        declaration = Declaration(action=action)
        state = RoundState(declaration=declaration, status=Status.DONE)
        event = Declared(
            participant=actor.id, action=action, pile=Pile.NONE, dice=0, pool=(), bonus=0, bonus_lost=bonus
        )
    else:
        pool = figure_pool(conflict, work, actor, action, command.dice)
        total = max(0, pool.total)
        dice = total + bonus
        declaration = Declaration(
            action=action, dice=command.dice, pool=pool.contributions, total=total, bonus=bonus
        )
        if action.kind is ActionKind.FULL_DEFENCE:
            state = RoundState(declaration=declaration, status=Status.DONE, defense_dice=dice, gained=dice)
            pile = Pile.DEFENSE
        else:
            state = RoundState(declaration=declaration, status=Status.WAITING, action_dice=dice, gained=dice)
            pile = Pile.ACTION
        event = Declared(
            participant=actor.id, action=action, pile=pile, dice=dice, pool=pool.contributions, bonus=bonus
        )
    work.emit(event)
    return conflict.with_participant(actor.model_copy(update={"round": state, "next_round_dice": 0}))
