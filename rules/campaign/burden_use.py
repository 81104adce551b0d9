"""The Burden trigger's evidence (docs/rulings.md §10.1): each Burden a Conflict declaration
counted, journaled when it gave dice, so a night's end can tell which Burdens were used.

A declaration names the target's Burdens that apply (§1.4), and the dice they add are in its
pool at once; a declaration changed before the next one (§4.23) may name them again, which the
trigger counts once anyway (the first time each Burden is used in a session).
"""

from collections.abc import Callable, Mapping
from datetime import datetime

from rules.character import Character, find_burden
from rules.character.burden_track import FOR_A_ROLL
from rules.conflict import Conflict, Event
from rules.conflict import events as ev
from rules.errors import RulesError
from rules.journal import TEXT_MAX, EntryKind, JournalEntry


def burden_use_entries(
    at: datetime,
    conflict: Conflict,
    events: tuple[Event, ...],
    conflict_id: int,
    sheets: Mapping[int, Character],
    shown: Callable[[int], bool],
) -> list[JournalEntry]:
    """A :attr:`EntryKind.BURDEN_USED` entry per Burden a declaration or a switch in ``events``
    counted, read from the declaration as ``conflict`` now holds it, each Burden named as the
    bearer's sheet names it (a declaration may name it by a part). ``shown``: whether the table
    sees that character's numbers (a hidden Villain's Burdens are the Narrator's, §7.1)."""
    entries: list[JournalEntry] = []
    for event in events:
        if not isinstance(event, ev.Declared | ev.Switched):
            continue
        actor = conflict.find(event.participant)
        declaration = actor.round.declaration if actor is not None else None
        if (
            actor is None
            or declaration is None
            or declaration.dice is None
            or declaration.action.target is None
        ):
            continue
        bearer = conflict.find(declaration.action.target)
        sheet = sheets.get(declaration.action.target)
        if bearer is None or sheet is None:
            continue
        for typed in declaration.dice.burdens:
            try:
                name = find_burden(sheet, typed, FOR_A_ROLL).name
            except RulesError:
                continue  # no longer on the sheet: nothing to name
            text = f"{actor.name} counted {bearer.name}'s Burden {name} in a declaration."[:TEXT_MAX]
            entries.append(
                JournalEntry(
                    at=at,
                    kind=EntryKind.BURDEN_USED,
                    text=text,
                    public=text if shown(bearer.id) else None,
                    character_id=bearer.id,
                    hero=bearer.name,
                    character_kind=bearer.kind,
                    amount=1,
                    conflict_id=conflict_id,
                    burden=name,
                )
            )
    return entries
