"""Savants, Blessings and spikes an earlier purchase wrote as words move to their fields where the
words name one thing, keeping every figure the table reads (docs/rulings.md §10.1); other words
stay as they were."""

from typing import Any

import pytest

from rules.character import Character, CharacterKind, make_character, rating_for
from rules.character.hemalurgy import Blessing, Spike
from rules.character.sheet_upgrade import structured_gifts

FIGURES = ("Physique", "Charm", "Wits", "Resources", "Influence", "Spirit")


def older(*powers: tuple[str, str, int, tuple[str, ...]], charm: int = 3, spirit: int = 4) -> Character:
    return make_character(
        name="Marsh",
        kind=CharacterKind.HERO,
        owner_id=1,
        attributes={"physique": 4, "charm": charm, "wits": 4},
        standings={"resources": 3, "influence": 3, "spirit": spirit},
        powers=[{"type": t, "name": n, "rating": r, "stunts": s} for t, n, r, s in powers],
    )


def upgraded(sheet: Character) -> Character:
    return Character.model_validate(structured_gifts(sheet.model_dump(mode="json")))


@pytest.mark.parametrize(
    ("powers", "savants", "blessings", "spikes", "left"),
    [
        ([("allomancy", "Tin", 7, ("Savant", "Focused Sense"))], ("Tin",), (), (), ["Focused Sense"]),
        ([("allomancy", "Tin", 7, ("tin savant",))], ("Tin",), (), (), []),
        ([("allomancy", "Tin", 7, ("Savant of Tin",))], ("Tin",), (), (), []),
        ([("allomancy", "Tin", 7, ("Savant of Steel",))], (), (), (), ["Savant of Steel"]),
        (
            [("kandra", "Mimicry", 5, ("Blessing of Potency", "Stability Blessing", "Sly"))],
            (),
            (Blessing.POTENCY, Blessing.STABILITY),
            (),
            ["Sly"],
        ),
        ([("kandra", "Mimicry", 5, ("Blessed",))], (), (), (), ["Blessed"]),
        ([("hemalurgy", "Iron spike", 2, ())], (), (), (Spike(metal="Iron", rating=2),), []),
        ([("hemalurgy", "copper SPIKE", 3, ())], (), (), (Spike(metal="Copper", rating=3),), []),
    ],
)
def test_words_that_name_one_gift_become_that_gift(
    powers: list[Any], savants: tuple[str, ...], blessings: tuple[Blessing, ...], spikes: Any, left: list[str]
) -> None:
    sheet = upgraded(older(*powers))
    assert sheet.allomancy.savants == savants
    assert sheet.hemalurgy.blessings == blessings and sheet.hemalurgy.spikes == spikes
    assert [s for p in sheet.powers for s in p.stunts] == left


@pytest.mark.parametrize(
    "power",
    [
        ("hemalurgy", "Steel spike", 4, ()),  # which Power it stole is not said
        ("hemalurgy", "Iron spikes", 5, ()),  # how many is not said
        ("hemalurgy", "Iron spike", 2, ("Prodigious Strength",)),  # its Stunt would have no home
        ("hemalurgy", "Brass spike", 4, ()),
        ("hemalurgy", "Gold spike", 4, ()),  # not a spike the purchase sold
        ("hemalurgy", "Iron spike", 1, ()),  # no spike is rated 1
        ("hemalurgy", "Soulcatcher", 4, ()),
    ],
)
def test_ambiguous_words_stay_as_they_were(power: Any) -> None:
    sheet = older(power)
    assert upgraded(sheet) == sheet


def test_a_spikes_price_goes_back_to_the_ratings_so_the_figures_read_the_same() -> None:
    sheet = older(("hemalurgy", "Iron spike", 2, ()), ("hemalurgy", "Zinc spike", 2, ()), charm=2, spirit=3)
    after = upgraded(sheet)
    assert after.attributes.charm == 4 and after.standings.spirit == 4
    assert [rating_for(after, f) for f in FIGURES] == [rating_for(sheet, f) for f in FIGURES]
    assert after.powers == () and [s.metal for s in after.hemalurgy.spikes] == ["Iron", "Zinc"]


def test_a_spike_whose_price_the_ratings_cannot_take_back_stays_words() -> None:
    sheet = older(("hemalurgy", "Iron spike", 2, ()), charm=10)
    assert upgraded(sheet) == sheet


def test_a_sheet_with_nothing_in_words_is_unchanged_and_the_step_leaves_odd_json_alone() -> None:
    sheet = older(("allomancy", "Tin", 5, ("Focused Sense",)))
    assert upgraded(sheet) == sheet
    assert structured_gifts({"powers": "damaged"}) == {"powers": "damaged"}
