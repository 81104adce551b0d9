"""At 0 Health a character is unconscious and every burn ends, and all storing; Pewter's boost
keeps them awake while it holds Health above 0, and Pewter's end at 0 fells them (docs/rulings.md
§9.2, §9.4, §5.5). An unconscious Keeper cannot start storing."""

from typing import Any

import pytest

from rules.character import Resilience, resilience_current
from rules.character.feruchemy import Feruchemy
from rules.errors import RulesError
from rules.powers.burning import knocked_out, stop_burn
from rules.powers.feruchemy import start_storing, store_in_breather
from rules.powers.time import move_time
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


def _hurt(sheet: Any, damage: int) -> Any:
    return sheet.model_copy(update={"damage": sheet.damage.model_copy(update={"health": damage})})


def _storing_twinborn(burning: list[str]) -> Any:
    """Vin, an Allomancer of Tin and Pewter who also stores Copper, burning ``burning``."""
    sheet = allomancer("Tin", "Pewter", rating=3, allomancy={"burning": burning})
    powers = [*(p.model_dump() for p in sheet.powers), {"type": "feruchemy", "name": "Copper", "rating": 3}]
    mind = {"name": "Coppermind", "implement": {"kind": "metalmind", "metal": "Copper", "size": "average"}}
    sheet = sheet.model_validate({**sheet.model_dump(), "powers": powers, "props": [mind]})
    return start_storing(sheet, "Copper")


@pytest.mark.parametrize(
    ("burning", "note"),
    [
        ([], "Vin is knocked out: storing stops."),
        (["Tin"], "Vin is knocked out: every metal stops burning and storing stops."),
    ],
)
def test_storing_ends_at_zero_health_as_burning_does(burning: list[str], note: str) -> None:
    """Storing needs a waking mind (§9.4): knocked out, a Keeper stops storing, burning or not."""
    out = knocked_out(_hurt(_storing_twinborn(burning), HEALTH))
    assert out.character.feruchemy.storing == () and out.character.allomancy.burning == ()
    assert out.notes == (note,)
    awake = knocked_out(_hurt(_storing_twinborn(burning), HEALTH - 1))
    assert awake.character.feruchemy.storing_of("Copper") is not None and awake.notes == ()


def test_pewter_fading_at_zero_health_ends_storing_too() -> None:
    sheet = _hurt(_storing_twinborn(["Pewter"]), HEALTH)
    faded = stop_burn(sheet, "Pewter")
    assert faded.character.feruchemy.storing == ()
    assert faded.notes[0] == "Pewter fades and Vin collapses: no Health left, and storing stops."


@pytest.mark.parametrize(
    "store", [lambda c: start_storing(c, "Copper"), lambda c: store_in_breather(c, "Copper", "long")]
)
def test_an_unconscious_keeper_cannot_store(store: Any) -> None:
    sheet = _hurt(_storing_twinborn([]).model_copy(update={"feruchemy": Feruchemy()}), HEALTH)
    with pytest.raises(RulesError, match=r"unconscious \(0 Health\): storing needs a waking mind"):
        store(sheet)


def test_golds_borrowed_health_fading_to_zero_knocks_them_out() -> None:
    """§9.2, §9.4: the Health tapped from Gold held Vin at 2; as time takes it back she has none,
    and her Tin goes out with her."""
    awake = allomancer(
        "Tin", rating=3, allomancy={"burning": ["Tin"]}, feruchemy={"gold_health": 2, "gold_minutes": 10}
    )
    awake = _hurt(awake, HEALTH)
    assert resilience_current(awake, Resilience.HEALTH) == 2
    assert move_time(awake, 5).character.allomancy.burning == ("Tin",)
    faded = move_time(awake, 10)
    assert faded.character.allomancy.burning == ()
    assert faded.notes[-2:] == (
        "The Health Vin tapped from Gold fades.",
        "Vin is knocked out: every metal stops burning.",
    )
