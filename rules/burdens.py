"""Burden severities and the dice they give (RULES.md §1, §5).

A Burden is a temporary negative Trait; anyone acting against its bearer may add dice for it:
Serious +1, Grave +2, Mortal +3. Burdens only ever add to a pool.
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
