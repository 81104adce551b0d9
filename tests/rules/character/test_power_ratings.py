"""Allomancy and Mimicry are rated 2–10, Feruchemy and the rest 1–10, and Feruchemy has no Stunts
(docs/rulings.md §9.1, §9.4): refused on a sheet file's import, kept at 2 from Roll20, and a
stored sheet's 1 still reads."""

import pytest

from rules.character import PowerType, export_character, make_character
from rules.character.parts import Power, rating_refusal
from rules.character.sheet_files import read_sheet_file
from rules.character.stunts import check_stunt
from rules.errors import RulesError
from tests.rules.character.test_roll20 import export


@pytest.mark.parametrize(
    ("kind", "name", "rating", "refused"),
    [
        (PowerType.ALLOMANCY, "Steel", 1, "Allomancy Steel is rated 2 to 10, not 1."),
        (PowerType.ALLOMANCY, "Steel", 2, None),
        (PowerType.ALLOMANCY, "Steel", 10, None),
        (PowerType.ALLOMANCY, "Steel", 11, "Allomancy Steel is rated 2 to 10, not 11."),
        (PowerType.KANDRA, "Mimicry", 1, "Kandra Mimicry is rated 2 to 10, not 1."),
        (PowerType.KANDRA, "Mimicry", 5, None),
        (PowerType.FERUCHEMY, "Steel", 1, None),
        (PowerType.FERUCHEMY, "Steel", 0, "Feruchemy Steel is rated 1 to 10, not 0."),
        (PowerType.OTHER, "Luck", 1, None),
    ],
)
def test_rating_refusal(kind: PowerType, name: str, rating: int, refused: str | None) -> None:
    assert rating_refusal(kind, name, rating) == refused


def _hero(kind: str, name: str, rating: int) -> str:
    sheet = make_character(
        name="Vin",
        kind="hero",
        owner_id=1,
        attributes={"physique": 3, "charm": 3, "wits": 3},
        standings={"resources": 3, "influence": 3, "spirit": 3},
        powers=[{"type": kind, "name": name, "rating": rating}],
    )
    return export_character(sheet)


@pytest.mark.parametrize(
    ("kind", "name", "rating", "refused"),
    [("allomancy", "Tin", 1, True), ("kandra", "Mimicry", 1, True), ("feruchemy", "Tin", 1, False)],
)
def test_a_sheet_file_with_allomancy_or_mimicry_at_1_is_refused(
    kind: str, name: str, rating: int, refused: bool
) -> None:
    data = _hero(kind, name, rating)  # a stored sheet's 1 still reads and exports
    if refused:
        with pytest.raises(RulesError, match=r"cannot be imported: .* rated 2 to 10, not 1"):
            read_sheet_file(data, owner_id=1)
    else:
        assert read_sheet_file(data, owner_id=1).character.powers[0].rating == 1


@pytest.mark.parametrize(("rating", "kept", "noted"), [("1", 2, True), ("2", 2, False), ("7", 7, False)])
def test_roll20_keeps_allomancy_at_2_and_says_so(rating: str, kept: int, noted: bool) -> None:
    found = read_sheet_file(
        export(("repeating_powers_-A_power", "Tin"), ("repeating_powers_-A_rating", rating)), owner_id=1
    )
    assert [(p.name, p.rating) for p in found.character.powers] == [("Tin", kept)]
    assert any("rated 2 to 10, not 1. Kept at 2" in line for line in found.left_out) == noted


@pytest.mark.parametrize(
    ("kind", "name", "stunt", "refused"),
    [
        (PowerType.FERUCHEMY, "Pewter", "Iron grip", "Feruchemy has no Stunts"),
        (PowerType.FERUCHEMY, "Pewter", "Denser Tissues", "Feruchemy has no Stunts"),
        (PowerType.ALLOMANCY, "Pewter", "Iron grip", None),
        (PowerType.ALLOMANCY, "Pewter", "Denser Tissues", None),
        (PowerType.HEMALURGY, "Steel spike", "Iron grip", None),  # a spike may learn Stunts
    ],
)
def test_feruchemy_takes_no_stunt(kind: PowerType, name: str, stunt: str, refused: str | None) -> None:
    power = Power(type=kind, name=name, rating=3)
    if refused is None:
        check_stunt(power, stunt)
    else:
        with pytest.raises(RulesError, match=refused):
            check_stunt(power, stunt)
