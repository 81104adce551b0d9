"""Wits 4 or more notices impure metal before drinking it, and the bot says so (docs/rulings.md
§9.2): table-driven over the Wits the sheet rates, the vial's purity."""

from typing import Any

import pytest

from rules.powers.drinking import drink, spots_impurity
from tests.rules.powers.sheets import allomancer

SPOTTED = "spots the impurity before drinking"


def drinker(wits: int, impure: bool, **fields: Any) -> Any:
    vial = {
        "name": "Steel vial",
        "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3, "impure": impure},
    }
    attributes = {"physique": 4, "charm": 4, "wits": wits}
    return allomancer("Steel", attributes=attributes, props=[vial], **fields)


@pytest.mark.parametrize(
    ("wits", "impure", "spotted", "noted"),
    [
        (3, True, False, True),
        (4, True, True, True),
        (7, True, True, True),
        (4, False, True, False),
        (2, False, False, False),
    ],
)
def test_a_sharp_drinker_is_told_of_impure_metal(wits: int, impure: bool, spotted: bool, noted: bool) -> None:
    sheet = drinker(wits, impure)
    assert spots_impurity(sheet) is spotted
    notes = drink(sheet, "Steel vial").notes
    assert any(SPOTTED in n for n in notes) is (spotted and impure)
    assert any("was impure" in n for n in notes) is noted


def test_a_kandras_presence_counts_toward_wits() -> None:
    kandra = drinker(3, True, hemalurgy={"blessings": ["presence"]})
    assert spots_impurity(kandra)
