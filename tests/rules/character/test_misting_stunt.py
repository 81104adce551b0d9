"""A Misting starts with one Stunt of its metal's catalogue, optional (docs/rulings.md §9.7)."""

import pytest

from rules.character import check_hero_build
from rules.character.creation import PowerTemplate, misting_stunts, template_powers
from rules.character.draft import power_choice, to_character, with_powers, with_stunt
from rules.errors import RulesError
from tests.rules.character.test_draft import complete


@pytest.mark.parametrize(
    ("metal", "offered"),
    [
        ("Pewter", ("Denser Tissues", "Prodigious Strength", "Extreme Speed")),
        ("Iron", ("Increased Velocity", "Multiple Targets", "Long Range", "Reflect Ranged Attack",
                  "Improved Redirection")),
        ("Tin", ("Focused Sense",)),
        ("Brass", ("Focused Emotion", "Tug/Push Emotion", "Affect Crowd")),
        ("Gold", ()),
    ],
)  # fmt: skip
def test_a_misting_is_offered_its_metals_stunts(metal: str, offered: tuple[str, ...]) -> None:
    assert misting_stunts(metal) == offered


@pytest.mark.parametrize(
    ("template", "metal", "stunt", "expected"),
    [
        (PowerTemplate.MISTING, "Steel", None, ()),
        (PowerTemplate.MISTING, "Steel", "long range", ("Long Range",)),
        (PowerTemplate.MISTING, "Tin", "Focused Sense", ("Focused Sense",)),
        (PowerTemplate.MISTING, "Tin", "Long Range", "starts with one of Focused Sense"),
        (PowerTemplate.MISTING, "Gold", "Long Range", "the catalogue has no Stunt"),
        (PowerTemplate.MISTBORN, None, "Long Range", "Only a Misting"),
        (PowerTemplate.KEEPER, None, "Denser Tissues", "Only a Misting"),
    ],
)
def test_template_powers_take_a_mistings_stunt(
    template: PowerTemplate, metal: str | None, stunt: str | None, expected: tuple[str, ...] | str
) -> None:
    if isinstance(expected, str):
        with pytest.raises(RulesError, match=expected):
            template_powers(template, metal, stunt)
        return
    (power,) = template_powers(template, metal, stunt)
    assert power.stunts == expected


@pytest.mark.parametrize(
    ("metal", "stunt", "kept"),
    [
        ("Pewter", "Denser Tissues", "Denser Tissues"),
        ("Pewter", None, None),
        ("Zinc", "affect crowd", "Affect Crowd"),
    ],
)
def test_a_drafts_misting_stunt_reaches_the_sheet(metal: str, stunt: str | None, kept: str | None) -> None:
    draft = with_stunt(complete(PowerTemplate.MISTING, metal), stunt)
    assert draft.powers is not None and draft.powers.stunt == kept
    hero = to_character(draft)
    assert hero.powers[0].stunts == ((kept,) if kept else ())
    assert check_hero_build(hero) == [], "a starting Stunt is no Advancement"


def test_the_stunt_stays_with_its_metal_and_goes_with_another() -> None:
    draft = with_stunt(complete(PowerTemplate.MISTING, "Pewter"), "Extreme Speed")
    again = with_powers(draft, power_choice(PowerTemplate.MISTING, "Pewter"))
    assert again.powers is not None and again.powers.stunt == "Extreme Speed"
    other = with_powers(draft, power_choice(PowerTemplate.MISTING, "Tin"))
    assert other.powers is not None and other.powers.stunt is None


@pytest.mark.parametrize(
    ("template", "metal", "stunt", "match"),
    [
        (PowerTemplate.MISTBORN, None, "Denser Tissues", "Only a Misting"),
        (PowerTemplate.MISTING, "Pewter", "Focused Sense", "starts with one of"),
        (PowerTemplate.MISTING, "Pewter", "Eats glass", "starts with one of"),
    ],
)
def test_with_stunt_refuses_what_a_new_misting_cannot_start_with(
    template: PowerTemplate, metal: str | None, stunt: str, match: str
) -> None:
    with pytest.raises(RulesError, match=match):
        with_stunt(complete(template, metal), stunt)
