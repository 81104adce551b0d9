"""How fair logged dice look: a chi-square test of face counts against a fair d6.

Players ask "are the bot's dice rigged?"; the honest answer is a p-value, not a feeling. With
six faces the statistic has 5 degrees of freedom, whose tail has a closed form, so no
statistics library is needed.
"""

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from rules.errors import RulesError


class Fairness(BaseModel):
    model_config = ConfigDict(frozen=True)

    dice: int
    chi_square: float
    p_value: float
    """Chance that fair dice look at least this uneven; tiny values (< 0.001) are suspicious."""


def chi_square_tail_5(x: float) -> float:
    """P(X >= x) for a chi-square variable with 5 degrees of freedom."""
    if x <= 0:
        return 1.0
    root = math.sqrt(x)
    series = root + x * root / 3
    return min(1.0, math.erfc(math.sqrt(x / 2)) + math.sqrt(2 / math.pi) * math.exp(-x / 2) * series)


def fairness(face_counts: Sequence[int]) -> Fairness:
    """Test face counts 1–6 against a fair die."""
    if len(face_counts) != 6 or any(c < 0 for c in face_counts):
        raise RulesError("A fairness check needs six face counts, none negative.")
    dice = sum(face_counts)
    if dice == 0:
        return Fairness(dice=0, chi_square=0.0, p_value=1.0)
    expected = dice / 6
    chi = sum((c - expected) ** 2 / expected for c in face_counts)
    return Fairness(dice=dice, chi_square=chi, p_value=chi_square_tail_5(chi))
