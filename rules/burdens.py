"""Burden severities and the dice they give (docs/rulings.md §1.3, §5).

A Burden is a temporary negative Trait; anyone acting against its bearer may add dice for it,
and Burdens only ever add to a pool (the rule text). How many it adds the text does not say:
Serious +1, Grave +2, Mortal +3 is our ruling, the published game's values (§1.3).
"""

from enum import StrEnum


class Severity(StrEnum):
    SERIOUS = "serious"
    GRAVE = "grave"
    MORTAL = "mortal"

    @property
    def dice(self) -> int:
        """Dice an opponent gains for exploiting a Burden of this severity."""
        return {Severity.SERIOUS: 1, Severity.GRAVE: 2, Severity.MORTAL: 3}[self]

    @property
    def label(self) -> str:
        return self.value.capitalize()
