"""What Hemalurgy and kandra put on a sheet: spikes and Blessings (docs/rulings.md §9.5, §9.6).

A spike is a metal, the Power it stole (for the spikes that steal a Power) and its rating. Only
data and its checks live here; what spikes and Blessings do to the stats is
``rules.character.power_stats``, and adding, removing and rating a spike ``rules.powers.hemalurgy``.
"""

from typing import Self

from pydantic import BaseModel, ConfigDict, StrictInt, field_validator, model_validator

from rules.character import limits as lim
from rules.character.allomancy import metal_name
from rules.character.metals import Family, metal
from rules.character.names import Named, PowerType

_FROZEN = ConfigDict(frozen=True, extra="forbid")

SPIKES_MAX = 16
"""An Inquisitor carries a dozen or so; a bound on bad input."""
SPIKE_RATING_MIN = 2
SPIKE_RATING_MAX = 10

STEALS: dict[str, tuple[PowerType, Family]] = {
    "Steel": (PowerType.ALLOMANCY, Family.PHYSICAL),
    "Bronze": (PowerType.ALLOMANCY, Family.MENTAL),
    "Pewter": (PowerType.FERUCHEMY, Family.PHYSICAL),
    "Brass": (PowerType.FERUCHEMY, Family.MENTAL),
}
"""The spikes that steal a Power: the Power's type and which metals it may be (§9.5)."""


class Blessing(Named):
    """A kandra's Blessings (§9.6): what each gives is ``rules.character.power_stats``."""

    AWARENESS = "awareness"
    POTENCY = "potency"
    PRESENCE = "presence"
    STABILITY = "stability"


class Spike(BaseModel):
    """One spike: its ``metal``; for a Steel, Bronze, Pewter or Brass spike the metal of the
    ``power`` it stole; and its ``rating`` (§9.5)."""

    model_config = _FROZEN

    metal: str
    power: str | None = None
    rating: StrictInt = SPIKE_RATING_MIN

    @field_validator("metal", "power", mode="before")
    @classmethod
    def _metal(cls, value: object) -> str | None:
        return None if value is None else metal_name(value)

    @model_validator(mode="after")
    def _gift(self) -> Self:
        lim.check_range(f"A {self.metal} spike's rating", self.rating, SPIKE_RATING_MIN, SPIKE_RATING_MAX)
        steals = STEALS.get(self.metal)
        if steals is None:
            if self.power is not None:
                raise lim.problem(f"A {self.metal} spike steals no Power; leave the Power out.")
            return self
        kind, family = steals
        if self.power is None or metal(self.power).family is not family:
            raise lim.problem(
                f"A {self.metal} spike steals a {family.value} {kind.label} Power: name its metal "
                f"({', '.join(physical_or_mental(family))})."
            )
        return self

    @property
    def steals(self) -> PowerType | None:
        """The type of the Power this spike gives, if it gives one."""
        found = STEALS.get(self.metal)
        return found[0] if found else None

    @property
    def label(self) -> str:
        """ "Steel spike (Allomantic Iron) 6", "Iron spike"."""
        if self.steals is not None and self.power is not None:
            adjective = "Allomantic" if self.steals is PowerType.ALLOMANCY else "Feruchemical"
            return f"{self.metal} spike ({adjective} {self.power}) {self.rating}"
        return f"{self.metal} spike"


def physical_or_mental(family: Family) -> list[str]:
    """The basic metals of one family, in sheet order."""
    return [
        m
        for m in ("Iron", "Steel", "Tin", "Pewter", "Zinc", "Brass", "Copper", "Bronze")
        if metal(m).family is family
    ]


class Hemalurgy(BaseModel):
    """The sheet's spikes and, for a kandra, its Blessings."""

    model_config = _FROZEN

    spikes: tuple[Spike, ...] = ()
    blessings: tuple[Blessing, ...] = ()

    @model_validator(mode="after")
    def _counts(self) -> Self:
        if len(self.spikes) > SPIKES_MAX:
            raise lim.problem(f"A sheet holds at most {SPIKES_MAX} spikes.")
        if len(set(self.blessings)) != len(self.blessings):
            raise lim.problem("A Blessing is listed twice.")
        return self

    def count(self, name: str) -> int:
        """How many spikes of one metal."""
        return sum(1 for s in self.spikes if s.metal == name)
