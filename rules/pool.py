"""Forming a dice pool (docs/rulings.md §1).

A pool starts from a rating and grows or shrinks by Traits, the target's Burdens, Tools,
Circumstances and other modifiers. Every contribution is kept, so the bot can show the sum the
way a table would say it ("Physique 4 + 2 Traits + Tool = 7"). The dice actually thrown are
clamped to 2–10: dice beyond 10 become free Nudges, and each die short of 2 worsens the Outcome
by 1.
"""

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from rules.burdens import Severity
from rules.errors import RulesError

MIN_DICE = 2
MAX_DICE = 10
MAX_RATING = 20
"""Highest starting number of dice. Sheet ratings stop at 10, but a burning Pewterarm's
Physique or a Conflict's Action Dice can go past it (Thorrow holds 12)."""
MAX_TRAITS = 10
MAX_BURDENS = 10
MAX_MODIFIERS = 10
MAX_MODIFIER = 10
MAX_LABEL = 40
MAX_BOON = 20
"""Most Nudges or Outcome one Power may grant a roll (a tap of 100 charges gives 20 Nudges)."""


class Source(StrEnum):
    """Where a contribution to a pool comes from."""

    RATING = "rating"
    TRAIT = "trait"
    BURDEN = "burden"
    TOOL = "tool"
    CIRCUMSTANCE = "circumstance"
    MODIFIER = "modifier"


class Contribution(BaseModel):
    """One named part of a pool, signed: +1 for a supporting Trait, -1 for a hindering one."""

    model_config = ConfigDict(frozen=True)

    source: Source
    label: str
    dice: int


class Boon(BaseModel):
    """What a Power gives a roll beyond dice, if it succeeds: Nudges (a Savant's, a tap's) and
    Outcome (a tap's), named so the table sees where they came from (docs/rulings.md §9)."""

    model_config = ConfigDict(frozen=True)

    label: str
    nudges: int = Field(default=0, ge=0, le=MAX_BOON)
    outcome: int = Field(default=0, ge=0, le=MAX_BOON)


class Pool(BaseModel):
    """A formed pool: its parts, their sum, and the dice that sum means at the table."""

    model_config = ConfigDict(frozen=True)

    contributions: tuple[Contribution, ...]
    total: int = Field(description="The plain sum of every contribution, before clamping.")
    boons: tuple[Boon, ...] = ()

    @property
    def dice(self) -> int:
        """Dice actually rolled: the total clamped to 2–10."""
        return min(MAX_DICE, max(MIN_DICE, self.total))

    @property
    def free_nudges(self) -> int:
        """One free Nudge per die beyond 10, and each a Power grants, usable only if the roll
        succeeds."""
        beyond = max(0, self.total - MAX_DICE)
        return beyond + sum(b.nudges for b in self.boons) if self.boons else beyond

    @property
    def outcome_bonus(self) -> int:
        """What Powers add to the Outcome of a success (a Feruchemical tap's, §9.4)."""
        return sum(b.outcome for b in self.boons) if self.boons else 0

    @property
    def underflow(self) -> int:
        """How far the total fell below 2; the Outcome worsens by this much."""
        return max(0, MIN_DICE - self.total)

    @classmethod
    def of_dice(cls, dice: int, label: str = "Dice") -> "Pool":
        """A pool of a bare dice count with nothing added, as for ``/roll dice:5``: made once per
        count and label (a frozen value, the same whoever rolls it; every Conflict roll and
        defence is one), so only the first is checked and built."""
        key = (dice, label)
        made = _PLAIN.get(key)
        if made is None:
            if len(_PLAIN) >= _PLAIN_KEPT:
                _PLAIN.clear()
            made = _PLAIN[key] = build_pool(dice, rating_label=label)
        return made


_PLAIN: dict[tuple[int, str], Pool] = {}
_PLAIN_KEPT = 256


def _check_range(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RulesError(f"{name} must be between {low} and {high}; {value} is out of range.")


def _check_label(label: str, what: str) -> str:
    label = label.strip()
    if not label:
        raise RulesError(f"The {what} needs a name.")
    if len(label) > MAX_LABEL:
        raise RulesError(f"The {what} name is too long (at most {MAX_LABEL} characters).")
    return label


def _plural(count: int, word: str) -> str:
    return word if count == 1 else f"{count} {word}s"


def build_pool(
    rating: int,
    *,
    rating_label: str = "Dice",
    traits_for: int = 0,
    traits_against: int = 0,
    burdens: Sequence[Severity] = (),
    tool: int = 0,
    circumstances: int = 0,
    modifiers: Sequence[tuple[str, int]] = (),
    boons: Sequence[Boon] = (),
) -> Pool:
    """Form a pool from a rating and everything that adjusts it (docs/rulings.md §1).

    ``tool`` and ``circumstances`` are the net adjustment the Narrator settled on (-1, 0 or
    +1): the rules cap each at one die however many apply. Traits are uncapped, and Burdens
    count only in the roller's favour. ``modifiers`` are other named adjustments such as a
    defeat penalty or a Complication that costs dice. ``boons`` are what Powers grant a
    success beyond dice (docs/rulings.md §9).
    """
    _check_range(f"{rating_label} rating", rating, 0, MAX_RATING)
    rating_label = _check_label(rating_label, "rating")
    _check_range("Supporting Traits", traits_for, 0, MAX_TRAITS)
    _check_range("Hindering Traits", traits_against, 0, MAX_TRAITS)
    if len(burdens) > MAX_BURDENS:
        raise RulesError(f"At most {MAX_BURDENS} Burdens can apply to one roll; name fewer.")
    if tool not in (-1, 0, 1):
        raise RulesError("Tools add or remove at most one die: use -1, 0 or +1.")
    if circumstances not in (-1, 0, 1):
        raise RulesError("Circumstances add or remove at most one die: use -1, 0 or +1.")
    if len(modifiers) > MAX_MODIFIERS:
        raise RulesError(f"At most {MAX_MODIFIERS} other modifiers can apply to one roll.")

    # Every part is checked above; the models' own constructors check only plain types, which
    # costs less than ``model_construct``'s Python loop over the fields.
    made = Contribution
    parts = [made(source=Source.RATING, label=rating_label, dice=rating)]
    if traits_for:
        parts.append(made(source=Source.TRAIT, label=_plural(traits_for, "Trait"), dice=traits_for))
    if traits_against:
        label = _plural(traits_against, "hindering Trait")
        parts.append(made(source=Source.TRAIT, label=label, dice=-traits_against))
    for severity in burdens:
        label = f"{severity.label} Burden"
        parts.append(made(source=Source.BURDEN, label=label, dice=severity.dice))
    if tool:
        parts.append(made(source=Source.TOOL, label="Tool", dice=tool))
    if circumstances:
        parts.append(made(source=Source.CIRCUMSTANCE, label="Circumstances", dice=circumstances))
    for name, dice in modifiers:
        _check_range(f"The modifier '{name.strip()[:MAX_LABEL]}'", dice, -MAX_MODIFIER, MAX_MODIFIER)
        if dice:
            label = _check_label(name, "modifier")
            parts.append(made(source=Source.MODIFIER, label=label, dice=dice))
    if len(boons) > MAX_MODIFIERS:
        raise RulesError(f"At most {MAX_MODIFIERS} Powers can grant Nudges or Outcome to one roll.")
    return Pool(contributions=tuple(parts), total=sum(p.dice for p in parts), boons=tuple(boons))
