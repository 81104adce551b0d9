"""What a Feruchemist's sheet holds in play: metalminds (as Props) and what is being stored
(docs/rulings.md §9.4, §9.8).

Only data and its checks live here; storing over time and tapping on a roll are
``rules.powers.feruchemy``.
"""

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, StrictInt, field_validator, model_validator

from rules.character import limits as lim
from rules.character.allomancy import metal_name, metal_names
from rules.character.names import Named

_FROZEN = ConfigDict(frozen=True, extra="forbid")

RATE_MAX = 10
"""Most charges stored in an hour: a rating of 10."""
GOLD_HEALTH_MAX = 100
"""Health a Gold tap may lend at once (a bound on bad input, §9.4)."""


class MindSize(Named):
    """How big a metalmind is, which sets how much it holds (§9.4)."""

    SMALL = "small"
    AVERAGE = "average"
    LARGE = "large"
    HUGE = "huge"

    @property
    def capacity(self) -> int:
        return {"small": 25, "average": 100, "large": 200, "huge": 500}[self.value]


class Metalmind(BaseModel):
    """A Feruchemist's store of one metal, as a Prop: ``charges`` of ``metal``, never more than
    its size holds."""

    model_config = _FROZEN

    kind: Literal["metalmind"] = "metalmind"
    metal: str
    size: MindSize = MindSize.AVERAGE
    charges: StrictInt = 0

    @field_validator("metal", mode="before")
    @classmethod
    def _metal(cls, value: object) -> str:
        return metal_name(value)

    @model_validator(mode="after")
    def _charges(self) -> Self:
        cap = self.size.capacity
        lim.check_range(f"A {self.size.value} {self.metal}mind's charges", self.charges, 0, cap)
        return self

    @property
    def room(self) -> int:
        return self.size.capacity - self.charges


class Storing(BaseModel):
    """A metal being stored: ``rate`` charges each full hour, and the ``minutes`` of the hour
    under way (an hour broken off stores nothing, §9.4)."""

    model_config = _FROZEN

    metal: str
    rate: StrictInt
    minutes: StrictInt = 0

    @field_validator("metal", mode="before")
    @classmethod
    def _metal(cls, value: object) -> str:
        return metal_name(value)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        lim.check_range(f"Storing {self.metal} per hour", self.rate, 1, RATE_MAX)
        lim.check_range(f"The hour of {self.metal} under way", self.minutes, 0, 59)
        return self


class Feruchemy(BaseModel):
    """What is being stored, and Health lent by a Gold tap with the minutes it has left."""

    model_config = _FROZEN

    storing: tuple[Storing, ...] = ()
    gold_health: StrictInt = 0
    gold_minutes: StrictInt = 0

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        metal_names(tuple(s.metal for s in self.storing), "What is being stored")
        lim.check_range("Health from tapping Gold", self.gold_health, 0, GOLD_HEALTH_MAX)
        lim.check_range("The minutes Gold's Health lasts", self.gold_minutes, 0, 60)
        if bool(self.gold_health) != bool(self.gold_minutes):
            raise lim.problem("Health from tapping Gold needs the minutes it lasts, and only then.")
        return self

    def storing_of(self, name: str) -> Storing | None:
        return next((s for s in self.storing if s.metal == name), None)

    def stored_rate(self, name: str) -> int:
        """Charges an hour being stored in ``name`` (0 when none): the dice it costs (§9.4)."""
        found = self.storing_of(name)
        return found.rate if found else 0
