"""Burning, flaring, vials and the Narrator moving time on (docs/rulings.md §9.2)."""

import pytest

from rules.character import Resilience, resilience_current
from rules.character.allomancy import VialForm
from rules.errors import RulesError
from rules.powers.burning import pay_for_conflict, pay_round, set_flare, start_burn, stop_burn
from rules.powers.drinking import drink, poison, refill_vials, set_impure, set_reserve
from rules.powers.ledger import accounted
from rules.powers.time import burn_cost, move_time
from tests.rules.powers.sheets import allomancer, mistborn, with_vial


@pytest.mark.parametrize(
    ("metal", "minutes", "flared", "cost"),
    [
        ("Tin", 60, False, 1),
        ("Tin", 61, False, 2),
        ("Tin", 60, True, 10),
        ("Copper", 40, False, 1),
        ("Bronze", 30, False, 1),
        ("Steel", 20, False, 1),
        ("Iron", 20, True, 10),
        ("Zinc", 60, False, 3),
        ("Brass", 1, False, 1),
        ("Gold", 10, False, 1),
        ("Electrum", 10, True, 10),
        ("Pewter", 5, False, 1),
        ("Pewter", 1, True, 2),
        ("Atium", 1, False, 2),
        ("Aluminum", 600, False, 0),
        ("Duralumin", 5, True, 0),
    ],
)
def test_time_costs_one_charge_per_burn_rate_rounded_up(
    metal: str, minutes: int, flared: bool, cost: int
) -> None:
    assert burn_cost(metal, minutes, flared=flared) == cost


def test_a_misting_vial_gives_three_and_a_mistborn_vial_one_of_each() -> None:
    vin = with_vial(
        mistborn(),
        "Mistborn vial",
        VialForm.VIAL,
        *("Iron", "Steel", "Tin", "Pewter", "Zinc", "Brass", "Copper", "Bronze"),
    )
    drunk = drink(vin, "Mistborn vial")
    assert accounted(vin, drunk)
    assert all(drunk.character.allomancy.charges(m) == 1 for m in ("Iron", "Tin", "Bronze"))
    kelsier = with_vial(allomancer("Steel"), "Steel vial", VialForm.VIAL, "Steel")
    assert drink(kelsier, "Steel vial").character.allomancy.charges("Steel") == 3


def test_a_drunk_vial_cannot_be_drunk_again_until_a_long_breather() -> None:
    vin = with_vial(allomancer("Tin"), "Tin vial", VialForm.VIAL, "Tin")
    drunk = drink(vin, "tin vial").character
    with pytest.raises(RulesError, match="Long Breather"):
        drink(drunk, "Tin vial")
    refilled = refill_vials(drunk)
    assert accounted(drunk, refilled)
    assert drink(refilled.character, "Tin vial").character.allomancy.charges("Tin") == 6


def test_burning_needs_the_power_and_a_charge_when_counted() -> None:
    with pytest.raises(RulesError, match="no Allomantic Steel"):
        start_burn(allomancer("Tin"), "Steel")
    with pytest.raises(RulesError, match="no Tin left"):
        start_burn(allomancer("Tin", reserves={"Tin": 0}), "Tin")
    assert start_burn(allomancer("Tin"), "tin").character.allomancy.burning == ("Tin",)


def test_atium_and_impure_metal_never_flare() -> None:
    with pytest.raises(RulesError, match="cannot be flared"):
        start_burn(allomancer("Atium", reserves={"Atium": 2}), "Atium", flared=True)
    impure = set_impure(allomancer("Steel", reserves={"Steel": 3}), "Steel", True)
    burning = start_burn(impure, "Steel").character
    with pytest.raises(RulesError, match="impure"):
        set_flare(burning, "Steel", True)


def test_a_conflict_charges_a_burn_once_and_each_flared_round_once_more() -> None:
    coinshot = allomancer("Steel", "Atium", reserves={"Steel": 2, "Atium": 1})
    lit = start_burn(start_burn(coinshot, "Steel", flared=True).character, "Atium").character
    paid = pay_for_conflict(lit, "Steel")
    assert paid.character.allomancy.charges("Steel") == 1
    round_two = pay_round(paid.character)
    assert accounted(paid.character, round_two)
    assert round_two.character.allomancy.charges("Steel") == 0
    assert round_two.character.allomancy.charges("Atium") == 0
    round_three = pay_round(round_two.character)
    assert "Atium" in round_three.ended
    assert "Steel" not in round_three.character.allomancy.flared
    assert "Steel" in round_three.character.allomancy.burning


def test_running_dry_ends_the_burn_and_pewter_collapses() -> None:
    thug = allomancer("Pewter", reserves={"Pewter": 1})
    lit = start_burn(thug, "Pewter").character
    lit = lit.model_copy(update={"damage": lit.damage.with_value(Resilience.HEALTH, 10)})
    assert resilience_current(lit, Resilience.HEALTH) > 0
    later = move_time(lit, 10)
    assert later.ended == ("Pewter",)
    assert later.character.allomancy.burning == ()
    assert any("collapses" in note for note in later.notes)
    assert accounted(lit, later)


def test_an_uncounted_sheet_burns_for_nothing() -> None:
    lit = start_burn(allomancer("Tin"), "Tin").character
    assert move_time(lit, 600).character.allomancy.burning == ("Tin",)


def test_the_narrator_sets_poisons_and_ends_burns() -> None:
    lit = start_burn(allomancer("Iron", reserves={"Iron": 3}), "Iron").character
    emptied = set_reserve(lit, "Iron", 0)
    assert emptied.ended == ("Iron",)
    poisoned = poison(allomancer("Tin", reserves={"Tin": 2}), "Tin")
    assert poisoned.character.damage.health == 2
    assert poisoned.character.allomancy.charges("Tin") == 0


def test_unburnt_metal_warns_at_eight_hours() -> None:
    held = allomancer("Tin", reserves={"Tin": 2})
    assert not move_time(held, 7 * 60).notes
    assert any("poisons" in n for n in move_time(move_time(held, 7 * 60).character, 60).notes)


def test_stopping_a_metal_not_burning_is_an_error() -> None:
    with pytest.raises(RulesError, match="not burning"):
        stop_burn(allomancer("Tin"), "Tin")
