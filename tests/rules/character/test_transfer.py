"""Versioned JSON import and export; hostile files yield one RulesError."""

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.character import (
    SCHEMA_VERSION,
    Character,
    CharacterKind,
    export_character,
    import_character,
    make_character,
)
from rules.character.sheet_files import read_sheet_file
from rules.character.transfer import MAX_FILE_BYTES, MAX_PORTRAIT_CHARS
from rules.errors import RulesError
from tests.rules.character.test_strategies import characters

VIN = make_character(
    name="Vin",
    kind="hero",
    owner_id=123456789012345678,
    attributes={"physique": 3, "charm": 4, "wits": 6},
    powers=[
        {"type": "allomancy", "name": m, "rating": 4, "stunts": ["Steelpush leap"] if m == "Steel" else []}
        for m in ("Iron", "Steel", "Pewter")
    ],
    burdens=[{"name": "Cracked rib", "severity": "serious"}],
    props=[{"name": "Glass knives", "weapon": 1}],
    notes="Street urchin.\nTrusts no one.",
)


def sheet_json(**character: Any) -> str:
    data = json.loads(export_character(VIN))
    data["character"].update(character)
    return json.dumps(data)


def test_export_is_versioned_json() -> None:
    data = json.loads(export_character(VIN))
    assert data["schema_version"] == SCHEMA_VERSION == 2
    assert data["character"]["name"] == "Vin"
    assert data["character"]["kind"] == "hero"


@pytest.mark.parametrize("as_bytes", [False, True])
def test_round_trip(as_bytes: bool) -> None:
    text = export_character(VIN)
    assert import_character(text.encode() if as_bytes else text) == VIN


@given(characters())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_round_trip_is_exact_for_any_character(character: Character) -> None:
    text = export_character(character)
    assert import_character(text) == character
    assert import_character(text.encode("utf-8")) == character
    assert export_character(import_character(text)) == text


def _deep(levels: int) -> str:
    return '{"schema_version": 1, "character": ' + "[" * levels + "]" * levels + "}"


HOSTILE: list[tuple[Any, str]] = [
    ("", "not valid JSON"),
    (b"\xff\xfe\x00", "not valid JSON"),
    ("Vin, Physique 3", "not valid JSON"),
    ("{'schema_version': 1}", "not valid JSON"),
    ("[1, 2, 3]", "not a character sheet exported by this bot"),
    ('"a string"', "not a character sheet exported by this bot"),
    ("{}", "not a character sheet exported by this bot"),
    ('{"schema_version": 1}', "not a character sheet exported by this bot"),
    (export_character(VIN).replace('"schema_version": 2', '"schema_version": 3'), "schema_version is 3"),
    (export_character(VIN).replace('"schema_version": 2', '"schema_version": 0'), "schema_version is 0"),
    (export_character(VIN).replace('"schema_version": 2', '"schema_version": "1"'), "missing or unreadable"),
    (export_character(VIN).replace('"schema_version": 2', '"schema_version": true'), "missing or unreadable"),
    (export_character(VIN).replace('"schema_version": 2', '"schema_version": 1.0'), "missing or unreadable"),
    (
        export_character(VIN).replace('"schema_version": 2', '"schema_version": ' + "9" * 50),
        "missing or unreadable",
    ),
    (export_character(VIN).replace('"schema_version": 2,', ""), "missing or unreadable"),
    (
        export_character(VIN).replace('"schema_version": 2,', '"schema_version": 2, "extra": 1,'),
        "'extra' is not part",
    ),
    (sheet_json(hit_points=10), "'character.hit_points' is not part of a character sheet"),
    (sheet_json(name=42), "'character.name' must be text"),
    (sheet_json(name=""), "The name cannot be empty"),
    (sheet_json(owner_id="123"), "'character.owner_id' must be a whole number"),
    (sheet_json(owner_id=10**30), "Discord user id"),
    (sheet_json(kind="god"), "must be one of"),
    (
        sheet_json(attributes={"physique": 10**18}),
        "Physique must be between 1 and 10; that number is out of range.",
    ),
    (sheet_json(attributes={"physique": 1e300}), "whole number"),
    (sheet_json(attributes=[1, 2, 3]), "'character.attributes' must be a group of fields"),
    (sheet_json(burdens={"name": "x"}), "'character.burdens' must be a list"),
    (sheet_json(powers=[[[[["deep"]]]]]), "must be a group of fields"),
    (export_character(VIN).replace('"physique": 3', '"physique": ' + "9" * 5000), "not valid JSON"),
    (export_character(VIN).replace('"physique": 3', '"physique": NaN'), "not valid JSON"),
    (export_character(VIN).replace('"physique": 3', '"physique": Infinity'), "not valid JSON"),
    (export_character(VIN).replace('"name": "Vin"', '"name": "\\ud800"'), "not valid JSON"),
    (_deep(20_000), "not valid JSON"),
    (_deep(150), "must be a group of fields"),
    (export_character(VIN).replace('"notes": "', '"notes": "' + "x" * MAX_FILE_BYTES), "too big"),
    ("\ud800", "not valid text"),
    (None, "not a character file"),
    (12, "not a character file"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
def test_hostile_imports_raise_one_clear_error(data: Any, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        import_character(data)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 400
    assert type(caught.value) is RulesError


def test_a_file_just_under_the_cap_still_imports() -> None:
    text = export_character(VIN)
    padded = text + " " * (MAX_FILE_BYTES - len(text.encode()))
    assert import_character(padded) == VIN
    with pytest.raises(RulesError, match="too big"):
        import_character(padded + " ")


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


def _outcome(data: str | bytes) -> Character | None:
    try:
        return import_character(data)
    except RulesError:
        return None


@given(st.binary(max_size=300))
def test_random_bytes_only_raise_rules_error(data: bytes) -> None:
    _outcome(data)


@given(_json_values)
def test_random_json_only_raises_rules_error(value: Any) -> None:
    assert _outcome(json.dumps(value)) is None
    assert _outcome(json.dumps({"schema_version": 1, "character": value})) is None


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


@given(st.data(), characters(kind=CharacterKind.HERO), _json_values)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_a_tampered_export_imports_valid_or_raises_rules_error(
    data: st.DataObject, character: Character, junk: Any
) -> None:
    document = json.loads(export_character(character))
    path = data.draw(st.sampled_from(_paths(document["character"])[1:] or [("name",)]))
    target = document["character"]
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    result = _outcome(json.dumps(document))
    if result is not None:
        assert import_character(export_character(result)) == result


def test_a_portrait_travels_in_base64_and_only_when_there_is_one() -> None:
    character = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
    assert "portrait" not in json.loads(export_character(character))
    image = bytes(range(256)) * 200  # 50 KiB: the file passes 64 KiB only by its portrait
    found = read_sheet_file(export_character(character, image), owner_id=2)
    assert found.portrait == image and found.character == character


@pytest.mark.parametrize(
    ("portrait", "words"),
    [
        ("not base64!", "not valid base64"),
        (12, "'portrait' must be text"),
        ("A" * (MAX_PORTRAIT_CHARS + 4), "'portrait' is not valid"),
    ],
)
def test_a_bad_portrait_in_a_file_is_refused(portrait: object, words: str) -> None:
    data = json.loads(export_character(make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1)))
    with pytest.raises(RulesError, match=words):
        read_sheet_file(json.dumps({**data, "portrait": portrait}), owner_id=2)


def test_a_portrait_does_not_make_room_for_a_bigger_sheet() -> None:
    data = json.loads(export_character(make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1)))
    padded = json.dumps({**data, "portrait": "AAAA"}) + " " * MAX_FILE_BYTES
    with pytest.raises(RulesError, match="too big"):
        read_sheet_file(padded, owner_id=2)


def test_a_version_1_file_reads_its_gifts_in_words_as_the_fields_they_name() -> None:
    """docs/rulings.md §10.1: a file exported before Savants had a field wrote one as a Stunt on
    its metal; read now, it is a Savant (as a stored sheet of that age becomes one), while a
    version-2 file's Stunt of the same words is what its owner typed and stays."""
    tin = [{"type": "allomancy", "name": "Tin", "rating": 5, "stunts": ["Tin Savant", "Keen ears"]}]
    sheet = make_character(name="Tineye", kind="hero", owner_id=1, powers=tin)
    current = export_character(sheet)
    old = import_character(current.replace('"schema_version": 2', '"schema_version": 1'))
    assert old.allomancy.savants == ("Tin",)
    assert old.powers[0].stunts == ("Keen ears",)
    assert import_character(current) == sheet
