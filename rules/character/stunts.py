"""The Stunts catalogue: the named Stunts of each metal, read from the text on a sheet
(docs/rulings.md §9.7).

A Stunt stays the text a player wrote on a Power ("Denser Tissues", "Focused Sense: hearing"),
so every sheet ever stored, exported or imported keeps working; one whose name (before a colon or
brackets) is in the catalogue is that Stunt, and the bot applies its numbers. Taking one twice is
writing it twice. Any other text stays a free Stunt for the Narrator to weigh. Every catalogued
Stunt works only while its metal burns (§9.7).
"""

import re
from dataclasses import dataclass

from rules.character.model import Character
from rules.character.names import PowerType
from rules.character.parts import Power
from rules.errors import RulesError
from rules.naming import name_key


@dataclass(frozen=True)
class Stunt:
    """One catalogued Stunt: its name, the metals it belongs to, how often it may be taken, and
    what it does in a few words."""

    name: str
    metals: tuple[str, ...]
    most: int
    does: str


_STEEL_IRON = ("Steel", "Iron")
_EMOTIONS = ("Zinc", "Brass")
CATALOGUE = (
    Stunt("Denser Tissues", ("Pewter",), 2, "−1 damage from each physical attack"),
    Stunt("Prodigious Strength", ("Pewter",), 2, "+1 die on strength rolls"),
    Stunt("Extreme Speed", ("Pewter",), 1, "2 steps a Beat without an action"),
    Stunt("Increased Velocity", _STEEL_IRON, 1, "+1 damage with a Push or Pull"),
    Stunt("Multiple Targets", _STEEL_IRON, 1, "as many objects as the rating at once"),
    Stunt("Long Range", _STEEL_IRON, 1, "300 paces instead of 100"),
    Stunt("Reflect Ranged Attack", _STEEL_IRON, 1, "a deflection won with 2 Nudges sends it back"),
    Stunt("Improved Redirection", ("Iron",), 2, "+1 die deflecting"),
    Stunt("Focused Sense", ("Tin",), 1, "+1 die with one sense"),
    Stunt("Iron Will", ("Copper",), 2, "−1 Willpower damage from each attack"),
    Stunt("Atium Advantage", ("Atium",), 1, "whoever defends against them has 2 dice fewer"),
    Stunt("Focused Emotion", _EMOTIONS, 1, "+1 rating with one emotion"),
    Stunt("Tug/Push Emotion", _EMOTIONS, 1, "+1 die on Charm rolls"),
    Stunt("Affect Crowd", _EMOTIONS, 1, "20 × the rating people, at 2 dice fewer"),
)
BY_KEY = {name_key(s.name): s for s in CATALOGUE}
_NAME = re.compile(r"^\s*(?P<name>[^:(]+?)\s*(?:[:(].*)?$")


def catalogued(text: str) -> Stunt | None:
    """The catalogue's Stunt a sheet's text names ("Focused Sense: hearing"), if any."""
    found = _NAME.match(text)
    return BY_KEY.get(name_key(found["name"])) if found else None


def stunts_for(metal: str) -> tuple[Stunt, ...]:
    """The catalogue's Stunts of one metal, for a menu."""
    return tuple(s for s in CATALOGUE if metal in s.metals)


def taken(character: Character, name: str, metal: str | None = None) -> int:
    """How many times the sheet has the catalogued Stunt ``name`` on an Allomantic Power (of
    ``metal``, when given), up to how often it may be taken."""
    stunt = BY_KEY[name_key(name)]
    count = sum(
        1
        for power in character.powers
        if power.type is PowerType.ALLOMANCY and (metal is None or power.name == metal)
        for text in power.stunts
        if catalogued(text) == stunt and power.name in stunt.metals
    )
    return min(count, stunt.most)


def working(character: Character, name: str, burning: frozenset[str] | None = None) -> int:
    """How many times ``name`` works now: taken, on a metal that burns (§9.7)."""
    stunt = BY_KEY[name_key(name)]
    lit = frozenset(character.allomancy.burning) if burning is None else burning
    return min(stunt.most, sum(taken(character, name, m) for m in stunt.metals if m in lit))


def check_stunt(power: Power, text: str) -> None:
    """Whether ``text`` may be added to ``power``'s Stunts: a catalogued Stunt belongs to an
    Allomantic Power of its metal and is taken at most as often as it may be; any other text
    once (§9.7). Feruchemy has none, free text included (§9.4)."""
    if power.type is PowerType.FERUCHEMY:
        raise RulesError(f"Feruchemy has no Stunts: {power.full_label} takes none.")
    stunt = catalogued(text)
    if stunt is None:
        if any(name_key(s) == name_key(text) for s in power.stunts):
            raise RulesError(f"{power.full_label} already has that Stunt; add a different one.")
        return
    if power.type is not PowerType.ALLOMANCY or power.name not in stunt.metals:
        metals = " or ".join(stunt.metals)
        raise RulesError(f"{stunt.name} is a Stunt of Allomantic {metals}, not of {power.full_label}.")
    had = sum(1 for s in power.stunts if catalogued(s) == stunt)
    if had >= stunt.most:
        times = "once" if stunt.most == 1 else f"{stunt.most} times"
        raise RulesError(f"{stunt.name} may be taken {times}: {power.full_label} has it already.")
