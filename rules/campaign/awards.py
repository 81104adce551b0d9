"""The awards a night earns (docs/rulings.md §10.1): what the journal says each Hero did that
the Narrator rewards, with the Burden trigger counted for them.

The Burden trigger is the one award the rules fix: 1 Advancement the first time each of a
character's Burdens gave someone dice in a session. It is read from the session's
:attr:`~rules.journal.EntryKind.BURDEN_USED` entries. The other reasons are the Narrator's call;
the proposal notes what the journal shows of them (a Secret learnt, a subplot moved on) and the
Narrator chooses the number.
"""

from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from rules.journal import EntryKind, JournalEntry
from rules.naming import name_key
from rules.words import count_of

REASONS = (
    "schemes and goals pursued",
    "a Turning Point's choice",
    "a Secret revealed",
    "a central Villain defeated",
    "Destiny or Tragedy engaged",
    "a vital deed",
    "staying in character (1)",
    "making the game better (1)",
    "each Burden's first use tonight (1 each)",
)
"""What Advancements are given for, as the panel lists them (the published game's reasons)."""
USUAL = (1, 3)
"""A night's usual award per Hero; any number is allowed."""


class Proposal(BaseModel):
    """One Hero's proposed award: the Burden trigger's count and what the journal noted."""

    model_config = ConfigDict(frozen=True)

    character_id: int
    name: str
    burdens: tuple[str, ...] = ()
    """The Hero's Burdens that gave dice tonight, each counted once."""
    noted: tuple[str, ...] = ()
    """Other things the journal shows of the Hero tonight (a Secret learnt, a subplot moved)."""

    @property
    def burden_points(self) -> int:
        return len(self.burdens)

    def reasons(self, amount: int) -> str:
        """The award's reasons in words, for the journal: the Burden trigger's, then the rest."""
        parts = [f"the Burden {name} gave dice" for name in self.burdens]
        rest = amount - self.burden_points
        if rest > 0:
            parts.append(f"{count_of(rest, 'Advancement')} for the night")
        return "; ".join(parts) if parts else "the Narrator's award"


def burdens_used(entries: Iterable[JournalEntry]) -> dict[int, tuple[str, ...]]:
    """Each character's Burdens that gave dice in ``entries``, each once, in order of first use."""
    found: dict[int, dict[str, str]] = {}
    for entry in entries:
        if entry.kind is EntryKind.BURDEN_USED and entry.character_id is not None and entry.burden:
            found.setdefault(entry.character_id, {}).setdefault(name_key(entry.burden), entry.burden)
    return {character: tuple(names.values()) for character, names in found.items()}


def _noted(entries: Iterable[JournalEntry]) -> dict[int, list[str]]:
    noted: dict[int, list[str]] = {}
    for entry in entries:
        if entry.kind in (EntryKind.SECRET, EntryKind.SUBPLOT) and entry.character_id is not None:
            noted.setdefault(entry.character_id, []).append(entry.text)
    return noted


def propose(entries: Sequence[JournalEntry], heroes: Mapping[int, str]) -> list[Proposal]:
    """A proposal for each Hero of ``heroes`` (id → name), in name order, from one session's
    ``entries``."""
    used = burdens_used(entries)
    noted = _noted(entries)
    return [
        Proposal(
            character_id=character,
            name=name,
            burdens=used.get(character, ()),
            noted=tuple(noted.get(character, ())),
        )
        for character, name in sorted(heroes.items(), key=lambda item: name_key(item[1]))
    ]
