"""The listed parts of a sheet: Traits, Burdens, Powers, Props and the build labels (docs/rulings.md §6).

Each checks its own text and numbers; the sheet checks the counts and the names' uniqueness.
"""

from typing import Annotated, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from rules.burdens import Severity
from rules.character import limits as lim
from rules.character.allomancy import Vial
from rules.character.feruchemy import Metalmind
from rules.character.names import METALS, RESERVED_NAMES, Emphasis, PowerType, canonical_metal
from rules.naming import did_you_mean, name_key

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Traits(BaseModel):
    """The five named Traits (empty until chosen) and up to a few extra ones."""

    model_config = _FROZEN

    drive: str = ""
    profession: str = ""
    specialty: str = ""
    feature: str = ""
    personality: str = ""
    extras: tuple[str, ...] = ()

    @field_validator("drive", "profession", "specialty", "feature", "personality")
    @classmethod
    def _named(cls, value: str, info: ValidationInfo) -> str:
        return lim.clean_text(value, f"The {str(info.field_name).capitalize()} Trait", lim.TRAIT_MAX)

    @field_validator("extras")
    @classmethod
    def _extras(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(value) > lim.EXTRA_TRAITS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.EXTRA_TRAITS_MAX} extra Traits.")
        return tuple(lim.clean_text(t, "An extra Trait", lim.TRAIT_MAX, required=True) for t in value)


class Burden(BaseModel):
    """A named temporary weakness and how bad it is (docs/rulings.md §5)."""

    model_config = _FROZEN

    name: str
    severity: Severity

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return lim.clean_text(value, "A Burden's name", lim.BURDEN_NAME_MAX, required=True)


class Power(BaseModel):
    """One Power: its type, its metal (Allomancy, Feruchemy) or name, its rating, its Stunts.
    ``from_spike``: listed because a spike stole it (docs/rulings.md §9.5), so it can take Stunts;
    its rating is that spike's, counted once, and it goes when the spike does."""

    model_config = _FROZEN

    type: PowerType
    name: str
    rating: StrictInt
    stunts: tuple[str, ...] = ()
    from_spike: StrictBool = False

    @property
    def label(self) -> str:
        """The short name a player rolls by: "Steel"."""
        return self.name

    @property
    def full_label(self) -> str:
        """The name with its type, unambiguous on a Twinborn's sheet: "Steel (Allomancy)"."""
        return f"{self.name} ({self.type.label})"

    @field_validator("name")
    @classmethod
    def _name(cls, value: str, info: ValidationInfo) -> str:
        name = lim.clean_text(value, "A Power's name", lim.POWER_NAME_MAX, required=True)
        kind = info.data.get("type")
        if isinstance(kind, PowerType) and kind.uses_metal:
            metal = canonical_metal(name)
            if metal is None:
                hint = did_you_mean(name, METALS)
                raise lim.problem(
                    f"{kind.label} needs a metal such as Steel or Pewter, not {lim.quoted(name)}.{hint}"
                )
            name = metal
        if name_key(name) in RESERVED_NAMES:
            raise lim.problem(f"A Power cannot be called {name}: that name belongs to the sheet's stats.")
        return name

    @field_validator("stunts")
    @classmethod
    def _stunts(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        if len(value) > lim.STUNTS_MAX:
            raise lim.problem(f"A sheet holds at most {lim.STUNTS_MAX} Stunts in all.")
        what = f"A {info.data.get('name', 'Power')} Stunt"
        return tuple(lim.clean_text(s, what, lim.STUNT_MAX, required=True) for s in value)

    @model_validator(mode="after")
    def _rating(self) -> Self:
        lim.check_range(f"The {self.name} rating", self.rating, lim.POWER_RATING_MIN, lim.POWER_RATING_MAX)
        return self


RATED_FROM_TWO = (PowerType.ALLOMANCY, PowerType.KANDRA)
"""Allomancy and Mimicry (a kandra's Power) are rated 2–10; Feruchemy and the rest 1–10
(docs/rulings.md §9.1). The sheet model still reads a 1 (a sheet stored before this rule stays
readable); a rating given in an edit or an import is checked with :func:`rating_refusal`."""


def lowest_rating(kind: PowerType) -> int:
    return lim.POWER_RATING_MIN + 1 if kind in RATED_FROM_TWO else lim.POWER_RATING_MIN


def rating_refusal(kind: PowerType, name: str, rating: int) -> str | None:
    """Why ``rating`` is no rating for a new or changed Power of ``kind``, or None (§9.1)."""
    lowest = lowest_rating(kind)
    if lowest <= rating <= lim.POWER_RATING_MAX:
        return None
    return f"{kind.label} {name} is rated {lowest} to {lim.POWER_RATING_MAX}, not {rating}."


Implement = Annotated[Vial | Metalmind, Field(discriminator="kind")]
"""What a Prop holds for a Power: metal to drink, or a metalmind's store (docs/rulings.md §9.8)."""


class Prop(BaseModel):
    """A piece of equipment; weapons add damage (0–4), armour absorbs it (0–3) (docs/rulings.md §5);
    an ``implement`` is a vial or a metalmind (§9.8)."""

    model_config = _FROZEN

    name: str
    weapon: StrictInt | None = None
    armour: StrictInt | None = None
    implement: Implement | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return lim.clean_text(value, "A Prop's name", lim.PROP_NAME_MAX, required=True)

    @model_validator(mode="after")
    def _bonuses(self) -> Self:
        if self.weapon is not None:
            lim.check_range(f"The weapon bonus of {self.name}", self.weapon, 0, lim.WEAPON_MAX)
        if self.armour is not None:
            lim.check_range(f"The armour of {self.name}", self.armour, 0, lim.ARMOUR_MAX)
        return self


class BuildLabels(BaseModel):
    """Which of Attributes, Standings and Powers a Hero made strong, average and weak."""

    model_config = _FROZEN

    attributes: Emphasis
    standings: Emphasis
    powers: Emphasis

    @model_validator(mode="after")
    def _one_each(self) -> Self:
        if len({self.attributes, self.standings, self.powers}) != 3:
            raise lim.problem("Attributes, Standings and Powers must be strong, average and weak, one each.")
        return self
