"""The closed sets a sheet is built from: kinds, stats, Power types and metals (docs/rulings.md §6).

Each enum's value is the lower-case word used in stored JSON; ``label`` is the word a player
reads. The ``parse_*`` helpers take a player's typing in any case and raise
:class:`~rules.errors.RulesError` naming the choices.
"""

from enum import Enum, StrEnum
from typing import TypeVar

from rules.burdens import Severity
from rules.errors import RulesError
from rules.naming import did_you_mean, name_key


class Named(StrEnum):
    """An enum stored as its lower-case value and shown as its capitalized ``label``."""

    @property
    def label(self) -> str:
        return self.capitalize()  # the member is its value (a str), so no ``.value`` is read


class CharacterKind(Named):
    """Heroes belong to players; Villains and Extras to the server's Narrators."""

    HERO = "hero"
    VILLAIN = "villain"
    EXTRA = "extra"


class Attribute(Named):
    PHYSIQUE = "physique"
    CHARM = "charm"
    WITS = "wits"


class Standing(Named):
    RESOURCES = "resources"
    INFLUENCE = "influence"
    SPIRIT = "spirit"


class Resilience(Named):
    """The three things an attack can wear down (docs/rulings.md §4, §5)."""

    HEALTH = "health"
    REPUTATION = "reputation"
    WILLPOWER = "willpower"


class DefeatCondition(Named):
    """What a character is when a Resilience reaches 0 (docs/rulings.md §5)."""

    INCAPACITATED = "incapacitated"
    DISGRACED = "disgraced"
    DEVASTATED = "devastated"


class PowerType(Named):
    ALLOMANCY = "allomancy"
    FERUCHEMY = "feruchemy"
    HEMALURGY = "hemalurgy"
    KANDRA = "kandra"
    OTHER = "other"

    @property
    def uses_metal(self) -> bool:
        """Allomancy and Feruchemy Powers are named by their metal."""
        return self in (PowerType.ALLOMANCY, PowerType.FERUCHEMY)


class Emphasis(Named):
    """The strong / average / weak label a Hero gives each part of the sheet (docs/rulings.md §6)."""

    STRONG = "strong"
    AVERAGE = "average"
    WEAK = "weak"


class StatKind(Named):
    """What a rollable rating is; decides which defeat penalty applies (docs/rulings.md §5)."""

    ATTRIBUTE = "attribute"
    STANDING = "standing"
    POWER = "power"


RESILIENCE_DEFEAT = {
    Resilience.HEALTH: DefeatCondition.INCAPACITATED,
    Resilience.REPUTATION: DefeatCondition.DISGRACED,
    Resilience.WILLPOWER: DefeatCondition.DEVASTATED,
}
"""The condition each Resilience's defeat brings."""

PENALISED_BY = {
    StatKind.ATTRIBUTE: Resilience.HEALTH,
    StatKind.STANDING: Resilience.REPUTATION,
    StatKind.POWER: Resilience.WILLPOWER,
}
"""Which Resilience at 0 costs dice on rolls of each kind of rating (docs/rulings.md §5)."""

METALS = (
    "Iron",
    "Steel",
    "Tin",
    "Pewter",
    "Zinc",
    "Brass",
    "Copper",
    "Bronze",
    "Atium",
    "Malatium",
    "Gold",
    "Electrum",
    "Cadmium",
    "Bendalloy",
    "Chromium",
    "Nicrosil",
    "Aluminum",
    "Duralumin",
    "Lerasium",
)
"""The eight basic metals first, then the rarer ones."""
BASIC_METALS = METALS[:8]
_METAL_ALIASES = {"aluminium": "Aluminum"}

RESERVED_NAMES = frozenset(
    [*(a.value for a in Attribute), *(s.value for s in Standing), *(r.value for r in Resilience)]
)
"""Stat names no Power may take, so a lookup by name is never ambiguous."""


def canonical_metal(name: str) -> str | None:
    """The metal's proper spelling, or None if it is not a metal."""
    key = name_key(name)
    if key in _METAL_ALIASES:
        return _METAL_ALIASES[key]
    for metal in METALS:
        if name_key(metal) == key:
            return metal
    return None


_E = TypeVar("_E", bound=Enum)


def _parse(enum: type[_E], value: _E | str, what: str) -> _E:
    if isinstance(value, enum):
        return value
    key = name_key(str(value))
    for member in enum:
        if member.value == key:
            return member
    choices = ", ".join(str(m.value).capitalize() for m in enum)
    shown = str(value)[:40]
    hint = did_you_mean(shown, [str(m.value).capitalize() for m in enum])
    raise RulesError(f"'{shown}' is not a {what}; choose one of {choices}.{hint}")


def parse_resilience(value: Resilience | str) -> Resilience:
    return _parse(Resilience, value, "Resilience")


def parse_standing(value: Standing | str) -> Standing:
    return _parse(Standing, value, "Standing")


def parse_attribute(value: Attribute | str) -> Attribute:
    return _parse(Attribute, value, "Attribute")


def parse_severity(value: Severity | str) -> Severity:
    return _parse(Severity, value, "Burden severity")
