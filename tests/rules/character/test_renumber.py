"""Numbering names that clash under rules.naming after an older, looser rule let them apart."""

from rules.character.limits import text_units
from rules.character.renumber import numbered, renumber_sheet, unclashed


def test_numbered_keeps_within_the_limit() -> None:
    assert numbered("Vin", 2, 64) == "Vin (2)"
    assert numbered("x" * 64, 12, 64) == "x" * 59 + " (12)"
    assert numbered("ab cd", 2, 7) == "ab (2)"  # no space left dangling before the number
    assert numbered("😀😀😀", 2, 8) == "😀😀 (2)"  # an emoji counts two units
    assert all(text_units(numbered("é" * 70, n, 64)) <= 64 for n in range(2, 200))


def test_unclashed_takes_the_first_free_number() -> None:
    taken = {"vin", "vin (2)"}
    assert unclashed("Kelsier", taken.__contains__, 64) == "Kelsier"
    assert unclashed("VIN", taken.__contains__, 64) == "VIN (3)"


def test_a_sheet_without_clashes_comes_back_equal() -> None:
    data = {
        "name": "Marsh",
        "burdens": [{"name": "Fire", "severity": "grave"}, "not a burden"],
        "powers": [{"type": "allomancy", "name": "Steel"}, {"type": "other", "name": "Steel"}, {"type": 3}],
    }
    assert renumber_sheet(data) == data
    assert renumber_sheet({"burdens": "odd"}) == {"burdens": "odd"}
