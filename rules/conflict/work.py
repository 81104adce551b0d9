"""The scratch pad of one transition: the sheets, the dice generator, and what happened so far.

Handlers take the (frozen) Conflict and return a new one; along the way they read sheets,
roll, and append events here. A sheet a handler changes (damage) is recorded so the caller can
save it with the new state, and later reads in the same transition see the change.
"""

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from pydantic_core import PydanticCustomError

from rules.character import Character, CharacterKind
from rules.character import limits as lim
from rules.conflict.events import Event
from rules.conflict.state import Conflict, Participant, Phase
from rules.errors import RulesError


@dataclass
class Work:
    sheets: dict[int, Character]
    rng: random.Random | None = None
    events: list[Event] = field(default_factory=list)
    changed: dict[int, Character] = field(default_factory=dict)
    revealed: frozenset[int] = frozenset()
    """The Villains and Extras whose sheets a Narrator revealed (docs/rulings.md §7.1)."""

    @classmethod
    def start(
        cls, sheets: Mapping[int, Character], rng: random.Random | None, revealed: Collection[int] = ()
    ) -> "Work":
        return cls(sheets=dict(sheets), rng=rng, revealed=frozenset(revealed))

    def open_sheet(self, participant: Participant) -> bool:
        """Whether the table may read the participant's sheet (a Hero's, or one revealed, §7.1):
        only then may a rule refuse or change a move by what the sheet holds that a player
        could not otherwise know (a Blessing, a Copper cloud)."""
        return participant.kind is CharacterKind.HERO or participant.id in self.revealed

    def sheet(self, participant: Participant) -> Character:
        """The participant's sheet, which the caller must have loaded."""
        sheet = self.sheets.get(participant.id)
        if sheet is None:
            raise RulesError(
                f"{participant.name}'s character sheet is missing (it may have been deleted): "
                "take them out with /conflict remove."
            )
        return sheet

    def save_sheet(self, participant_id: int, sheet: Character) -> None:
        self.sheets[participant_id] = sheet
        self.changed[participant_id] = sheet

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def generator(self) -> random.Random:
        """The injected generator; a fresh OS-seeded one only when the caller gave none."""
        if self.rng is None:
            self.rng = random.Random()
        return self.rng


def clean_text(text: str, what: str, limit: int) -> str:
    """A player's one-line text, trimmed and bounded, or a RulesError saying what is wrong."""
    try:
        return lim.clean_text(text, what, limit)
    except PydanticCustomError as error:
        raise RulesError(error.message()) from None


def check_count(what: str, value: int, low: int, high: int) -> int:
    if isinstance(value, bool) or not low <= value <= high:
        raise RulesError(f"{what} must be between {low} and {high}; {value} is out of range.")
    return value


def require_phase(conflict: Conflict, *phases: Phase) -> None:
    """Refuse a command sent in the wrong phase, saying what the Conflict is doing instead."""
    if conflict.phase in phases:
        return
    if conflict.phase is Phase.ENDED:
        raise RulesError("This Conflict has ended; a Narrator starts a new one with /conflict start.")
    if conflict.phase is Phase.GATHER:
        raise RulesError(
            "The fight has not begun: the Narrator opens round 1 with /conflict begin once the cast is in."
        )
    if conflict.phase is Phase.DECLARE:
        raise RulesError("Actions are still being declared; that comes once everyone has declared.")
    raise RulesError("Actions are being resolved; that has to wait for the next round's declarations.")
