"""Flared Pewter carries the worst physical Burden a step lighter while flared (docs/rulings.md
§9.3): the dice an opponent claims for it, table-driven."""

from typing import Any

import pytest

from rules.character.parts import Burden
from rules.powers.metal_effects import PEWTER_EASED, pewter_eased_dice
from tests.rules.powers.sheets import allomancer

FLARED = {"burning": ["Pewter"], "flared": ["Pewter"]}


@pytest.mark.parametrize(
    ("allomancy", "burdens", "claimed", "part"),
    [
        (FLARED, [("Wounded (Health)", "grave")], "Wounded (Health)", -1),
        (FLARED, [("Incapacitated", "mortal")], "Incapacitated", -1),
        (FLARED, [("Wounded (Health)", "serious")], "Wounded (Health)", -1),  # to nothing
        (FLARED, [("Wounded (Health)", "serious"), ("Incapacitated", "mortal")], "Wounded (Health)", None),
        (FLARED, [("Wounded (Health)", "serious"), ("Incapacitated", "mortal")], "Incapacitated", -1),
        (FLARED, [("Shamed", "grave")], "Shamed", None),  # not physical
        (FLARED, [("Wounded (Willpower)", "grave")], "Wounded (Willpower)", None),
        ({"burning": ["Pewter"]}, [("Wounded (Health)", "grave")], "Wounded (Health)", None),
        ({}, [("Wounded (Health)", "grave")], "Wounded (Health)", None),
    ],
)
def test_only_the_worst_physical_burden_counts_a_step_lighter(
    allomancy: dict[str, Any], burdens: list[tuple[str, str]], claimed: str, part: int | None
) -> None:
    sheet = allomancer(
        "Pewter", allomancy=allomancy, burdens=[{"name": n, "severity": s} for n, s in burdens]
    )
    burden = next(b for b in sheet.burdens if b.name == claimed)
    assert isinstance(burden, Burden)
    found = pewter_eased_dice(sheet, burden)
    assert found == (None if part is None else (PEWTER_EASED, part))
