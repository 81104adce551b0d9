"""What a new Hero may be made of (docs/rulings.md §6.3, §6.4, §6.10): the builder's splits are
exactly what the Hero-build check accepts, and the templates are the rulings' numbers."""

from itertools import permutations, product

import pytest

from rules.character import BuildLabels, Emphasis, PowerType, check_hero_build, make_character
from rules.character.creation import (
    MISTING_METALS,
    PowerTemplate,
    Split,
    attribute_splits,
    prop_line,
    read_prop,
    read_props,
    standing_splits,
    template_implements,
    template_powers,
)
from rules.character.names import BASIC_METALS
from rules.errors import RulesError

LABELS = [BuildLabels(attributes=a, standings=s, powers=p) for a, s, p in permutations(list(Emphasis))]


def check_accepts(labels: BuildLabels, attributes: Split, standings: Split) -> list[str]:
    hero = make_character(
        name="Hero",
        kind="hero",
        owner_id=1,
        attributes=dict(zip(("physique", "charm", "wits"), attributes, strict=True)),
        standings=dict(zip(("resources", "influence", "spirit"), standings, strict=True)),
        build=labels.model_dump(),
    )
    return check_hero_build(hero)


@pytest.mark.parametrize("labels", LABELS, ids=lambda labels: f"{labels.attributes}-{labels.standings}")
def test_offered_splits_are_exactly_what_the_build_check_accepts(labels: BuildLabels) -> None:
    """Every rating from 1 to 10 (2 to 10 for Standings) is tried: a triple is offered if and
    only if the build check finds nothing wrong with it, so no wrong sheet can be chosen."""
    good_standings = standing_splits(labels.standings)[0]
    good_attributes = attribute_splits(labels.attributes)[0]
    offered_attributes = set(attribute_splits(labels.attributes))
    ratings = range(1, 11)
    for triple in product(ratings, ratings, ratings):
        accepted = not check_accepts(labels, triple, good_standings)
        assert accepted == (triple in offered_attributes), triple
    offered_standings = set(standing_splits(labels.standings))
    for triple in product(ratings[1:], ratings[1:], ratings[1:]):
        accepted = not check_accepts(labels, good_attributes, triple)
        assert accepted == (triple in offered_standings), triple


@pytest.mark.parametrize(
    ("emphasis", "attributes", "standings"),
    [(Emphasis.STRONG, 18, 33), (Emphasis.AVERAGE, 12, 18), (Emphasis.WEAK, 7, 7)],
)
def test_how_many_splits_each_label_offers(emphasis: Emphasis, attributes: int, standings: int) -> None:
    assert len(attribute_splits(emphasis)) == attributes
    assert len(standing_splits(emphasis)) == standings
    assert attribute_splits(emphasis) == sorted(attribute_splits(emphasis), reverse=True)


def test_templates_follow_the_rulings() -> None:
    mistborn = template_powers(PowerTemplate.MISTBORN)
    assert [(p.type, p.name, p.rating) for p in mistborn] == [
        (PowerType.ALLOMANCY, m, 4) for m in BASIC_METALS
    ]
    keeper = template_powers(PowerTemplate.KEEPER)
    assert [(p.type, p.name, p.rating) for p in keeper] == [(PowerType.FERUCHEMY, m, 3) for m in BASIC_METALS]
    (seer,) = template_powers(PowerTemplate.MISTING, "atium")
    assert (seer.type, seer.name, seer.rating) == (PowerType.ALLOMANCY, "Atium", 5)
    assert template_powers(PowerTemplate.NONE) == ()
    assert len(MISTING_METALS) == 17 and "Lerasium" not in MISTING_METALS
    with pytest.raises(RulesError, match="A Misting burns one of"):
        template_powers(PowerTemplate.MISTING, "Lerasium")


@pytest.mark.parametrize(
    ("line", "name", "weapon", "armour"),
    [
        ("Dueling cane (weapon 1)", "Dueling cane", 1, None),
        ("Mail (armor 2)", "Mail", None, 2),
        ("Shield (Weapon +1, Armour 1)", "Shield", 1, 1),
        ("Coins (a pouch)", "Coins (a pouch)", None, None),
        ("  Mistcloak  ", "Mistcloak", None, None),
    ],
)
def test_props_are_read_one_per_line(line: str, name: str, weapon: int | None, armour: int | None) -> None:
    prop = read_prop(line)
    assert (prop.name, prop.weapon, prop.armour) == (name, weapon, armour)
    assert read_prop(prop_line(prop)) == prop


def test_props_refused_past_resources_or_out_of_range() -> None:
    assert len(read_props("Knife\n\nRope\n", most=2)) == 2
    with pytest.raises(RulesError, match="That is 3 Props; a new Hero has at most 2"):
        read_props("Knife\nRope\nLantern", most=2)
    with pytest.raises(RulesError, match="weapon bonus of Sword must be between 0 and 4"):
        read_prop("Sword (weapon 7)")


@pytest.mark.parametrize(
    ("template", "metal", "names"),
    [
        (PowerTemplate.MISTBORN, None, ["Mistborn vial"]),
        (PowerTemplate.MISTING, "tin", ["Tin vial"]),
        (PowerTemplate.KEEPER, None, ["Pewtermind", "Steelmind", "Tinmind"]),
        (PowerTemplate.NONE, None, []),
    ],
)
def test_each_power_template_starts_with_its_implements(
    template: PowerTemplate, metal: str | None, names: list[str]
) -> None:
    """docs/rulings.md §9.8: a Misting's vial holds 3, a Mistborn's 1 of each; minds start empty."""
    found = template_implements(template, metal)
    assert [p.name for p in found] == names
    charges = [(p.implement.kind, p.implement.charges) for p in found if p.implement is not None]
    expected = {PowerTemplate.MISTBORN: [("vial", 1)], PowerTemplate.MISTING: [("vial", 3)]}
    assert charges == expected.get(template, [("metalmind", 0)] * len(names))
