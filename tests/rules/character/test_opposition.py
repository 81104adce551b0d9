"""Quick opposition from templates (docs/rulings.md §6.11): whole sheets, our example numbers,
and whatever the Narrator gives replaces the template's."""

import pytest

from rules.character import BASIC_METALS, Attribute, CharacterKind, Standing, pewter_rating, resilience_max
from rules.character.allomancy import Vial
from rules.character.feruchemy import Metalmind
from rules.character.hemalurgy import Spike
from rules.character.metals import Task
from rules.character.opposition import STEWARD_MEMORIES, TEMPLATES, Opposition, opposition_character
from rules.character.stats import rating_for, rating_parts
from rules.errors import RulesError
from rules.powers.burning import pay_for_conflict
from rules.powers.feruchemy import TapUse, start_storing, tap, tap_effect
from rules.powers.hemalurgy import ruin_notes, spike_dice


@pytest.mark.parametrize("template", list(Opposition))
def test_every_template_makes_a_valid_sheet_of_its_kind(template: Opposition) -> None:
    made = opposition_character(template, name="Foe", owner_id=3)
    assert made.kind is TEMPLATES[template].kind is not CharacterKind.HERO
    assert made.concept and made.owner_id == 3


def test_the_example_numbers() -> None:
    thug = opposition_character(Opposition.THUG, name="Thug", owner_id=3)
    assert (thug.kind, thug.size, thug.attributes.physique, thug.props[0].weapon) == (
        CharacterKind.EXTRA,
        1,
        4,
        1,
    )
    guards = opposition_character(Opposition.GUARDS, name="Guards", owner_id=3, size=6)
    assert guards.size == 6 and [p.name for p in guards.props] == ["Spear", "Leather jerkin"]
    obligator = opposition_character(Opposition.OBLIGATOR, name="Obligator", owner_id=3)
    assert [p.name for p in obligator.powers] == ["Bronze"] and obligator.standings.influence == 6
    inquisitor = opposition_character(Opposition.INQUISITOR, name="Inquisitor", owner_id=3)
    assert len(inquisitor.powers) == 8 and pewter_rating(inquisitor) == 6
    assert rating_parts(inquisitor, "Steel").total == 11  # the Steel spike adds its 5 (§9.5)
    assert resilience_max(inquisitor, "health", burning_pewter=True) == 18
    kandra = opposition_character(Opposition.KANDRA, name="TenSoon", owner_id=3)
    assert rating_parts(kandra, "Physique").parts == (("Potency", 2),)  # its Blessing bites (§9.6)


def test_a_koloss_bears_four_iron_spikes_that_bite_as_driven_ones_do() -> None:
    """§9.5: four Iron spikes, +5 dice on strength, their Charm and Spirit taken once where read."""
    koloss = opposition_character(Opposition.KOLOSS, name="Koloss", owner_id=3)
    assert koloss.powers == () and koloss.hemalurgy.spikes == (Spike(metal="Iron"),) * 4
    assert spike_dice(koloss, Task.STRENGTH) == [("Iron spikes", 5)]
    assert [rating_for(koloss, s) for s in ("Physique", "Charm", "Wits", "Spirit")] == [7, 1, 1, 2]
    assert not ruin_notes(koloss)


def test_given_numbers_win_over_the_template() -> None:
    thug = opposition_character(
        Opposition.THUG,
        name="Big thug",
        owner_id=3,
        concept="The biggest one",
        ratings={Attribute.PHYSIQUE: 6, Standing.SPIRIT: 5},
    )
    assert (thug.concept, thug.attributes.physique, thug.standings.spirit) == ("The biggest one", 6, 5)
    with pytest.raises(RulesError, match="Only Extras come in groups"):
        opposition_character(Opposition.INQUISITOR, name="Twins", owner_id=3, size=2)


@pytest.mark.parametrize(
    ("template", "metal", "burning"),
    [
        (Opposition.COINSHOT, "Steel", False),
        (Opposition.LURCHER, "Iron", False),
        (Opposition.SOOTHER, "Brass", False),
        (Opposition.TINEYE, "Tin", True),
        (Opposition.PEWTERARM, "Pewter", True),
    ],
)
def test_a_mistings_template_carries_its_metal(template: Opposition, metal: str, burning: bool) -> None:
    misting = opposition_character(template, name="Misting", owner_id=3)
    assert [p.name for p in misting.powers] == [metal]
    assert misting.allomancy.tracked and misting.allomancy.charges(metal) == 3
    assert (metal in misting.allomancy.burning) is burning
    assert any(p.implement is not None and p.name == f"{metal} vial" for p in misting.props)


def test_the_stewards_copper_bracers_are_a_metalmind_to_store_into_and_tap() -> None:
    """§6.11, §9.4: the bracers hold memories, so the steward taps and stores Copper."""
    steward = opposition_character(Opposition.STEWARD, name="Tindwyl", owner_id=3)
    [bracers] = [p.implement for p in steward.props if p.name == "Copper bracers"]
    assert isinstance(bracers, Metalmind) and (bracers.metal, bracers.charges) == ("Copper", STEWARD_MEMORIES)
    tapped = tap(steward, tap_effect(steward, "Copper", 10, TapUse.EFFECT))
    assert [(m.prop, m.delta) for m in tapped.moves] == [("Copper bracers", -10)]
    assert start_storing(steward, "Copper").feruchemy.storing_of("Copper") is not None


@pytest.mark.parametrize(
    ("template", "vial", "held"),
    [
        (Opposition.OBLIGATOR, "Bronze vial", {"Bronze": 3}),
        (Opposition.INQUISITOR, "Mistborn vial", dict.fromkeys(BASIC_METALS, 1)),
    ],
)
def test_the_ministrys_allomancers_pay_for_their_metal(
    template: Opposition, vial: str, held: dict[str, int]
) -> None:
    """§9.2, §9.8: reserves counted, as the Mistings' templates hold theirs, and a vial carried;
    the Obligator a Seeker's one vial drunk, the Inquisitor a Mistborn's."""
    made = opposition_character(template, name="Foe", owner_id=3)
    assert made.allomancy.tracked and {r.metal: r.charges for r in made.allomancy.reserves} == held
    assert any(isinstance(p.implement, Vial) and p.name == vial for p in made.props)
    metal = next(iter(held))
    paid = pay_for_conflict(made, metal)
    assert paid.character.allomancy.charges(metal) == held[metal] - 1
