"""A roll a player keeps for their character, to throw again with one tap (docs/rulings.md §6.14).

A saved roll is what ``/roll stat:`` would be given, under a name the player chose: the stat or
Power, the net Traits, the Tool, any other dice, the Difficulty and the roll's label. It keeps no
rating: the sheet is read when it is rolled, so a wound, a spent Standing or a raised Power
counts then. The Circumstances are never saved, since they are the Narrator's, read from the
channel where it is rolled (§1.6).
"""

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.character import Character
from rules.character.stats import find_stat
from rules.errors import RulesError

MAX_SAVED_ROLLS = 20
"""Saved rolls per character: a button each on the roll panel, with the three Attributes beside
them, well inside one message's 40 components (``bot.render.saved_rolls``)."""
NAME_MAX = 40
"""A saved roll's name is a button's label on a phone: short."""
LABEL_MAX = 40
"""As ``/roll``'s ``label``."""


class SavedRoll(BaseModel):
    """What to roll, as ``/roll stat:`` takes it; ``stat`` is stored as the sheet names it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1, max_length=NAME_MAX)
    stat: str = Field(min_length=1, max_length=40)
    traits: int = Field(default=0, ge=-10, le=10)
    tool: int = Field(default=0, ge=-1, le=1)
    modifier: int = Field(default=0, ge=-10, le=10)
    difficulty: int = Field(default=1, ge=1, le=5)
    label: str | None = Field(default=None, max_length=LABEL_MAX)

    @field_validator("name", "label")
    @classmethod
    def _spaced(cls, value: str | None) -> str | None:
        return None if value is None else " ".join(value.split()) or None

    @property
    def title(self) -> str:
        """The roll's title on its card: its label, else its name."""
        return self.label or self.name


def saved_roll_name(typed: str) -> str:
    """A name as typed, tidied (white space folded); refused when empty or too long."""
    name = " ".join(typed.split())
    if not name:
        raise RulesError("Give the saved roll a name, e.g. `Sneak`.")
    if len(name) > NAME_MAX:
        raise RulesError(f"A saved roll's name is at most {NAME_MAX} characters; give a shorter one.")
    return name


def save_roll(character: Character, roll: SavedRoll) -> SavedRoll:
    """``roll`` checked against ``character``'s sheet: its stat must be one the sheet has, and
    is kept under the sheet's own word for it ("wits" is kept as "Wits"; a Power with its type,
    "Steel (Allomancy)", which a Twinborn's other Steel never answers to)."""
    ref = find_stat(character, roll.stat)
    stat = ref.power.full_label if ref.power is not None else ref.label
    return roll.model_copy(update={"name": saved_roll_name(roll.name), "stat": stat})
