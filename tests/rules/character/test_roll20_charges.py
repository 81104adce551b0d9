"""A Roll20 Power row's charges kept: a reserve or a metalmind, and through our own export and
back unchanged (docs/rulings.md §6.12, §9.2)."""

import json
from pathlib import Path
from typing import Any

from rules.character import export_character
from rules.character.feruchemy import Metalmind, MindSize
from rules.character.sheet_files import read_sheet_file


def roll20(*rows: tuple[str, str, str, str]) -> str:
    attribs: list[dict[str, Any]] = []
    for index, (power, kind, rating, charges) in enumerate(rows):
        row = f"repeating_powers_-M{index}"
        for field, value in (("power", power), ("type", kind), ("rating", rating), ("charges", charges)):
            attribs.append({"name": f"{row}_{field}", "current": value, "max": ""})
    return json.dumps({"name": "Sazed", "attribs": attribs})


def test_charges_become_reserves_and_metalminds_and_round_trip() -> None:
    found = read_sheet_file(
        roll20(("Steel", "1", "4", "3"), ("Pewter", "2", "3", "140"), ("Kandra trick", "4", "3", "2")),
        owner_id=1,
    )
    sazed = found.character
    assert sazed.allomancy.tracked and sazed.allomancy.charges("Steel") == 3
    [mind] = [p for p in sazed.props if isinstance(p.implement, Metalmind)]
    assert mind.name == "Pewtermind" and mind.implement == Metalmind(
        metal="Pewter", size=MindSize.LARGE, charges=140
    )
    assert list(found.left_out) == [
        "Charges of 'Kandra trick' '2': only a metal's Allomancy or Feruchemy holds charges, not Other"
    ]
    again = read_sheet_file(export_character(sazed), owner_id=1).character
    assert again.allomancy == sazed.allomancy and again.props == sazed.props


def test_charges_out_of_range_are_listed_back() -> None:
    found = read_sheet_file(roll20(("Tin", "1", "4", "many"), ("Iron", "2", "4", "900")), owner_id=1)
    assert not found.character.allomancy.tracked
    assert list(found.left_out) == [
        "Charges of 'Tin' 'many': not a number of charges from 0 to 99",
        "Charges of 'Iron' '900': not a number of charges from 0 to 500",
    ]


def test_the_rulings_list_kept_charges_as_mapped_not_listed_back() -> None:
    """§6.12 says what the import does with a row's charges: mapped, as the tests above show,
    and listed back only when they cannot be kept."""
    rulings = (Path(__file__).parents[3] / "docs" / "rulings.md").read_text(encoding="utf-8")
    section = rulings[rulings.index("**6.12 Sheets from Roll20.**") : rulings.index("**6.13")]
    mapped = section[section.index("- Mapped:") : section.index("- Checked:")]
    listed = section[section.index("- Listed back") : section.index("- Refused")]
    assert "their charges" in mapped
    assert "Power charges" not in " ".join(listed.split())
