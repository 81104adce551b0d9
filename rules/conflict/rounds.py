"""Ending a round and ending the Conflict, with its summary (docs/rulings.md §4.1, §4.17).

When a round ends every leftover die vanishes and the next round starts at declaring. The
Narrator ends it once everyone has had their turn, or forces it (an attack still waiting is
then dropped). A Conflict ends when the Narrator says so, or by itself when every participant
on one side is defeated; either way the summary sums up the damage and Burdens dealt.

Ruling: surprise lasts for the first round only; it is cleared when a round ends.
"""

from rules.character import Resilience
from rules.conflict.commands import Begin, End, NextRound
from rules.conflict.events import ConflictEnded, RoundStarted, SummaryLine
from rules.conflict.metals import pay_rounds
from rules.conflict.order import declaration_order, round_complete, waiting
from rules.conflict.quickened import next_round_wits
from rules.conflict.specs import Side
from rules.conflict.state import Conflict, EndReason, LogKind, Phase, RoundState
from rules.conflict.work import Work, require_phase
from rules.errors import RulesError


def begin(conflict: Conflict, work: Work, command: Begin) -> Conflict:
    """The Narrator opens round 1 once the cast is in (docs/rulings.md §4.22)."""
    if conflict.phase is not Phase.GATHER:
        if conflict.phase is Phase.ENDED:
            raise RulesError("This Conflict has ended.")
        raise RulesError(f"The Conflict has already begun: this is round {conflict.round}.")
    if not declaration_order(conflict):
        raise RulesError("Nobody has joined yet: add the fighters first, then begin.")
    conflict = conflict.model_copy(update={"phase": Phase.DECLARE})
    work.emit(RoundStarted(round=conflict.round))
    return conflict


def next_round(conflict: Conflict, work: Work, command: NextRound) -> Conflict:
    if conflict.phase is Phase.GATHER:
        raise RulesError("The Conflict has not begun: open round 1 once the cast is in.")
    if conflict.phase is Phase.DECLARE:
        now = waiting(conflict)
        names = ", ".join(conflict.name_of(pid) for pid in now.participants) or "someone"
        raise RulesError(
            f"Everyone must declare, and then act, before the round can end: waiting for {names} "
            "to declare. Declare for them, or take them out of the Conflict, to move on."
        )
    require_phase(conflict, Phase.RESOLVE)
    if not round_complete(conflict) and not command.force:
        now = waiting(conflict)
        names = ", ".join(conflict.name_of(pid) for pid in now.participants) or "someone"
        raise RulesError(
            f"The round is not over: waiting for {names} to {now.step.value.replace('_', ' ')}. "
            "Force it to end anyway if the scene has moved on."
        )
    dropped = conflict.pending.id if conflict.pending is not None else None
    stalemates = tuple(
        (entry.attacker, entry.target)
        for entry in conflict.log
        if entry.kind is LogKind.STALEMATE and entry.round == conflict.round
    )
    participants = tuple(
        p.model_copy(update={"round": RoundState(), "surprised": False, **next_round_wits(p)})
        for p in conflict.participants
    )
    conflict = conflict.model_copy(
        update={
            "round": conflict.round + 1,
            "phase": Phase.DECLARE,
            "participants": participants,
            "pending": None,
        }
    )
    work.emit(RoundStarted(round=conflict.round, dropped_action=dropped, stalemates=stalemates))
    return pay_rounds(conflict, work)


def end(conflict: Conflict, work: Work, command: End) -> Conflict:
    require_phase(conflict, Phase.GATHER, Phase.DECLARE, Phase.RESOLVE)
    return finish(conflict, work, EndReason.NARRATOR, ())


def defeated_sides(conflict: Conflict) -> tuple[Side, ...]:
    """Sides whose every participant is defeated, once nobody defeated still has a turn to take.

    A side with nobody in it is not defeated (the Narrator may still be adding them).
    """
    if conflict.phase is Phase.ENDED or conflict.pending is not None:
        return ()
    down = [p for p in conflict.participants if p.defeated]
    if not down or any(p.in_order for p in down):  # most moves: nobody down, no side to look at
        return ()
    sides = []
    for side in Side:
        members = [p for p in conflict.participants if p.side is side]
        if members and all(p.defeated for p in members):
            sides.append(side)
    return tuple(sides)


def finish(conflict: Conflict, work: Work, reason: EndReason, sides: tuple[Side, ...]) -> Conflict:
    conflict = conflict.model_copy(
        update={"phase": Phase.ENDED, "ended": reason, "defeated_sides": sides, "pending": None}
    )
    work.emit(
        ConflictEnded(
            reason=reason,
            defeated_sides=sides,
            rounds=conflict.round,
            summary=summary(conflict),
            log_dropped=conflict.log_dropped,
        )
    )
    return conflict


def summary(conflict: Conflict) -> tuple[SummaryLine, ...]:
    """Each participant's damage dealt and taken and the Burdens left on them, from the log.

    Participants who left are listed after the rest, by the name the log kept.
    """
    ids = [p.id for p in conflict.participants]
    names = {p.id: p.name for p in conflict.participants}
    for entry in conflict.log:
        for pid, name in ((entry.attacker, entry.attacker_name), (entry.target, entry.target_name)):
            if pid is not None and pid not in names:
                ids.append(pid)
                names[pid] = name
    lines = []
    for pid in ids:
        found = conflict.find(pid)
        damage = [e for e in conflict.log if e.kind is LogKind.DAMAGE]
        taken = {
            r: sum(e.taken for e in damage if e.target == pid and e.resilience is r and not e.members_lost)
            for r in Resilience
        }
        lines.append(
            SummaryLine(
                name=names[pid],
                participant=pid,
                side=found.side if found is not None else None,
                dealt=sum(e.taken for e in damage if e.attacker == pid),
                taken=tuple((r, n) for r, n in taken.items() if n),
                members_lost=sum(e.members_lost for e in damage if e.target == pid),
                burdens=tuple(b for e in damage if e.target == pid for b in e.burdens),
                defeated=any(e.defeated for e in damage if e.target == pid)
                or (found is not None and found.defeated),
            )
        )
    return tuple(lines)
