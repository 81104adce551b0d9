"""At 0 Health a character is unconscious and every burn ends; Pewter's boost keeps them awake
while it holds Health above 0, and Pewter's end at 0 fells them (docs/rulings.md §9.2, §5.5)."""

from typing import Any

import pytest

from rules.character import Resilience, resilience_current
from rules.powers.burning import knocked_out, stop_burn
from tests.rules.powers.sheets import allomancer

HEALTH = 8  # Physique 4 + Resources 4


@pytest.mark.parametrize(
    ("burning", "damage", "out"),
    [
        (["Tin", "Steel"], HEALTH, True),
        (["Tin", "Steel"], HEALTH - 1, False),
        (["Pewter", "Tin"], HEALTH, False),  # flared Pewter 4 holds Health at 4
        (["Pewter", "Tin"], HEALTH + 4, True),  # the boost spent too
        ([], HEALTH, False),
    ],
)
def test_every_burn_ends_at_zero_health(burning: list[str], damage: int, out: bool) -> None:
    sheet = allomancer(
        "Tin", "Steel", "Pewter", rating=3, allomancy={"burning": burning, "flared": burning[:1]}
    ).model_copy(update={"damage": allomancer("Tin").damage.model_copy(update={"health": damage})})
    done = knocked_out(sheet)
    assert (done.character.allomancy.burning == ()) is (out or not burning)
    assert bool(done.notes) is out
    if out:
        assert done.character.allomancy.flared == () and done.notes[0].endswith("every metal stops burning.")


def test_an_extra_at_zero_is_left_alone() -> None:
    extra: Any = allomancer("Tin", kind="extra", allomancy={"burning": ["Tin"]})
    assert knocked_out(extra).character == extra


def test_pewter_fading_at_zero_health_fells_them_and_ends_the_rest() -> None:
    sheet = allomancer(
        "Pewter",
        "Zinc",
        rating=3,
        allomancy={"burning": ["Pewter", "Zinc"], "hold": {"metal": "Zinc", "dice": 2}},
    )
    sheet = sheet.model_copy(update={"damage": sheet.damage.model_copy(update={"health": HEALTH})})
    assert resilience_current(sheet, Resilience.HEALTH) == 3
    faded = stop_burn(sheet, "Pewter")
    assert faded.character.allomancy.burning == () and faded.character.allomancy.hold is None
    assert faded.notes[0] == "Pewter fades and Vin collapses: no Health left."
