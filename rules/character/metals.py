"""What each metal does, as data: burn rates, Feruchemy's links, a spike's price and gift
(docs/rulings.md §9).

The numbers are the published game's (§9.2, §9.4, §9.5); where it gives none for a metal the
table holds our ruling, said beside it in §9. Both the sheet (``rules.character``) and the
play of Powers (``rules.powers``) read this one table, so a rate or a link lives in one place.
"""

from dataclasses import dataclass
from enum import StrEnum

from rules.character.names import BASIC_METALS, METALS, Attribute, Named, Standing
from rules.errors import RulesError
from rules.naming import did_you_mean, name_key


class Task(Named):
    """What a roll leans on, for the Powers that help or hinder it (§9.3, §9.4): a player names it
    on ``/roll task:``; a sense roll is a Wits roll about the senses."""

    SENSES = "senses"
    STRENGTH = "strength"
    SPEED = "speed"
    QUICK_WITS = "quick wits"
    ENDURANCE = "endurance"
    MEMORY = "memory"

    @property
    def label(self) -> str:
        return self.value


class Family(StrEnum):
    """Physical and mental metals, external and internal (a spike's gift, §9.5)."""

    PHYSICAL = "physical"
    MENTAL = "mental"
    OTHER = "other"


@dataclass(frozen=True)
class Metal:
    """One metal's facts. ``burn`` and ``flared`` are the seconds one charge lasts (0: instant,
    a charge spent each time it is used; ``flared`` None: it cannot be flared)."""

    name: str
    burn: int
    flared: int | None
    family: Family = Family.OTHER
    stores: str = ""
    """What a Keeper stores in it, in a word ("strength")."""
    task: Task | None = None
    """The rolls its Feruchemy helps when tapped and hinders while stored."""
    linked: Attribute | Standing | None = None
    """Storing per hour is capped at this stat less 1 (None: at the rating alone)."""
    store_cap: int | None = None
    """A fixed cap on storing per hour instead of a linked stat (Iron: 9)."""
    spike_charm: int = 0
    spike_spirit: int = 1
    """What a spike of this metal costs its bearer (§9.5)."""

    @property
    def instant(self) -> bool:
        return self.burn == 0

    @property
    def flares(self) -> bool:
        return self.flared is not None


_PHYS, _MENT = Family.PHYSICAL, Family.MENTAL
_P, _W = Attribute.PHYSIQUE, Attribute.WITS
_TABLE = [
    Metal("Iron", 1200, 120, _PHYS, "weight", store_cap=9, spike_charm=1),
    Metal("Steel", 1200, 120, _PHYS, "speed", Task.SPEED, _P),
    Metal("Tin", 3600, 360, _PHYS, "senses", Task.SENSES, _W, spike_charm=1),
    Metal("Pewter", 300, 30, _PHYS, "strength", Task.STRENGTH, _P),
    Metal("Zinc", 1200, 120, _MENT, "mental speed", Task.QUICK_WITS, _W, spike_charm=1, spike_spirit=0),
    Metal("Brass", 1200, 120, _MENT, "warmth", None, _P),
    Metal("Copper", 2400, 240, _MENT, "memories", Task.MEMORY, _W, spike_charm=1),
    Metal("Bronze", 1800, 180, _MENT, "wakefulness", Task.ENDURANCE, _W),
    Metal("Atium", 30, None, stores="youth"),
    Metal("Malatium", 30, None),
    Metal("Gold", 600, 60, stores="health", linked=_P),
    Metal("Electrum", 600, 60, stores="determination"),
    Metal("Cadmium", 1200, 120, stores="breath"),
    Metal("Bendalloy", 1200, 120, stores="nourishment"),
    Metal("Chromium", 0, None, stores="fortune"),
    Metal("Nicrosil", 0, None, stores="investiture"),
    Metal("Aluminum", 0, None, stores="identity"),
    Metal("Duralumin", 0, None, stores="connection"),
    Metal("Lerasium", 0, None),
]
METAL_FACTS: dict[str, Metal] = {m.name: m for m in _TABLE}
assert tuple(METAL_FACTS) == METALS, "the table lists every metal the sheet knows, in order"

VIAL_METALS = BASIC_METALS
"""What a Mistborn's vial holds: a charge of each basic metal (§9.8)."""


def metal(name: str) -> Metal:
    """The facts of a metal named as a player types it; a RulesError with the closest names."""
    key = name_key(str(name))
    for found in _TABLE:
        if name_key(found.name) == key or (key == "aluminium" and found.name == "Aluminum"):
            return found
    shown = str(name).strip()[:40]
    raise RulesError(f"'{shown}' is not a metal.{did_you_mean(shown, METALS)}")
