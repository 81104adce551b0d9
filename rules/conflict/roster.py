"""Who is in the Conflict and how they stand: joining, leaving, surprise, tie order, and the
Narrator's dice adjustments (docs/rulings.md §4, §6); burning is ``rules.conflict.metals``.

Rulings:

* A character already defeated on the Conflict's Resilience (or an Extras group with nobody
  standing) cannot join: they could only be a target that cannot fall further.
* A participant who leaves is removed (the log keeps their name for the summary); an action
  aimed at them can no longer be taken, so its actor must switch or pass. Nobody can leave
  while an attack involving them waits to be settled.
* Surprise matters only for declaring, so it can be set only while declaring; it wears off
  when the round ends (the drop is got once, at the start).
* A Narrator's adjustment applies to the pile the participant holds now: Action Dice before
  their turn, Defense Dice after it. It cannot take a pile below 0.
"""

import itertools

from rules.character import CharacterKind, resilience_current
from rules.conflict.commands import AdjustDice, Join, Leave, Reorder, SetSurprised
from rules.conflict.events import (
    DiceAdjusted,
    Joined,
    Left,
    Pile,
    Reordered,
    SurpriseChanged,
)
from rules.conflict.metals import joined_burning
from rules.conflict.order import declaration_key, declaration_order
from rules.conflict.specs import LABEL_MAX, Side
from rules.conflict.state import MAX_PARTICIPANTS, Conflict, Participant, Phase, RoundState, Status
from rules.conflict.work import Work, check_count, clean_text, require_phase
from rules.errors import RulesError
from rules.powers.mental import declaring_wits
from rules.words import is_group, says

MAX_ADJUST = 20


def join(conflict: Conflict, work: Work, command: Join) -> Conflict:
    """Add a fighter. Once declaring has begun, they take their place by Wits only if it is
    still to come; else (or mid-round) they sit the round out, busy (docs/rulings.md §4.18)."""
    require_phase(conflict, Phase.GATHER, Phase.DECLARE, Phase.RESOLVE)
    sheet = work.sheets.get(command.character_id)
    if sheet is None:
        raise RulesError(
            "That character sheet was not found in this server; /character list shows the sheets here."
        )
    joiner = says(sheet.name, "is", is_group(sheet.size))
    if conflict.find(command.character_id) is not None:
        raise RulesError(f"{joiner} already taking part in this Conflict.")
    if len(conflict.participants) >= MAX_PARTICIPANTS:
        raise RulesError(
            f"A Conflict holds at most {MAX_PARTICIPANTS} participants; split the crowd into groups."
        )
    resilience = conflict.type.resilience
    if sheet.is_extra and sheet.members_left == 0:
        raise RulesError(
            f"Every member of {sheet.name} is already defeated; a Narrator heals them with /sheet heal first."
        )
    if not sheet.is_extra and resilience_current(sheet, resilience) == 0:
        raise RulesError(
            f"{joiner} already defeated ({resilience.label} 0) and cannot join; "
            "they need healing first (a Narrator's /sheet heal or a Breather)."
        )
    side = command.side or (Side.HEROES if sheet.kind is CharacterKind.HERO else Side.OPPOSITION)
    participant = Participant(
        id=command.character_id,
        name=sheet.name,
        kind=sheet.kind,
        side=side,
        wits=declaring_wits(sheet),
        joined=conflict.joined_count,
        rank=conflict.joined_count,
        surprised=command.surprised,
        size=sheet.size,
        members_left=sheet.members_left,
    )
    late = conflict.phase is Phase.RESOLVE or (
        conflict.phase is Phase.DECLARE and place_passed(conflict, participant)
    )
    if late:
        participant = participant.model_copy(update={"round": RoundState(late=True)})
    work.emit(Joined(participant=participant.id, side=side, surprised=command.surprised, late=late))
    conflict = conflict.model_copy(
        update={
            "participants": (*conflict.participants, participant),
            "joined_count": conflict.joined_count + 1,
        }
    )
    return joined_burning(conflict, work, participant.id)


def place_passed(conflict: Conflict, newcomer: Participant) -> bool:
    """Whether someone who has declared this round comes after ``newcomer`` in the order."""
    key = declaration_key(newcomer)
    declared = [p for p in declaration_order(conflict) if p.round.status is not Status.UNDECLARED]
    return any(declaration_key(p) > key for p in declared)


def leave(conflict: Conflict, work: Work, command: Leave) -> Conflict:
    require_phase(conflict, Phase.GATHER, Phase.DECLARE, Phase.RESOLVE)
    gone = conflict.participant(command.participant)
    pending = conflict.pending
    if pending is not None and gone.id in (pending.attacker, pending.target):
        raise RulesError(f"Settle the attack involving {gone.name} before they leave.")
    work.emit(Left(participant=gone.id, name=gone.name))
    return conflict.with_departed(gone)


def reorder(conflict: Conflict, work: Work, command: Reorder) -> Conflict:
    """The Narrator settles ties in declaration order (docs/rulings.md §4); Wits and surprise still rule.

    The list must name every fighter exactly once, and may only reorder characters whose
    surprise and Wits are equal: ties are the Narrator's call, the rest is the rule.
    """
    require_phase(conflict, Phase.GATHER, Phase.DECLARE)
    fighters = {p.id: p for p in declaration_order(conflict)}
    if len(set(command.order)) != len(command.order) or set(command.order) != set(fighters):
        names = ", ".join(p.name for p in fighters.values())
        raise RulesError(f"List every fighter exactly once, in the order they should declare: {names}.")
    listed = [fighters[pid] for pid in command.order]
    for before, after in itertools.pairwise(listed):
        if declaration_key(before)[:3] > declaration_key(after)[:3]:
            why = "is surprised" if after.surprised and not before.surprised else f"has Wits {after.wits}"
            if declaration_key(before)[0] and not declaration_key(after)[0]:
                why = "burns no Atium"  # an Atium burner declares after (docs/rulings.md §9.3)
            raise RulesError(
                f"{after.does(why)} and must declare before {before.name}; only ties can be reordered."
            )
    for rank, participant in enumerate(listed):
        conflict = conflict.with_participant(participant.model_copy(update={"rank": rank}))
    work.emit(Reordered(order=tuple(p.id for p in declaration_order(conflict))))
    return conflict


def set_surprised(conflict: Conflict, work: Work, command: SetSurprised) -> Conflict:
    require_phase(conflict, Phase.GATHER, Phase.DECLARE)
    participant = conflict.participant(command.participant)
    if participant.surprised == command.surprised:
        state, undo = (
            ("already", "false to lift it") if command.surprised else ("not", "true to surprise them")
        )
        raise RulesError(f"{participant.does('is')} {state} surprised; set surprised to {undo}.")
    if participant.round.status is not Status.UNDECLARED:
        raise RulesError(
            f"{participant.does('has')} already declared; surprise only changes who declares first."
        )
    work.emit(SurpriseChanged(participant=participant.id, surprised=command.surprised))
    return conflict.with_participant(participant.model_copy(update={"surprised": command.surprised}))


def adjust_dice(conflict: Conflict, work: Work, command: AdjustDice) -> Conflict:
    """The Narrator's ±N to a participant's current pile (a Circumstance that changed mid-round)."""
    require_phase(conflict, Phase.DECLARE, Phase.RESOLVE)
    participant = conflict.participant(command.participant)
    check_count("A dice adjustment", command.delta, -MAX_ADJUST, MAX_ADJUST)
    if command.delta == 0:
        raise RulesError("Adjust by at least one die, up or down.")
    reason = clean_text(command.reason, "The reason", LABEL_MAX)
    state = participant.round
    if state.status is Status.UNDECLARED and conflict.phase is Phase.DECLARE:
        raise RulesError(f"{participant.does('has')} not declared yet; adjust their dice once they have.")
    waiting = state.status is Status.WAITING
    held = state.action_dice if waiting else state.defense_dice
    now = held + command.delta
    if now < 0:
        kind = "Action" if waiting else "Defense"
        raise RulesError(
            f"{participant.does('has')} only {held} {kind} Dice; cannot take away {-command.delta}. "
            f"Take away {held} at most."
        )
    ledger = (
        {"gained": state.gained + command.delta}
        if command.delta > 0
        else {"dropped": state.dropped - command.delta}
    )
    pile_field = "action_dice" if waiting else "defense_dice"
    new_state = state.model_copy(update={pile_field: now, **ledger})
    work.emit(
        DiceAdjusted(
            participant=participant.id,
            pile=Pile.ACTION if waiting else Pile.DEFENSE,
            delta=command.delta,
            dice=now,
            reason=reason,
        )
    )
    return conflict.with_participant(participant.model_copy(update={"round": new_state}))
