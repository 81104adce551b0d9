"""The character sheet model: defaults, checks and text bounds (docs/rulings.md §6)."""

from typing import Any

import pytest
from hypothesis import given
from pydantic import ValidationError

from rules.burdens import Severity
from rules.character import (
    Character,
    CharacterKind,
    Harm,
    Power,
    PowerType,
    make_character,
    revise_character,
    sheet_sections,
    user_text_length,
)
from rules.character import limits as lim
from rules.character.text_budget import section_lengths
from rules.errors import RulesError
from tests.rules.character.test_strategies import characters

VIN: dict[str, Any] = {"name": "Vin", "kind": "hero", "owner_id": 1}


def test_contract_bare_character_is_valid_with_defaults() -> None:
    vin = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
    assert (vin.name, vin.kind, vin.owner_id) == ("Vin", CharacterKind.HERO, 1)
    assert (vin.attributes.physique, vin.attributes.charm, vin.attributes.wits) == (2, 2, 2)
    assert (vin.standings.resources, vin.standings.influence, vin.standings.spirit) == (2, 2, 2)
    assert vin.damage == Harm()
    assert vin.size == 1 and vin.burdens == () and vin.powers == ()
    assert Character.model_validate_json(vin.model_dump_json()) == vin


@pytest.mark.parametrize(("kind", "value"), [(k, k.value) for k in CharacterKind])
def test_kinds_are_string_enums(kind: CharacterKind, value: str) -> None:
    assert kind == value
    assert Character(name="X", kind=value, owner_id=5).kind is kind


def test_characters_are_frozen() -> None:
    vin = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
    with pytest.raises(ValidationError):
        vin.name = "Kelsier"


def test_names_are_trimmed_and_metals_spelled_properly() -> None:
    vin = make_character(VIN, name="  Vin  ", powers=[{"type": "allomancy", "name": " steel ", "rating": 5}])
    assert vin.name == "Vin"
    assert vin.powers[0].name == "Steel"
    aluminium = make_character(VIN, powers=[{"type": "feruchemy", "name": "Aluminium", "rating": 3}])
    assert aluminium.powers[0].name == "Aluminum"


def test_notes_keep_line_breaks_and_normalise_windows_ones() -> None:
    vin = make_character(VIN, notes="one\r\ntwo\n")
    assert vin.notes == "one\ntwo"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "   "}, "The name cannot be empty."),
        ({"name": "V" * 65}, "at most 64 characters"),
        ({"name": "Vin\nKelsier"}, "line breaks"),
        ({"name": "Vin\u2028Kel"}, "line breaks"),
        ({"concept": "x" * 121}, "The concept is too long"),
        ({"notes": "a\x00b"}, "control characters"),
        ({"kind": "heroine"}, "'kind' must be one of"),
        ({"owner_id": -1}, "Discord user id"),
        ({"owner_id": 2**63}, "Discord user id"),
        ({"owner_id": "12"}, "'owner_id' must be a whole number"),
        ({"attributes": {"physique": 0}}, "Physique must be between 1 and 10; 0 is out of range."),
        ({"attributes": {"wits": 11}}, "Wits must be between 1 and 10"),
        ({"attributes": {"charm": True}}, "whole number"),
        ({"attributes": {"charm": 2.0}}, "whole number"),
        ({"standings": {"resources": 1}}, "Resources must be between 2 and 10"),
        ({"standings": {"spirit": 11}}, "Spirit must be between 2 and 10"),
        ({"spent": {"influence": 2}}, "Influence 2 cannot have 2 spent"),
        ({"damage": {"health": -1}}, "Health damage must be between 0 and 30"),
        ({"damage": {"willpower": 31}}, "Willpower damage must be between 0 and 30"),
        ({"size": 2}, "Only Extras come in groups"),
        ({"members_down": 1}, "Only Extras come in groups"),
        ({"kind": "extra", "destiny": "To rule"}, "Extras have no Destiny or Tragedy."),
        ({"kind": "extra", "tragedy": "Lost all"}, "Extras have no Destiny or Tragedy."),
        ({"kind": "extra", "damage": {"health": 1}}, "Extras track defeated members"),
        ({"kind": "extra", "size": 0}, "An Extras group's size must be between 1 and 100"),
        ({"kind": "extra", "size": 3, "members_down": 4}, "The defeated members must be between 0 and 3"),
        ({"powers": [{"type": "allomancy", "name": "Wood", "rating": 3}]}, "Allomancy needs a metal"),
        ({"powers": [{"type": "allomancy", "name": "Steel", "rating": 11}]}, "The Steel rating must be"),
        ({"powers": [{"type": "allomancy", "name": "Steel", "rating": 0}]}, "The Steel rating must be"),
        ({"powers": [{"type": "kandra", "name": "Charm", "rating": 3}]}, "cannot be called Charm"),
        ({"powers": [{"type": "magic", "name": "Glow", "rating": 3}]}, "'powers[1].type' must be one of"),
        (
            {
                "powers": [
                    {"type": "allomancy", "name": "Tin", "rating": 3},
                    {"type": "allomancy", "name": "tin", "rating": 4},
                ]
            },
            "Tin (Allomancy) is listed twice",
        ),
        (
            {"powers": [{"type": "other", "name": "x", "rating": 3, "stunts": ["s"] * 13}]},
            "at most 12 Stunts",
        ),
        (
            {"burdens": [{"name": "Limp", "severity": "grave"}, {"name": "limp", "severity": "serious"}]},
            "Two Burdens are called 'limp'",
        ),
        ({"burdens": [{"name": f"b{i}", "severity": "serious"} for i in range(11)]}, "at most 10 Burdens"),
        ({"burdens": [{"name": "Limp", "severity": "awful"}]}, "must be one of"),
        ({"props": [{"name": "Spear", "weapon": 5}]}, "The weapon bonus of Spear must be between 0 and 4"),
        ({"props": [{"name": "Plate", "armour": 4}]}, "The armour of Plate must be between 0 and 3"),
        ({"props": [{"name": "x"}] * 13}, "at most 12 Props"),
        ({"traits": {"extras": ["x"] * 7}}, "at most 6 extra Traits"),
        ({"traits": {"drive": "d" * 61}}, "The Drive Trait is too long"),
        ({"traits": {"extras": [" "]}}, "An extra Trait cannot be empty."),
        ({"build": {"attributes": "strong", "standings": "strong", "powers": "weak"}}, "one each"),
        ({"hit_points": 10}, "'hit_points' is not part of a character sheet."),
    ],
)
def test_make_character_refuses_with_a_plain_message(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        make_character(VIN, **changes)
    assert message in str(caught.value)


def test_two_problems_are_counted_in_one_message() -> None:
    with pytest.raises(RulesError, match=r"1 more problem"):
        make_character(VIN, attributes={"physique": 0}, notes="\x01")


def test_a_players_braces_are_not_read_as_a_template() -> None:
    with pytest.raises(RulesError, match=r"\{message\}"):
        make_character(VIN, burdens=[{"name": "{message}", "severity": "grave"}] * 2)


@pytest.mark.parametrize(
    ("changes", "check"),
    [
        ({"attributes": {"physique": 5, "charm": 4, "wits": 4}}, lambda c: c.attributes.physique == 5),
        ({"kind": CharacterKind.VILLAIN}, lambda c: c.kind is CharacterKind.VILLAIN),
        (
            {"powers": (Power(type=PowerType.ALLOMANCY, name="Zinc", rating=5),)},
            lambda c: c.powers[0].name == "Zinc",
        ),
        ({"concept": "  Street thief "}, lambda c: c.concept == "Street thief"),
    ],
)
def test_revise_character_applies_checked_changes(changes: dict[str, Any], check: Any) -> None:
    vin = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
    assert check(revise_character(vin, **changes))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"standings": {"resources": 2}}, "cannot have 3 spent"),
        ({"kind": "extra"}, "Extras have no Destiny"),
        ({"nickname": "V"}, "not part of a character sheet"),
    ],
)
def test_revise_character_refuses_changes_that_break_the_sheet(changes: dict[str, Any], message: str) -> None:
    vin = make_character(VIN, standings={"resources": 5}, spent={"resources": 3}, destiny="Hero of Ages")
    with pytest.raises(RulesError) as caught:
        revise_character(vin, **changes)
    assert message in str(caught.value)


def _maximal_sheet(char: str = "w") -> Character:
    def text(n: int) -> str:
        return char * (n // lim.text_units(char))

    powers = [
        {
            "type": "other",
            "name": text(lim.POWER_NAME_MAX - 2) + f"{i:02}",
            "rating": 10,
            "stunts": [text(lim.STUNT_MAX)] if i < lim.STUNTS_MAX else [],
        }
        for i in range(lim.POWERS_MAX)
    ]
    return make_character(
        name=text(lim.NAME_MAX),
        kind="hero",
        owner_id=lim.OWNER_ID_MAX,
        concept=text(lim.CONCEPT_MAX),
        traits={
            "drive": text(lim.TRAIT_MAX),
            "profession": text(lim.TRAIT_MAX),
            "specialty": text(lim.TRAIT_MAX),
            "feature": text(lim.TRAIT_MAX),
            "personality": text(lim.TRAIT_MAX),
            "extras": [text(lim.TRAIT_MAX)] * lim.EXTRA_TRAITS_MAX,
        },
        destiny=text(lim.DESTINY_MAX),
        tragedy=text(lim.TRAGEDY_MAX),
        burdens=[
            {"name": text(lim.BURDEN_NAME_MAX - 2) + f"{i:02}", "severity": "mortal"}
            for i in range(lim.BURDENS_MAX)
        ],
        powers=powers,
        props=[{"name": text(lim.PROP_NAME_MAX), "weapon": 4, "armour": 3}] * lim.PROPS_MAX,
        notes=text(lim.NOTES_MAX),
    )


# Latin, a two-unit emoji, and a CJK character: the caps hold in Discord's units for all.
@pytest.mark.parametrize("char", ["w", "\U0001f525", "鋼"])
def test_maximal_sheet_fits_the_text_budget(char: str) -> None:
    sheet = _maximal_sheet(char)
    total = user_text_length(sheet)
    assert total <= lim.USER_TEXT_BUDGET <= 6000 - 1800
    assert all(length <= lim.SECTION_TEXT_BUDGET <= 1024 - 100 for length in section_lengths(sheet).values())
    assert lim.text_units(sheet.name) <= 256
    assert len(sheet_sections(sheet)) <= 25
    if char == "w":
        # The maximal sheet really is maximal: the budget is close to what it can hold.
        assert total > lim.USER_TEXT_BUDGET - 250


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "\U0001f525" * 33), ("notes", "x" * 601), ("concept", "\U0001f525" * 61)],
)
def test_one_character_past_a_cap_is_refused(field: str, value: str) -> None:
    with pytest.raises(RulesError, match="too long"):
        make_character(VIN, **{field: value})


@given(characters())
def test_any_valid_sheet_stays_within_the_budget(character: Character) -> None:
    assert user_text_length(character) <= lim.USER_TEXT_BUDGET
    assert max(section_lengths(character).values()) <= lim.SECTION_TEXT_BUDGET


@given(characters())
def test_pydantic_json_round_trip_is_exact(character: Character) -> None:
    assert Character.model_validate_json(character.model_dump_json()) == character


def test_burden_severity_is_the_shared_enum() -> None:
    vin = make_character(VIN, burdens=[{"name": "Limp", "severity": "grave"}])
    assert vin.burdens[0].severity is Severity.GRAVE
