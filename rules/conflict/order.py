"""Who declares next, who resolves next, and what the Conflict waits for (docs/rulings.md §4).

Nothing here is stored: both orders are worked out from the state (what a state waits for, once
per state object: it is frozen), so they can never drift from the dice they depend on (a defence
paid from Action Dice moves its payer down the resolve order at once, docs/rulings.md §4.7).
"""

from rules.conflict.state import Awaiting, Conflict, Participant, Phase, Status
from rules.conflict.waiting import Step, Waiting
from rules.memo import IdentityMemo

ATIUM = "Atium"


def declaration_key(participant: Participant) -> tuple[bool, bool, int, int]:
    """Atium burners after everyone else, then surprised first, then ascending Wits, then the
    Narrator's rank (join order by default).

    docs/rulings.md §4.2: the slowest declare first so the quickest hear everyone's plans; an
    Extras group declares at its lowest Wits, which is the Wits on its sheet. §9.3: an Atium
    burner sees what is coming, so declares after those who do not burn it. §9.4: a Zinc or
    Bronze tap made last round adds its Wits.
    """
    wits = participant.wits + participant.wits_tapped
    return (ATIUM in participant.burning, not participant.surprised, wits, participant.rank)


def resolve_key(participant: Participant) -> tuple[bool, int]:
    """Atium burners first (§9.3), then most Action Dice; a switcher goes last either way (§4.7)."""
    return (ATIUM in participant.burning and not participant.round.switched, participant.order_key)


def declaration_order(conflict: Conflict) -> tuple[Participant, ...]:
    """Every participant still in the fight, in the order they declare."""
    fighters = [p for p in conflict.participants if not p.defeated]
    return tuple(sorted(fighters, key=declaration_key))


def next_declarer(conflict: Conflict) -> Participant | None:
    """The first fighter in declaration order who has not declared, during the declare phase;
    one who joined after their place had passed declares next round (docs/rulings.md §4.18)."""
    if conflict.phase is not Phase.DECLARE:
        return None
    for participant in declaration_order(conflict):
        if participant.round.status is Status.UNDECLARED and not participant.round.late:
            return participant
    return None


def last_declarer(conflict: Conflict) -> Participant | None:
    """The fighter who declared most recently: the last in declaration order who has declared."""
    declared = [p for p in declaration_order(conflict) if p.round.declaration is not None]
    return declared[-1] if declared else None


def resolve_order(conflict: Conflict) -> tuple[tuple[int, ...], ...]:
    """Participants still due a turn, most Action Dice first; equal counts share a step.

    docs/rulings.md §4.7: Atium burners go first (§9.3); switchers go last, after everyone
    else still to act (whatever their dice), sharing one step; full defence and no-roll
    actions are not in the order at all;
    defeated participants drop out (unless defeated by someone acting at the same moment as
    them). Within a step, ids follow the declaration order (display only: they act at the
    same time).
    """
    due = [p for p in conflict.participants if p.in_order]
    if len(due) < 2:  # most of a fight's moves: nobody or one still to act, nothing to sort
        return ((due[0].id,),) if due else ()
    waiting = sorted(due, key=declaration_key)
    steps: dict[tuple[bool, int], list[int]] = {}
    for participant in waiting:
        steps.setdefault(resolve_key(participant), []).append(participant.id)
    return tuple(tuple(steps[key]) for key in sorted(steps, reverse=True))


def beat_holder(conflict: Conflict) -> Participant | None:
    """The participant taking the extra action a caught Beat gave them, if any."""
    for participant in conflict.participants:
        if participant.round.extra_action:
            return participant
    return None


def current_turn(conflict: Conflict) -> tuple[int, ...]:
    """Who may act now: a Beat's holder at once, else the first step of the resolve order."""
    if conflict.phase is not Phase.RESOLVE or conflict.pending is not None:
        return ()
    holder = beat_holder(conflict)
    if holder is not None:
        return (holder.id,)
    order = resolve_order(conflict)
    return order[0] if order else ()


def round_complete(conflict: Conflict) -> bool:
    """Everyone has had their turn and nothing is in progress: the Narrator may start the next."""
    return conflict.phase is Phase.RESOLVE and not current_turn(conflict) and conflict.pending is None


def waiting(conflict: Conflict) -> Waiting:
    """The next move, for the bot to prompt the right people: worked out once per state, which a
    move asks of it for its engine, its command, its reply and its board (``rules.memo``)."""
    return _WAITING.get(conflict, None, lambda: _waiting(conflict))


_WAITING: IdentityMemo[Conflict, Waiting] = IdentityMemo(256)


def _waiting(conflict: Conflict) -> Waiting:
    order = resolve_order(conflict) if conflict.phase is Phase.RESOLVE else ()
    declaring = tuple(p.id for p in declaration_order(conflict)) if conflict.phase is Phase.DECLARE else ()

    def event(step: Step, who: tuple[int, ...] = (), action_id: int | None = None) -> Waiting:
        return Waiting(
            phase=conflict.phase,
            round=conflict.round,
            step=step,
            participants=who,
            order=order,
            declaring=declaring,
            action_id=action_id,
        )

    if conflict.phase is Phase.ENDED:
        return event(Step.NOTHING)
    if conflict.phase is Phase.GATHER:
        return event(Step.BEGIN if declaration_order(conflict) else Step.JOIN)
    if conflict.phase is Phase.DECLARE:
        declarer = next_declarer(conflict)
        return event(Step.DECLARE, (declarer.id,)) if declarer is not None else event(Step.JOIN)
    pending = conflict.pending
    if pending is not None:
        if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
            return event(Step.DEFEND, (pending.target,), pending.id)
        if pending.awaiting is Awaiting.ROLL:
            return event(Step.ROLL, (pending.attacker,), pending.id)
        return event(Step.NUDGES, (pending.attacker,), pending.id)
    holder = beat_holder(conflict)  # current_turn, from the order worked out above
    turn = (holder.id,) if holder is not None else order[0] if order else ()
    return event(Step.ACT, turn) if turn else event(Step.NEXT_ROUND)
