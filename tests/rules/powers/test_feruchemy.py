"""Storing and tapping (docs/rulings.md §9.4)."""

import pytest

from rules.character.metals import Task
from rules.character.stats import find_stat
from rules.errors import RulesError
from rules.powers.feruchemy import TapUse, start_storing, store_cap, tap, tap_effect
from rules.powers.ledger import accounted
from rules.powers.rolls import power_roll
from rules.powers.time import move_time
from tests.rules.powers.sheets import keeper


@pytest.mark.parametrize(
    ("charges", "use", "dice", "nudges", "outcome"),
    [
        (4, TapUse.EFFECT, 4, 0, 0),
        (5, TapUse.NUDGES, 0, 1, 0),
        (15, TapUse.NUDGES, 0, 3, 0),
        (10, TapUse.OUTCOME, 0, 0, 1),
        (30, TapUse.OUTCOME, 0, 0, 3),
    ],
)
def test_a_tap_buys_dice_nudges_or_outcome(
    charges: int, use: TapUse, dice: int, nudges: int, outcome: int
) -> None:
    sazed = keeper(("Steel", 50))
    effect = tap_effect(sazed, "Steel", charges, use)
    assert (effect.dice, effect.nudges, effect.outcome) == (dice, nudges, outcome)


def test_a_tap_is_bounded_by_ten_times_the_rating_and_one_metalmind() -> None:
    sazed = keeper(("Pewter", 100), rating=3)
    with pytest.raises(RulesError, match="1 to 30"):
        tap_effect(sazed, "Pewter", 31)
    with pytest.raises(RulesError, match="holds 20"):
        tap_effect(keeper(("Pewter", 20)), "Pewter", 25)
    with pytest.raises(RulesError, match="multiple of 5"):
        tap_effect(sazed, "Pewter", 7, TapUse.NUDGES)


def test_a_tap_is_spent_and_accounted() -> None:
    sazed = keeper(("Steel", 40))
    spent = tap(sazed, tap_effect(sazed, "Steel", 20, TapUse.OUTCOME))
    assert accounted(sazed, spent)
    assert spent.character.props[0].implement.charges == 20  # type: ignore[union-attr]


def test_tapped_dice_past_ten_are_lost_not_nudges() -> None:
    sazed = keeper(("Pewter", 30))
    effect = tap_effect(sazed, "Pewter", 9)
    rolled = power_roll(sazed, find_stat(sazed, "Physique"), tap=effect, before=4)
    assert sum(d for _, d in rolled.modifiers) == 6
    assert rolled.notes and "lost" in rolled.notes[0]


def test_storing_fills_by_the_hour_and_costs_dice() -> None:
    sazed = keeper(("Pewter", 0), attributes={"physique": 4, "charm": 4, "wits": 5})
    assert store_cap(sazed, "Pewter") == 3
    storing = start_storing(sazed, "Pewter")
    assert power_roll(storing, find_stat(storing, "Physique"), task=None).modifiers == ()
    assert power_roll(storing, find_stat(storing, "Physique"), task=Task.STRENGTH).modifiers == (
        ("Storing Pewter", -3),
    )
    later = move_time(storing, 150)
    assert accounted(storing, later)
    assert later.character.props[0].implement.charges == 6  # type: ignore[union-attr]
    assert later.character.feruchemy.storing_of("Pewter").minutes == 30  # type: ignore[union-attr]
