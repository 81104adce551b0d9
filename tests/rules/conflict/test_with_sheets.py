"""``Conflict.with_sheets``: the Conflict reads each participant as its sheet stands (docs/rulings.md
§9.2), its name and what it burns and flares, whatever changed the sheet outside the Conflict."""

import pytest

from rules.character import Character
from rules.character.allomancy import Allomancy
from tests.rules.conflict.builders import THUG, VIN, Table, pick


def burning(character: Character, metals: tuple[str, ...], flared: tuple[str, ...] = ()) -> Character:
    allomancy = Allomancy(burning=metals, flared=flared)
    return character.model_copy(update={"allomancy": allomancy})


@pytest.mark.parametrize(
    ("metals", "flared"),
    [((), ()), (("Pewter",), ()), (("Pewter", "Steel"), ("Steel",)), (("Steel", "Pewter"), ())],
)
def test_each_participant_burns_what_its_sheet_burns(
    metals: tuple[str, ...], flared: tuple[str, ...]
) -> None:
    table = Table.start(pick(VIN, THUG))
    sheets = {
        **table.sheets,
        VIN: burning(table.sheets[VIN], metals, flared).model_copy(update={"name": "Valette"}),
    }
    vin = table.state.with_sheets(sheets).participant(VIN)
    assert (vin.name, vin.burning, vin.flared) == ("Valette", tuple(sorted(metals)), flared)
    assert vin.burning_pewter is ("Pewter" in metals)


def test_an_unchanged_conflict_is_itself_and_a_missing_sheet_keeps_its_copy() -> None:
    table = Table.start({VIN: burning(pick(VIN)[VIN], ("Pewter",)), **pick(THUG)})
    assert table.state.participant(VIN).burning == ("Pewter",)
    assert table.state.with_sheets(table.sheets) is table.state
    assert table.state.with_sheets({THUG: table.sheets[THUG]}).participant(VIN).burning == ("Pewter",)
