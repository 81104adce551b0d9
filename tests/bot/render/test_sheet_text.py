"""A sheet's text is written once per sheet (``bot.render.sheet_card.sheet_text``): the card
drawn from what was written before is the card drawn afresh, and a changed sheet is a new
sheet, written anew."""

from typing import Any

import pytest

from bot.render import sheet_card as cards
from bot.render.sheet_card import sheet_card
from rules.character import Character, CharacterKind, make_character
from testbed.bot_env import BotEnv
from testbed.cards import card_text
from tests.bot.cogs.characters.test_character_limits import maximal

SHORT = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1, attributes={"physique": 3})
EXTRA: dict[str, Any] = {"destiny": "", "tragedy": "", "damage": {}, "size": 100, "members_down": 7}


def drawn(character: Character, **options: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = sheet_card(character, **options).to_components()  # type: ignore[no-untyped-call]
    return found


@pytest.mark.parametrize(
    "character",
    [SHORT, *(maximal(k, **(EXTRA if k is CharacterKind.EXTRA else {})) for k in CharacterKind)],
    ids=["short", "maximal hero", "maximal villain", "maximal extras"],
)
@pytest.mark.parametrize(
    "options",
    [{}, {"portrait": True}, {"notes": ["x" * 400]}, {"extras": [("Advice", ["y" * 900])]}],
    ids=["plain", "portrait", "notes", "extras"],
)
def test_a_card_drawn_again_is_the_card_drawn_afresh(character: Character, options: dict[str, Any]) -> None:
    cards._WRITTEN.clear()
    fresh = drawn(character, **options)
    assert drawn(character, **options) == fresh
    assert drawn(character.model_copy(), **options) == fresh
    cards._WRITTEN.clear()
    assert drawn(character, **options) == fresh


def test_a_changed_sheet_is_written_anew() -> None:
    before = card_text({"components": drawn(SHORT)})
    stronger = SHORT.model_copy(update={"attributes": SHORT.attributes.model_copy(update={"physique": 5})})
    after = card_text({"components": drawn(stronger)})
    assert "Physique **3**" in before and "Physique **5**" in after
    assert card_text({"components": drawn(SHORT)}) == before


async def test_a_sheet_shown_edited_and_shown_again_shows_the_edit(vin: BotEnv) -> None:
    first = await vin.slash("/character show", user="player1")
    assert first.message is not None and "Wits **" in card_text(first.message)
    await vin.slash("/edit attribute attribute:Wits value:5", user="player1")
    again = await vin.slash("/character show", user="player1")
    assert again.message is not None and "Wits **5**" in card_text(again.message)
    assert card_text(first.message) != card_text(again.message)
