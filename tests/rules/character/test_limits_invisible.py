"""Names and text that would render invisible or reversed are refused (rules/character/limits.py)."""

import pytest

from rules.character import CharacterKind, make_character
from rules.errors import RulesError


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b", "invisible formatting"),
        ("Vin\u202e", "invisible formatting"),
        ("\ufeffElend", "invisible formatting"),
        ("\u200d", "visible letter"),
    ],
)
def test_invisible_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make_character(name=name, kind=CharacterKind.HERO, owner_id=1)


@pytest.mark.parametrize("name", ["Vin", "👨\u200d👩\u200d👧 family", "می\u200cخواهم", "Kelsier 🗡️"])
def test_joiners_and_emoji_are_kept(name: str) -> None:
    assert make_character(name=name, kind=CharacterKind.HERO, owner_id=1).name == name
