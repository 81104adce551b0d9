"""Who took part in a night (docs/rulings.md §10.1): the Heroes a session's end offers an award
to, read from the session's journal.

A Hero took part when the journal names them in something that happened at the table: a roll
or a request's roll as them, a Conflict joined (:func:`joined_entries`, so a Hero who fought
without a wound or a roll still counts), a wound, a Beat, a Standing spent, a Breather taken, a
Burden that gave dice, metal burned, Advancements spent, and the story the Narrator moved for
them (a subplot's stage, a Secret told them), which the awards note and reward. Not an award,
a correction or a leave to spend: those are the ledger's own, which a Narrator may give a Hero
away from the table, and the panel's awards are among them. Only a Hero's ledger is offered an
award; the caller keeps the Heroes among those found.
"""

from collections.abc import Callable, Iterable
from datetime import datetime

from rules.character import CharacterKind
from rules.conflict import Conflict, Event
from rules.conflict import events as ev
from rules.journal import TEXT_MAX, EntryKind, JournalEntry


def took_part(entry: JournalEntry) -> bool:
    """Whether ``entry`` shows its character taking part in the night (the module's list)."""
    if entry.character_id is None:
        return False
    if entry.kind is EntryKind.ADVANCEMENT:
        return entry.amount < 0  # a spend is the player's; an award or a leave the ledger's own
    return True


def present(entries: Iterable[JournalEntry]) -> set[int]:
    """The characters that took part in a session whose journal is ``entries``."""
    return {entry.character_id for entry in entries if entry.character_id is not None and took_part(entry)}


def joined_entries(
    at: datetime,
    conflict: Conflict,
    events: Iterable[Event],
    conflict_id: int,
    shown: Callable[[int], bool],
) -> list[JournalEntry]:
    """A :attr:`EntryKind.JOINED` entry for each participant who joined the Conflict in
    ``events``; a hidden character's is the Narrator's alone (``shown``, §7.1)."""
    entries: list[JournalEntry] = []
    for event in events:
        if not isinstance(event, ev.Joined):
            continue
        joined = conflict.find(event.participant)
        if joined is None:
            continue
        text = f"{joined.name} joined the Conflict."[:TEXT_MAX]
        entries.append(
            JournalEntry(
                at=at,
                kind=EntryKind.JOINED,
                text=text,
                public=text if shown(joined.id) else None,
                character_id=joined.id,
                hero=joined.name,
                character_kind=joined.kind,
                conflict_id=conflict_id,
            )
        )
    return entries


def carried_entries(at: datetime, conflict: Conflict) -> list[JournalEntry]:
    """A :attr:`EntryKind.JOINED` entry for each Hero of a Conflict still running when a session
    starts (one the last session ended during), so a Hero who fights on is present tonight."""
    entries: list[JournalEntry] = []
    for hero in conflict.participants:
        if hero.kind is not CharacterKind.HERO:
            continue  # a Hero's sheet is the table's; a Villain's may be hidden (§7.1)
        text = f"{hero.name} is in the Conflict for {conflict.stakes}, still running."[:TEXT_MAX]
        entries.append(
            JournalEntry(
                at=at,
                kind=EntryKind.JOINED,
                text=text,
                public=text,
                character_id=hero.id,
                hero=hero.name,
                character_kind=hero.kind,
            )
        )
    return entries
