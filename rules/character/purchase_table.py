"""What a spend of Advancements buys, as data (docs/rulings.md §10.1): the shape of one row of the
cost table, and of a purchase a player asks for.

Each improvement is a :class:`PurchaseRule`: its cost, the targets a Hero may pick *now* (none:
it is not offered), and how it changes the sheet. The sheet's own improvements live in
``rules.character.sheet_purchases``, the Powers' in ``rules.character.power_purchases``; both
plug into the one table of ``rules.character.purchases``, which offers, prices and applies them.
"""

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from rules.character.model import Character
from rules.character.names import PowerType

NOT_NOW = "That is not on offer any more: the sheet changed. Open the spending menu again."
"""A purchase whose target is gone: the menu was built from an earlier sheet."""
TEXT_MAX = 60
"""The longest text a purchase carries (a Trait's length; a Stunt's is shorter, checked by the sheet)."""


class PurchaseKind(StrEnum):
    CHANGE_TRAIT = "change_trait"
    NEW_TRAIT = "new_trait"
    ATTRIBUTE = "attribute"
    STANDING = "standing"
    EASE_MORTAL = "ease_mortal"
    STUNT = "stunt"
    POWER = "power"
    LEARN_METAL = "learn_metal"
    SAVANT = "savant"
    SNAP_MISTING = "snap_misting"
    BLESSING = "blessing"
    KEEPER = "keeper"
    SNAP_MISTBORN = "snap_mistborn"
    SPIKE = "spike"


Unlock = tuple[PowerType, str]
"""A metal a rules Secret the Hero knows lets them learn, with its kind of Power (§10.3)."""


class Purchase(BaseModel):
    """One improvement asked for: its kind, which target (a Trait's slot, a Power, a metal…), the
    words it needs (a new Trait, a Stunt) and a spike's rating."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: PurchaseKind
    target: str = Field(default="", max_length=60)
    text: str = Field(default="", max_length=TEXT_MAX)
    rating: int | None = Field(default=None, ge=1, le=10)


def listed_at(target: str) -> int:
    """The position a target names in one of the sheet's lists (its Powers, its Burdens, its
    extra Traits), or -1 when it names none: ``int`` reads only decimal digits ("²" passes
    ``isdigit`` and not ``int``), and a target is typed text beside the menu's suggestions."""
    return int(target) if target.isdecimal() else -1


@dataclass(frozen=True)
class Target:
    """Something a purchase may be made on, as a menu offers it: its value and its label."""

    value: str
    label: str


@dataclass(frozen=True)
class Asks:
    """What the form asks besides the target: a text (its label), a rating (its range)."""

    text: str | None = None
    rating: tuple[int, int] | None = None


@dataclass(frozen=True)
class PurchaseRule:
    """One row of the cost table."""

    kind: PurchaseKind
    label: str
    cost_text: str
    """The cost as the table says it ("5", "4 or 2 × rating")."""
    limit: str
    """The row's limit, in words (the menu's description)."""
    targets: Callable[[Character, frozenset[Unlock]], list[Target]]
    """What may be picked now; empty when the Hero cannot buy this at all."""
    cost: Callable[[Character, Purchase], int]
    apply: Callable[[Character, Purchase], Character]
    """The sheet with the improvement; :class:`~rules.errors.RulesError` when it may not be made."""
    asks: Asks = Asks()
    power: bool = False
    """A Power purchase (``rules.character.power_purchases``)."""


def fixed(cost: int) -> Callable[[Character, Purchase], int]:
    """A row whose cost is the same whatever is picked."""

    def price(character: Character, purchase: Purchase) -> int:
        return cost

    return price
