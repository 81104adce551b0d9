"""A spike that steals a Power the sheet lacks lists it, so it takes Stunts; its rating is the
spike's, counted once, it never rises, and it goes with the last spike that gives it
(docs/rulings.md §9.5, §10.1)."""

import pytest

from rules.character import Character, CharacterKind, make_character, rating_for
from rules.character.checked import revise_character
from rules.character.hemalurgy import Spike
from rules.character.names import PowerType
from rules.character.parts import Power
from rules.character.power_gifts import with_spike, without_spike
from rules.character.power_stats import allomantic_rating
from rules.character.purchase_table import Purchase, PurchaseKind
from rules.character.purchases import buy, offers
from rules.character.sheet_upgrade import structured_gifts
from rules.errors import RulesError
from rules.powers.feruchemy import feruchemy_rating


def marsh(*powers: tuple[str, str, int]) -> Character:
    return make_character(
        name="Marsh",
        kind=CharacterKind.HERO,
        owner_id=1,
        attributes={"physique": 4, "charm": 4, "wits": 4},
        standings={"resources": 4, "influence": 4, "spirit": 6},
        powers=[{"type": t, "name": n, "rating": r} for t, n, r in powers],
        advancements={"held": 20, "earned": 20, "spend_open": True},
    )


def test_a_stolen_power_the_sheet_lacks_is_listed_at_the_spikes_rating_counted_once() -> None:
    spiked = with_spike(marsh(), Spike(metal="Steel", power="Iron", rating=5))
    assert spiked.powers == (Power(type=PowerType.ALLOMANCY, name="Iron", rating=5, from_spike=True),)
    assert rating_for(spiked, "Iron") == 5 and allomantic_rating(spiked, "Iron") == 5
    twice = with_spike(spiked, Spike(metal="Steel", power="Iron", rating=3))
    assert [p.rating for p in twice.powers] == [5] and rating_for(twice, "Iron") == 8
    assert allomantic_rating(twice, "Iron") == 8


def test_a_stolen_power_already_held_adds_its_rating_and_lists_nothing() -> None:
    spiked = with_spike(marsh(("allomancy", "Iron", 4)), Spike(metal="Steel", power="Iron", rating=5))
    assert [(p.name, p.rating, p.from_spike) for p in spiked.powers] == [("Iron", 4, False)]
    assert rating_for(spiked, "Iron") == 9


def test_a_feruchemical_power_from_a_spike_is_listed_too() -> None:
    spiked = with_spike(marsh(), Spike(metal="Pewter", power="Steel", rating=4))
    assert spiked.powers == (Power(type=PowerType.FERUCHEMY, name="Steel", rating=4, from_spike=True),)
    assert feruchemy_rating(spiked, "Steel") == 4


def test_removing_the_spikes_takes_the_listed_power_with_its_stunts() -> None:
    one = with_spike(marsh(), Spike(metal="Steel", power="Iron", rating=5))
    one = revise_character(one, powers=(one.powers[0].model_copy(update={"stunts": ("Long Range",)}),))
    two = with_spike(one, Spike(metal="Steel", power="Iron", rating=3))
    left = without_spike(two, 0)
    assert [(p.rating, p.stunts) for p in left.powers] == [(3, ("Long Range",))]
    assert without_spike(left, 0).powers == ()


def test_a_spikes_power_never_rises() -> None:
    spiked = with_spike(marsh(), Spike(metal="Steel", power="Iron", rating=5))
    with pytest.raises(RulesError, match="a spike's rating never changes"):
        revise_character(spiked, powers=(spiked.powers[0].model_copy(update={"rating": 6}),))
    assert not [o for o in offers(spiked, frozenset()) if o.rule.kind is PurchaseKind.POWER]
    with pytest.raises(RulesError, match="not on offer"):
        buy(spiked, Purchase(kind=PurchaseKind.POWER, target="0"))
    with pytest.raises(RulesError, match="no longer bears"):
        revise_character(marsh(), powers=spiked.powers)


def test_a_bought_spikes_power_takes_a_stunt_from_its_metals_catalogue() -> None:
    spiked = buy(marsh(), Purchase(kind=PurchaseKind.SPIKE, target="Steel:Iron", rating=5))
    stunt_targets = [o for o in offers(spiked, frozenset()) if o.rule.kind is PurchaseKind.STUNT]
    assert [t.label for o in stunt_targets for t in o.targets] == ["Iron (Allomancy)"]


def test_sheets_stored_with_a_stealing_spike_get_its_power_listed_on_upgrade() -> None:
    older = marsh().model_dump(mode="json") | {
        "hemalurgy": {"spikes": [{"metal": "Bronze", "power": "Zinc", "rating": 4}]}
    }
    upgraded = Character.model_validate(structured_gifts(older))
    assert upgraded.powers == (Power(type=PowerType.ALLOMANCY, name="Zinc", rating=4, from_spike=True),)
    assert rating_for(upgraded, "Zinc") == 4
