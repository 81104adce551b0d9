"""A number typed in a form or picked from a menu is read as ``int`` reads it: a character that
is a digit but not a decimal one ("²", "①") is refused plainly, as any other wrong text is,
never answered with the apology for a bug (``int("²")`` raises where ``"²".isdigit()`` holds)."""

import pytest

from bot.cogs.characters.builder_changes import split_from
from bot.cogs.characters.edit_form import NOT_A_CHOICE
from bot.cogs.characters.edit_form import picked as picked_ratings
from bot.cogs.conflict.nudge_form import spent
from bot.cogs.requests.views import Choice, chose
from bot.errors import BotError
from rules.errors import RulesError

ODD_DIGITS = ["²", "①", "3²", "¹0"]


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_nudges_typed_as_odd_digits_are_refused_plainly(typed: str) -> None:
    with pytest.raises(BotError, match="give a whole number of Nudges"):
        spent({"damage": typed}, 1)
    assert spent({"damage": "٣"}, 1).damage == 3  # a decimal digit of another script is read


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_ratings_and_splits_of_odd_digits_are_not_choices(typed: str) -> None:
    with pytest.raises(RulesError, match=NOT_A_CHOICE):
        picked_ratings({"physique": typed, "charm": "3", "wits": "3"}, "attributes")
    with pytest.raises(RulesError, match=NOT_A_CHOICE):
        split_from(f"{typed}-3-3")


@pytest.mark.parametrize("typed", ODD_DIGITS)
def test_a_traits_menu_value_of_odd_digits_is_dropped(typed: str) -> None:
    assert chose(Choice(), "t", [typed, "1"]) == chose(Choice(), "t", ["1"])
