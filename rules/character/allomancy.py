"""What an Allomancer's sheet holds in play: reserves of charges, what burns and is flared,
Savants, a held emotion, and the vials and other metal carried as Props (docs/rulings.md §9.2,
§9.3, §9.8).

Only data and its checks live here; drinking, burning and moving time on are
``rules.powers``. A sheet made before reserves were counted has ``tracked`` off: its metals burn
as they always did, costing nothing, until a Narrator turns counting on (§9.2).
"""

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, field_validator, model_validator

from rules.character import limits as lim
from rules.character.metals import VIAL_METALS, metal
from rules.character.names import Named
from rules.errors import RulesError

_FROZEN = ConfigDict(frozen=True, extra="forbid")

RESERVE_MAX = 99
"""Most charges of one metal a body holds; far past what vials give, a bound on bad input."""
UNBURNT_MAX = 24 * 60
"""Minutes a reserve is remembered unburnt (poisoning comes at 8 hours, §9.2)."""
POISON_AFTER = 8 * 60
"""Minutes a charge may sit unburnt before it poisons (§9.2)."""
HOLD_DICE_MAX = 6
"""An emotion held by Zinc or Brass gives a die per Outcome point: at most +6 (§9.3)."""


def metal_name(value: object) -> str:
    """A metal's proper name from a player's or a file's text; a sheet error otherwise."""
    try:
        return metal(str(value)).name
    except RulesError as error:  # the sheet reports it as its own problem
        raise lim.problem(str(error)) from None


def metal_names(values: tuple[str, ...], what: str) -> tuple[str, ...]:
    """Proper names, each once (``what`` names the list in the error)."""
    names = tuple(metal_name(v) for v in values)
    if len(set(names)) != len(names):
        raise lim.problem(f"{what} lists a metal twice.")
    return names


class VialForm(Named):
    """What the metal is carried in: each form holds its own charges when full (§9.2)."""

    VIAL = "vial"
    NAIL = "nail"
    RING = "ring"
    NUGGET = "nugget"


FORM_CHARGES = {VialForm.NAIL: 2, VialForm.RING: 2, VialForm.NUGGET: 4}
MISTING_VIAL = 3
"""A Misting's vial: 3 charges of its one metal. A Mistborn's: 1 of each basic metal."""
VIAL_CHARGES_MAX = 10


class Vial(BaseModel):
    """Metal carried to be drunk or swallowed, as a Prop: ``charges`` of each of ``metals`` when
    full. A drunk one is ``used`` until the next Long Breather brings it back (§9.8)."""

    model_config = _FROZEN

    kind: Literal["vial"] = "vial"
    form: VialForm = VialForm.VIAL
    metals: tuple[str, ...]
    charges: StrictInt
    used: StrictBool = False
    impure: StrictBool = False

    @field_validator("metals")
    @classmethod
    def _metals(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise lim.problem("A vial holds at least one metal.")
        return metal_names(value, "A vial")

    @model_validator(mode="after")
    def _charges(self) -> Self:
        lim.check_range("A vial's charges of each metal", self.charges, 1, VIAL_CHARGES_MAX)
        return self

    @property
    def label(self) -> str:
        """ "3 Tin", "1 each of 8 metals": what it holds when full."""
        if len(self.metals) == 1:
            return f"{self.charges} {self.metals[0]}"
        return f"{self.charges} each of {len(self.metals)} metals"


class Reserve(BaseModel):
    """Charges of one metal in the body. ``impure``: the last drink was impure, so the metal
    cannot be flared and halves Physique and its rating until burnt off; ``unburnt``: minutes
    the charges have sat unburnt, for poisoning (§9.2)."""

    model_config = _FROZEN

    metal: str
    charges: StrictInt = 0
    impure: StrictBool = False
    unburnt: StrictInt = 0

    @field_validator("metal", mode="before")
    @classmethod
    def _metal(cls, value: object) -> str:
        return metal_name(value)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        lim.check_range(f"{self.metal} charges", self.charges, 0, RESERVE_MAX)
        lim.check_range(f"{self.metal}'s unburnt minutes", self.unburnt, 0, UNBURNT_MAX)
        return self


class Hold(BaseModel):
    """A soothing (Brass) or rioting (Zinc) that succeeded: +``dice`` on Charm and Influence rolls
    against those held, while the Allomancer keeps burning and focusing (§9.3)."""

    model_config = _FROZEN

    metal: Literal["Zinc", "Brass"]
    dice: StrictInt

    @model_validator(mode="after")
    def _dice(self) -> Self:
        lim.check_range("A held emotion's dice", self.dice, 1, HOLD_DICE_MAX)
        return self


PEWTER_HOURS = 8 * 60
"""Minutes of Pewter that heal 2 Health, and that lift Pewter drag (§9.3)."""
PEWTER_DAY = 24 * 60
"""Pewter heals at most once in this many minutes of time moved on (§9.3)."""


class PewterTime(BaseModel):
    """Pewter's count as the Narrator moves time on (§9.3): ``burnt`` minutes of it toward the
    next heal, ``wait`` minutes before a heal may come again; ``drag`` set by the Narrator, with
    the minutes of Pewter ``rested`` toward lifting it."""

    model_config = _FROZEN

    burnt: StrictInt = 0
    wait: StrictInt = 0
    drag: StrictBool = False
    rested: StrictInt = 0

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        lim.check_range("Minutes of Pewter toward healing", self.burnt, 0, PEWTER_HOURS)
        lim.check_range("Minutes before Pewter heals again", self.wait, 0, PEWTER_DAY)
        lim.check_range("Minutes of Pewter at rest", self.rested, 0, PEWTER_HOURS)
        if self.rested and not self.drag:
            raise lim.problem("Minutes of Pewter at rest count only against Pewter drag.")
        return self


class Allomancy(BaseModel):
    """The sheet's Allomancy in play. ``flared`` metals also burn; ``savants`` are metals the
    character is a Savant of; ``pewter`` counts Pewter's healing and drag (§9.3)."""

    model_config = _FROZEN

    tracked: StrictBool = False
    reserves: tuple[Reserve, ...] = ()
    burning: tuple[str, ...] = ()
    flared: tuple[str, ...] = ()
    savants: tuple[str, ...] = ()
    hold: Hold | None = None
    pewter: PewterTime = PewterTime()

    @field_validator("burning", "flared", "savants")
    @classmethod
    def _metals(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return metal_names(value, "The list of metals")

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if len({r.metal for r in self.reserves}) != len(self.reserves):
            raise lim.problem("A metal's reserve is listed twice.")
        if not set(self.flared) <= set(self.burning):
            raise lim.problem("A flared metal must also be burning.")
        if self.hold is not None and self.hold.metal not in self.burning:
            raise lim.problem(f"An emotion held with {self.hold.metal} needs {self.hold.metal} burning.")
        return self

    def reserve(self, name: str) -> Reserve:
        """The reserve of one metal (an empty one when none is listed)."""
        return next((r for r in self.reserves if r.metal == name), Reserve(metal=name))

    def charges(self, name: str) -> int:
        return self.reserve(name).charges

    def with_reserve(self, reserve: Reserve) -> "Allomancy":
        """A copy with ``reserve`` replacing that metal's (an empty, pure, fresh one is dropped)."""
        kept = [r for r in self.reserves if r.metal != reserve.metal]
        if reserve != Reserve(metal=reserve.metal):
            kept.append(reserve)
        order = {m: i for i, m in enumerate(VIAL_METALS)}
        kept.sort(key=lambda r: (order.get(r.metal, len(order)), r.metal))
        return self.model_copy(update={"reserves": tuple(kept)})
