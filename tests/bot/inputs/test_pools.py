"""The pool a roll forms from a sheet is kept per parsed sheet and request (``bot.inputs.pools``):
it must follow every change to the sheet, carry the row it was given, and never keep a refusal."""

from datetime import UTC, datetime

import pytest

from bot.errors import BotError
from bot.inputs.pools import PoolRequest, form_pool
from rules.character import CharacterKind, make_character
from rules.character.story import Subplot
from storage import StoredCharacter

PHYSIQUE = PoolRequest(None, "Physique")


def stored(physique: int, *, version: int = 1) -> StoredCharacter:
    character = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=5, attributes={"physique": physique}
    )
    return StoredCharacter(
        id=7, guild_id=1, version=version, updated_at=datetime.now(UTC), character=character
    )


def test_a_second_roll_of_the_same_sheet_forms_the_same_pool_with_its_own_row() -> None:
    first, again = stored(3), stored(3, version=2)
    again = again.model_copy(update={"character": first.character})  # the same parsed sheet
    formed, reformed = form_pool(PHYSIQUE, first), form_pool(PHYSIQUE, again)
    assert reformed.pool == formed.pool and reformed.pool.total == 3
    assert formed.stored is first and reformed.stored is again


@pytest.mark.parametrize("physique", [2, 4, 5])
def test_a_changed_sheet_forms_its_new_pool(physique: int) -> None:
    form_pool(PHYSIQUE, stored(3))
    assert form_pool(PHYSIQUE, stored(physique)).pool.total == physique


def test_an_equal_request_on_another_sheet_reads_that_sheet() -> None:
    weak, strong = stored(2), stored(5)
    assert [form_pool(PHYSIQUE, s).pool.total for s in (weak, strong, weak)] == [2, 5, 2]


def test_a_refusal_is_given_every_time() -> None:
    sheet = stored(3)
    for _ in range(2):
        with pytest.raises(BotError):
            form_pool(PoolRequest(None, "Physique", subplot=Subplot.TRAGEDY), sheet)
