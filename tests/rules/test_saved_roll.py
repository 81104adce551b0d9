"""A saved roll is checked against the sheet it is saved for, and kept under the sheet's own
words for its stat (docs/rulings.md §6.14)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.character import CharacterKind, make_character
from rules.character.names import PowerType
from rules.character.parts import Power
from rules.errors import RulesError
from rules.saved_roll import NAME_MAX, SavedRoll, save_roll, saved_roll_name

TWINBORN = make_character(
    name="Marsh",
    kind=CharacterKind.HERO,
    owner_id=1,
    powers=[
        Power(type=PowerType.ALLOMANCY, name="Steel", rating=4),
        Power(type=PowerType.FERUCHEMY, name="Steel", rating=2),
        Power(type=PowerType.ALLOMANCY, name="Tin", rating=3),
    ],
)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("wits", "Wits"),
        (" RESOURCES ", "Resources"),
        ("tin", "Tin (Allomancy)"),
        ("Steel (Feruchemy)", "Steel (Feruchemy)"),
        ("Allomancy Steel", "Steel (Allomancy)"),
    ],
)
def test_the_stat_is_kept_as_the_sheet_names_it(typed: str, kept: str) -> None:
    saved = save_roll(TWINBORN, SavedRoll(name="  Push   hard ", stat=typed))
    assert saved.stat == kept and saved.name == "Push hard"
    assert save_roll(TWINBORN, saved) == saved  # what was kept finds the same stat again


@pytest.mark.parametrize(("typed", "said"), [("Flight", "has no 'Flight'"), ("Steel", "more than one")])
def test_a_stat_the_sheet_lacks_or_cannot_tell_apart_is_refused(typed: str, said: str) -> None:
    with pytest.raises(RulesError, match=said):
        save_roll(TWINBORN, SavedRoll(name="Push", stat=typed))


@pytest.mark.parametrize(("typed", "said"), [("   ", "Give the saved roll a name"), ("x" * 41, "at most 40")])
def test_names_are_tidied_or_refused(typed: str, said: str) -> None:
    with pytest.raises(RulesError, match=said):
        saved_roll_name(typed)


@given(st.text(min_size=1, max_size=NAME_MAX))
def test_a_tidy_name_is_tidied_to_itself(typed: str) -> None:
    if not typed.split():
        return
    once = saved_roll_name(typed)
    assert saved_roll_name(once) == once and once == " ".join(once.split())


def test_the_title_is_the_label_else_the_name() -> None:
    assert SavedRoll(name="Sneak", stat="Wits").title == "Sneak"
    assert SavedRoll(name="Sneak", stat="Wits", label="Quietly").title == "Quietly"
