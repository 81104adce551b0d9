"""The optional Hero-build check (docs/rulings.md §6)."""

from typing import Any

import pytest
from hypothesis import given

from rules.character import Character, CharacterKind, check_hero_build, make_character
from tests.rules.character.test_strategies import characters


def hero(attributes: tuple[int, int, int], standings: tuple[int, int, int], **fields: Any) -> Character:
    physique, charm, wits = attributes
    resources, influence, spirit = standings
    base: dict[str, Any] = {"name": "Hero", "kind": "hero", "owner_id": 1}
    return make_character(
        base,
        attributes={"physique": physique, "charm": charm, "wits": wits},
        standings={"resources": resources, "influence": influence, "spirit": spirit},
        **fields,
    )


STRONG_AVERAGE_WEAK = {"attributes": "strong", "standings": "average", "powers": "weak"}


@pytest.mark.parametrize(
    ("attributes", "standings", "labels", "problems"),
    [
        # Strong Attributes 13 (max 6), average Standings 11 (max 6).
        ((6, 4, 3), (6, 3, 2), STRONG_AVERAGE_WEAK, []),
        ((5, 4, 4), (6, 3, 2), STRONG_AVERAGE_WEAK, []),
        (
            (6, 4, 4),
            (6, 3, 2),
            STRONG_AVERAGE_WEAK,
            ["Strong Attributes share 13 points; these add up to 14."],
        ),
        ((7, 4, 2), (6, 3, 2), STRONG_AVERAGE_WEAK, ["A Hero's Physique runs from 2 to 6; it is 7."]),
        ((6, 6, 1), (6, 3, 2), STRONG_AVERAGE_WEAK, ["A Hero's Wits runs from 2 to 6; it is 1."]),
        (
            (6, 4, 3),
            (7, 2, 2),
            STRONG_AVERAGE_WEAK,
            ["Resources 7 is above 6, the most for average Standings."],
        ),
        # Weak Attributes 9 (max 4), strong Standings 13 (max 8).
        ((4, 3, 2), (8, 3, 2), {"attributes": "weak", "standings": "strong", "powers": "average"}, []),
        (
            (5, 2, 2),
            (8, 3, 2),
            {"attributes": "weak", "standings": "strong", "powers": "average"},
            ["Physique 5 is above 4, the most for weak Attributes."],
        ),
        # Average Attributes 11 (max 5), weak Standings 9 (max 4).
        ((5, 3, 3), (4, 3, 2), {"attributes": "average", "standings": "weak", "powers": "strong"}, []),
        (
            (6, 3, 2),
            (5, 2, 2),
            {"attributes": "average", "standings": "weak", "powers": "strong"},
            [
                "Physique 6 is above 5, the most for average Attributes.",
                "Resources 5 is above 4, the most for weak Standings.",
            ],
        ),
        # No labels: the closest fit is found, silently when one fits.
        ((4, 3, 2), (8, 3, 2), None, []),
        ((5, 3, 3), (6, 5, 2), None, []),
        (
            (6, 6, 6),
            (8, 3, 2),
            None,
            [
                "No strong / average / weak labels are set; judged as strong Attributes and average "
                "Standings, the closest fit.",
                "Strong Attributes share 13 points; these add up to 18.",
                "Average Standings share 11 points; these add up to 13.",
                "Resources 8 is above 6, the most for average Standings.",
            ],
        ),
    ],
)
def test_check_hero_build(
    attributes: tuple[int, int, int],
    standings: tuple[int, int, int],
    labels: dict[str, str] | None,
    problems: list[str],
) -> None:
    assert check_hero_build(hero(attributes, standings, build=labels)) == problems


@pytest.mark.parametrize(
    ("props", "resources", "ok"), [(3, 3, True), (4, 3, False), (0, 2, True), (8, 8, True)]
)
def test_no_more_props_than_resources(props: int, resources: int, ok: bool) -> None:
    character = hero((6, 4, 3), (6, 3, 2), build=STRONG_AVERAGE_WEAK)
    standings = character.standings.model_copy(update={"resources": resources})
    items = [{"name": f"Prop {i}"} for i in range(props)]
    character = make_character(character.model_dump(), props=items, standings=standings.model_dump())
    problems = [p for p in check_hero_build(character) if "Props" in p]
    assert problems == ([] if ok else [f"{props} Props is more than Resources {resources} allows."])


@given(characters(kind=CharacterKind.VILLAIN))
def test_villains_are_never_judged(character: Character) -> None:
    assert check_hero_build(character) == []


@given(characters())
def test_the_check_never_raises(character: Character) -> None:
    assert all(isinstance(p, str) and p for p in check_hero_build(character))


def test_a_powers_implements_do_not_count_against_resources() -> None:
    """docs/rulings.md §9.8: a Keeper's three metalminds come with the Power."""
    minds = [
        {"name": f"{m}mind", "implement": {"kind": "metalmind", "metal": m}}
        for m in ("Pewter", "Steel", "Tin")
    ]
    keeper = make_character(
        name="Sazed",
        kind="hero",
        owner_id=1,
        attributes={"physique": 3, "charm": 4, "wits": 6},
        standings={"resources": 2, "influence": 4, "spirit": 5},
        props=[{"name": "Staff"}, {"name": "Robes"}, *minds],
    )
    assert not [p for p in check_hero_build(keeper) if "Props" in p]
    crowded = keeper.model_copy(
        update={"props": (*keeper.props, keeper.props[0].model_copy(update={"name": "Book"}))}
    )
    assert "3 Props is more than Resources 2 allows." in check_hero_build(crowded)
