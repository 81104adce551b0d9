"""Adding, removing and stepping Burdens by name (docs/rulings.md §5)."""

from collections.abc import Callable
from typing import Any

import pytest

from rules.burdens import Severity
from rules.character import (
    Character,
    add_burden,
    find_burden,
    make_character,
    remove_burden,
    set_burden_severity,
    step_down_burden,
    step_up_burden,
)
from rules.character import limits as lim
from rules.character.burden_track import FOR_A_ROLL
from rules.errors import RulesError

MARSH = make_character(
    name="Marsh",
    kind="villain",
    owner_id=4,
    burdens=[
        {"name": "Limp", "severity": "serious"},
        {"name": "Deep cut", "severity": "grave"},
        {"name": "Spiked", "severity": "mortal"},
    ],
)


def listed(character: Character) -> list[tuple[str, str]]:
    return [(b.name, b.severity.value) for b in character.burdens]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda c: add_burden(c, "  Shamed ", "grave"),
            [("Limp", "serious"), ("Deep cut", "grave"), ("Spiked", "mortal"), ("Shamed", "grave")],
        ),
        (lambda c: add_burden(c, "Bruised", Severity.SERIOUS), [*listed(MARSH), ("Bruised", "serious")]),
        (lambda c: remove_burden(c, "deep CUT"), [("Limp", "serious"), ("Spiked", "mortal")]),
        (
            lambda c: step_up_burden(c, "limp"),
            [("Limp", "grave"), ("Deep cut", "grave"), ("Spiked", "mortal")],
        ),
        (
            lambda c: step_up_burden(c, "Deep cut"),
            [("Limp", "serious"), ("Deep cut", "mortal"), ("Spiked", "mortal")],
        ),
        (lambda c: step_down_burden(c, "Limp"), [("Deep cut", "grave"), ("Spiked", "mortal")]),
        (
            lambda c: step_down_burden(c, "deep  cut"),
            [("Limp", "serious"), ("Deep cut", "serious"), ("Spiked", "mortal")],
        ),
        (
            lambda c: step_down_burden(c, "Spiked"),
            [("Limp", "serious"), ("Deep cut", "grave"), ("Spiked", "grave")],
        ),
        (
            lambda c: set_burden_severity(c, "Limp", "mortal"),
            [("Limp", "mortal"), ("Deep cut", "grave"), ("Spiked", "mortal")],
        ),
    ],
)
def test_burden_changes(change: Callable[[Character], Character], expected: list[tuple[str, str]]) -> None:
    changed = change(MARSH)
    assert listed(changed) == expected
    assert listed(MARSH) == [("Limp", "serious"), ("Deep cut", "grave"), ("Spiked", "mortal")]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda c: add_burden(c, "limp", "grave"), "already has a Burden called 'limp'"),
        (lambda c: add_burden(c, " ", "grave"), "A Burden's name cannot be empty."),
        (lambda c: add_burden(c, "x" * 41, "grave"), "too long"),
        (lambda c: add_burden(c, "Hex", "terrible"), "not a Burden severity"),
        (
            lambda c: remove_burden(c, "Gash"),
            "Marsh has no Burden called 'Gash'. Burdens: Limp, Deep cut, Spiked.",
        ),
        (lambda c: step_up_burden(c, "Spiked"), "already Mortal"),
        (lambda c: step_down_burden(c, "Nope"), "no Burden called"),
    ],
)
def test_burden_changes_refused(change: Callable[[Character], Any], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        change(MARSH)
    assert message in str(caught.value)


def test_a_full_sheet_refuses_another_burden() -> None:
    character = MARSH
    for i in range(lim.BURDENS_MAX - len(MARSH.burdens)):
        character = add_burden(character, f"Extra {i}", "serious")
    with pytest.raises(RulesError, match="already has 10 Burdens"):
        add_burden(character, "One more", "serious")


BARE = make_character(name="Kell", kind="hero", owner_id=1)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda: find_burden(BARE, "Limp", FOR_A_ROLL), "Kell has no Burdens: leave Burdens out, or add one"),
        (
            lambda: step_up_burden(BARE, "Limp"),
            "Kell has no Burdens to worsen or ease: give one with /burden add",
        ),
        (lambda: step_down_burden(BARE, "Limp"), "Kell has no Burdens to worsen or ease"),
        (lambda: remove_burden(BARE, "Limp"), "Kell has no Burdens, so there is none to remove."),
        (lambda: set_burden_severity(BARE, "Limp", "grave"), "Kell has no Burdens to change"),
    ],
)
def test_no_burdens_at_all_is_said_in_the_words_of_what_was_asked(
    change: Callable[[], Any], said: str
) -> None:
    """Issue 39: /burden step answered with /declare's "leave Burdens out"."""
    with pytest.raises(RulesError, match="^" + said):
        change()


def test_find_burden() -> None:
    assert find_burden(MARSH, " SPIKED ", FOR_A_ROLL).severity is Severity.MORTAL
