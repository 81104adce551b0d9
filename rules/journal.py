"""The table's memory: what happened at a table, one entry per thing, and who may read each.

A session (docs/architecture.md, "Sessions") is a Narrator's night in one channel; its story is
the channel's journal entries between its start and end. Each entry is written when the thing
happens, in the same transaction as the change it tells, with two wordings rendered then by the
same renderers and secrecy rules as the table's own messages (docs/rulings.md §7.1):

* ``text``: the full line, as the Narrator's own views show it;
* ``public``: what the table saw, or None when the table saw nothing of it (a ``/gmroll``, a
  secret request, a hidden Villain's roll or Burden).

``owner_id`` is the one member besides the Narrators who reads the full line (the roller of a
secret roll, §7.1), exactly as the roll log's ``can_see_roll``. ``numbers_public`` says whether
the table saw the entry's numbers (``amount``, ``outcome``): a hidden Villain's wounds show as
a plain state, so a player's recap never sums them. Names are kept in the text and in ``hero``,
so deleting a character leaves the journal readable.
"""

from collections.abc import Sequence
from enum import StrEnum

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from rules.character import (
    Character,
    CharacterKind,
    Resilience,
    Standing,
    resilience_lost,
    standing_available,
)
from rules.words import count_of

TEXT_MAX = 1000


class EntryKind(StrEnum):
    ROLL = "roll"
    CONTEST = "contest"
    REQUEST = "request"
    CONFLICT_BEGAN = "conflict_began"
    ROUND = "round"
    CONFLICT_ENDED = "conflict_ended"
    CONFLICT_RUNNING = "conflict_running"
    """A Conflict still running when its session ended (it goes on; the recap says so)."""
    DEFEATED = "defeated"
    DAMAGE = "damage"
    HEALING = "healing"
    BURDEN_GAINED = "burden_gained"
    BURDEN_EASED = "burden_eased"
    STANDING_SPENT = "standing_spent"
    STANDING_RECOVERED = "standing_recovered"
    BEAT = "beat"
    GROWTH = "growth"
    METALS = "metals"
    """Charges of metal drunk, burned, stored or tapped (docs/rulings.md §9.9)."""
    BURDEN_USED = "burden_used"
    """A character's Burden gave someone dice (its first time in a session earns an Advancement)."""
    ADVANCEMENT = "advancement"
    """A Hero's ledger changed: an award, a spend, a correction (docs/rulings.md §10.1)."""
    SUBPLOT = "subplot"
    """A Destiny or Tragedy moved on a stage, or was resolved (§10.2)."""
    SECRET = "secret"
    """A Secret revealed to a Hero or to the table (§10.3)."""
    UNDONE = "undone"
    """A Conflict move taken back by its mover (§4.24)."""
    JOINED = "joined"
    """A character joined a Conflict: the night's awards count a Hero present (§10.1)."""


class JournalEntry(BaseModel):
    """One thing that happened at a table (see the module's docstring for who reads what)."""

    model_config = ConfigDict(frozen=True)

    at: AwareDatetime
    kind: EntryKind
    text: str = Field(max_length=TEXT_MAX)
    public: str | None = Field(default=None, max_length=TEXT_MAX)
    owner_id: int | None = None
    character_id: int | None = None
    hero: str = ""
    """The character's name when it happened (a character's tallies in the recap group by it)."""
    character_kind: CharacterKind | None = None
    """The character's kind when it happened: the recap tallies Heroes, Villains and Extras under
    headings of their own. An entry written before it was kept has None, and was a Hero's."""
    amount: int = 0
    outcome: int | None = None
    """A roll's Outcome, for the night's best and worst roll."""
    numbers_public: bool = True
    conflict_id: int | None = None
    burden: str | None = None
    """The Burden a :attr:`EntryKind.BURDEN_USED` entry names (the Burden trigger counts by it)."""


class Viewer(BaseModel):
    """Who reads: a Narrator reads everything; a member reads what the table saw, and their own
    secret rolls in full."""

    model_config = ConfigDict(frozen=True)

    narrator: bool = False
    user_id: int | None = None


NARRATOR = Viewer(narrator=True)
TABLE = Viewer()
"""The public version: what anyone at the table saw (the recap posted in the channel)."""


def reads_full(entry: JournalEntry, viewer: Viewer) -> bool:
    """Whether ``viewer`` reads the full line and numbers of ``entry`` (§7.1)."""
    if viewer.narrator:
        return True
    if entry.public is None:
        return entry.owner_id is not None and entry.owner_id == viewer.user_id
    return entry.public == entry.text and entry.numbers_public


def line_for(entry: JournalEntry, viewer: Viewer) -> str | None:
    """The line ``viewer`` reads of ``entry``, or None: they saw nothing of it."""
    if reads_full(entry, viewer):
        return entry.text
    return entry.public


def visible(entries: Sequence[JournalEntry], viewer: Viewer) -> list[tuple[JournalEntry, str]]:
    """The entries ``viewer`` reads, each with its line, in order."""
    shown: list[tuple[JournalEntry, str]] = []
    for entry in entries:
        line = line_for(entry, viewer)
        if line is not None:
            shown.append((entry, line))
    return shown


def sheet_entries(
    before: Character, after: Character, at: AwareDatetime, *, character_id: int, hidden: bool
) -> list[JournalEntry]:
    """What a change of one sheet tells: damage, healing, Burdens, Standings, and growth.

    ``hidden``: the sheet is secret (a Villain or Extra not revealed, §7.1), so the table saw
    none of it and only the Narrator's version tells it.
    """
    name = after.name
    found: list[tuple[EntryKind, int, str]] = _wear(before, after)
    for standing in Standing:
        change = standing_available(before, standing) - standing_available(after, standing)
        if change > 0 and after.standings.get(standing) == before.standings.get(standing):
            found.append((EntryKind.STANDING_SPENT, change, f"{name} spent {change} {standing.label}."))
        elif change < 0 and after.standings.get(standing) == before.standings.get(standing):
            found.append(
                (EntryKind.STANDING_RECOVERED, -change, f"{name} recovered {-change} {standing.label}.")
            )
    had = {b.name: b.severity for b in before.burdens}
    has = {b.name: b.severity for b in after.burdens}
    for burden, severity in has.items():
        if burden not in had:
            found.append((EntryKind.BURDEN_GAINED, 1, f"{name} took the {severity.label} Burden {burden}."))
        elif severity != had[burden]:
            worse = list(type(severity)).index(severity) > list(type(severity)).index(had[burden])
            kind = EntryKind.BURDEN_GAINED if worse else EntryKind.BURDEN_EASED
            found.append((kind, 1, f"{name}'s Burden {burden} is now {severity.label}."))
    for burden in had:
        if burden not in has:
            found.append((EntryKind.BURDEN_EASED, 1, f"{name}'s Burden {burden} is gone."))
    grown = _growth(before, after)
    if grown:
        found.append((EntryKind.GROWTH, 0, f"{name}'s sheet changed: {grown}."))
    return [
        JournalEntry(
            at=at,
            kind=kind,
            text=text[:TEXT_MAX],
            public=None if hidden else text[:TEXT_MAX],
            character_id=character_id,
            hero=name,
            character_kind=after.kind,
            amount=amount,
        )
        for kind, amount, text in found
    ]


def _wear(before: Character, after: Character) -> list[tuple[EntryKind, int, str]]:
    """Damage and healing: a Resilience's points, or an Extras group's members, each point of
    damage defeating one (docs/rulings.md §5.3); a defeated Extra's Resiliences are not 12 damage."""
    name = after.name
    if before.is_extra and after.is_extra:
        down = before.members_left - after.members_left
        standing = f"({before.members_left} → {after.members_left} standing)"
        if down > 0:
            return [(EntryKind.DAMAGE, down, f"{name}: {count_of(down, 'member')} down {standing}.")]
        if down < 0:
            return [(EntryKind.HEALING, -down, f"{name}: {count_of(-down, 'member')} back {standing}.")]
        return []
    found: list[tuple[EntryKind, int, str]] = []
    for resilience in Resilience:
        lost = resilience_lost(after, resilience) - resilience_lost(before, resilience)
        if lost > 0:
            found.append((EntryKind.DAMAGE, lost, f"{name} took {lost} {resilience.label} damage."))
        elif lost < 0:
            found.append((EntryKind.HEALING, -lost, f"{name} recovered {-lost} {resilience.label}."))
    return found


def _growth(before: Character, after: Character) -> str:
    """The sheet's growth in words: ratings, Powers, Traits, name (not play's wear and tear)."""
    parts: list[str] = []
    if before.name != after.name:
        parts.append(f"renamed from {before.name}")
    for label, old, new in (
        ("Attributes", before.attributes, after.attributes),
        ("Standings", before.standings, after.standings),
        ("Traits", before.traits, after.traits),
        ("Powers", before.powers, after.powers),
        ("Props", before.props, after.props),
    ):
        if old != new:
            parts.append(label)
    return ", ".join(parts)
