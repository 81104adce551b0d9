"""The recap of a night: the journal's entries folded into the story a table wants back.

Pure: a list of :class:`~rules.journal.JournalEntry` and a viewer in, a :class:`Recap` out. The
viewer decides everything (``rules.journal.reads_full``): the public recap is built only from
what the table saw, so a secret roll is not the night's best roll there, a hidden Villain's
wounds are not summed, and a secret request is not counted.
"""

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.character import CharacterKind
from rules.journal import EntryKind, JournalEntry, Viewer, reads_full, visible


class Tally(BaseModel):
    """One character's night in numbers; ``kind`` says under which heading it goes."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: CharacterKind = CharacterKind.HERO
    damage: int = 0
    healed: int = 0
    spent: int = 0
    recovered: int = 0
    beats: int = 0


class Recap(BaseModel):
    """What happened, by section; every line already in the viewer's wording."""

    model_config = ConfigDict(frozen=True)

    conflicts: tuple[str, ...] = ()
    tallies: tuple[Tally, ...] = ()
    burdens_gained: tuple[str, ...] = ()
    burdens_eased: tuple[str, ...] = ()
    best: str | None = None
    worst: str | None = None
    contests: tuple[str, ...] = ()
    requests: tuple[str, ...] = ()
    advancements: tuple[str, ...] = ()
    """Awards and spends of Advancements (docs/rulings.md §10.1): each player sees theirs here."""
    story: tuple[str, ...] = ()
    """Subplots moved on and Secrets revealed (§10.2, §10.3)."""
    rolls: int = 0
    entries: int = 0


_TALLIED = {
    EntryKind.DAMAGE: "damage",
    EntryKind.HEALING: "healed",
    EntryKind.STANDING_SPENT: "spent",
    EntryKind.STANDING_RECOVERED: "recovered",
    EntryKind.BEAT: "beats",
}


def build_recap(entries: Sequence[JournalEntry], viewer: Viewer) -> Recap:
    """The recap of ``entries`` (one session, in order) as ``viewer`` may read it."""
    shown = visible(entries, viewer)
    conflicts: list[str] = []
    tallies: dict[tuple[CharacterKind, str], dict[str, int]] = {}
    gained: list[str] = []
    eased: list[str] = []
    contests: list[str] = []
    requests: list[str] = []
    advancements: list[str] = []
    story: list[str] = []
    rolled: list[tuple[int, str]] = []
    for entry, line in shown:
        full = reads_full(entry, viewer)
        kind = entry.kind
        if kind in (
            EntryKind.CONFLICT_BEGAN,
            EntryKind.CONFLICT_ENDED,
            EntryKind.CONFLICT_RUNNING,
            EntryKind.DEFEATED,
            EntryKind.UNDONE,
        ):
            conflicts.append(line)
        elif kind in _TALLIED and full and entry.hero:
            counts = tallies.setdefault((entry.character_kind or CharacterKind.HERO, entry.hero), {})
            field = _TALLIED[kind]
            counts[field] = counts.get(field, 0) + (entry.amount or 1)
        elif kind is EntryKind.BURDEN_GAINED:
            gained.append(line)
        elif kind is EntryKind.BURDEN_EASED:
            eased.append(line)
        elif kind is EntryKind.CONTEST:
            contests.append(line)
        elif kind is EntryKind.REQUEST:
            requests.append(line)
        elif kind is EntryKind.ADVANCEMENT:
            advancements.append(line)
        elif kind in (EntryKind.SUBPLOT, EntryKind.SECRET):
            story.append(line)
        if (
            kind in (EntryKind.ROLL, EntryKind.CONTEST, EntryKind.REQUEST)
            and entry.outcome is not None
            and full
        ):
            rolled.append((entry.outcome, line))
    best = max(rolled, key=lambda r: r[0]) if rolled else None
    worst = min(rolled, key=lambda r: r[0]) if rolled else None
    return Recap(
        conflicts=tuple(conflicts),
        tallies=tuple(
            Tally(name=name, kind=kind, **counts) for (kind, name), counts in sorted(tallies.items())
        ),
        burdens_gained=tuple(gained),
        burdens_eased=tuple(eased),
        best=best[1] if best else None,
        worst=worst[1] if worst and worst is not best else None,
        contests=tuple(contests),
        requests=tuple(requests),
        advancements=tuple(advancements),
        story=tuple(story),
        rolls=len(rolled),
        entries=len(shown),
    )
