"""Pewter's healing and Pewter drag as the Narrator moves time on (docs/rulings.md §9.3)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.character import Character, Resilience, make_character
from rules.character.allomancy import PEWTER_DAY, PEWTER_HOURS, PewterTime
from rules.character.stats import rating_for, resilience_max
from rules.errors import RulesError
from rules.powers.burning import start_burn
from rules.powers.drinking import set_impure
from rules.powers.pewter import heals_in, set_drag
from rules.powers.time import MINUTES_MAX, move_time
from tests.rules.powers.sheets import allomancer

HOUR = 60


def _thug(hurt: int = 6, reserves: dict[str, int] | None = None, **fields: Any) -> Character:
    ham = allomancer("Pewter", rating=4, reserves=reserves, **fields)
    hurt_ham = ham.model_copy(update={"damage": ham.damage.with_value(Resilience.HEALTH, hurt)})
    return start_burn(hurt_ham, "Pewter").character


@pytest.mark.parametrize(
    ("steps", "health"),
    [
        ([7 * HOUR], 6),
        ([8 * HOUR], 4),
        ([4 * HOUR, 4 * HOUR], 4),
        ([8 * HOUR, 8 * HOUR], 4),  # at most once a day
        ([8 * HOUR, 24 * HOUR], 2),  # a day since the heal, and 8 more hours of Pewter
        ([32 * HOUR], 2),
        ([7 * 24 * HOUR], 0),  # seven heals, but only 6 to heal
    ],
)
def test_each_8_hours_of_pewter_heal_2_health_at_most_once_a_day(steps: list[int], health: int) -> None:
    ham = _thug()
    for minutes in steps:
        ham = move_time(ham, minutes).character
    assert ham.damage.health == health


def test_the_heal_is_said_and_an_unhurt_thug_heals_nothing() -> None:
    moved = move_time(_thug(), 8 * HOUR)
    assert "Pewter has burnt its 8 hours: Vin heals 2 Health." in moved.notes
    whole = move_time(_thug(hurt=0), 8 * HOUR)
    assert whole.character.damage.health == 0
    assert "Vin heals 0 Health" in " ".join(whole.notes)


@pytest.mark.parametrize(
    ("charges", "minutes", "health"), [(95, 9 * HOUR, 6), (96, 9 * HOUR, 4), (99, 8 * HOUR, 4)]
)
def test_pewter_that_runs_dry_counts_only_what_its_charges_paid(
    charges: int, minutes: int, health: int
) -> None:
    ham = _thug(reserves={"Pewter": charges})
    moved = move_time(ham, minutes).character
    assert moved.damage.health == health


def test_time_without_pewter_counts_toward_the_day_only() -> None:
    resting = allomancer("Pewter", rating=4)
    assert move_time(resting, 10 * HOUR).character == resting  # nothing to count: nothing saved
    healed = move_time(_thug(), 8 * HOUR).character
    assert healed.allomancy.pewter == PewterTime(burnt=0, wait=PEWTER_DAY)
    from_the_table = healed.model_copy(
        update={"allomancy": healed.allomancy.model_copy(update={"burning": ()})}
    )
    waited = move_time(from_the_table, 10 * HOUR).character
    assert waited.allomancy.pewter == PewterTime(burnt=0, wait=PEWTER_DAY - 10 * HOUR)


@given(
    burnt=st.integers(0, PEWTER_HOURS),
    wait=st.integers(0, PEWTER_DAY),
    minutes=st.integers(1, MINUTES_MAX),
    share=st.floats(0, 1),
)
def test_heals_never_come_faster_than_a_day_or_8_hours_of_pewter(
    burnt: int, wait: int, minutes: int, share: float
) -> None:
    if burnt == PEWTER_HOURS and wait == 0:
        wait = 1  # a count that full would have healed on the move that filled it
    burning = int(minutes * share)
    heals, clock = heals_in(PewterTime(burnt=burnt, wait=wait), minutes, burning)
    assert heals <= 1 + (minutes - wait) // PEWTER_DAY if minutes >= wait else heals == 0
    assert heals <= (burnt + burning) // PEWTER_HOURS
    assert 0 <= clock.burnt <= PEWTER_HOURS and 0 <= clock.wait <= PEWTER_DAY


@pytest.mark.parametrize(
    ("physique", "impure", "halved"),
    [(4, False, 2), (5, False, 3), (1, False, 1), (6, True, 3)],  # impure and dragged: halved once
)
def test_pewter_drag_halves_physique_once(physique: int, impure: bool, halved: int) -> None:
    stats = {"attributes": {"physique": physique, "charm": 4, "wits": 5}}
    ham = allomancer("Pewter", rating=4, reserves={"Pewter": 3}, **stats)
    if impure:
        ham = set_impure(ham, "Pewter", True)
    dragged = set_drag(ham, True)
    assert rating_for(dragged, "Physique") == halved
    assert resilience_max(dragged, Resilience.HEALTH) == halved + 4
    assert rating_for(set_drag(dragged, False), "Physique") == (halved if impure else physique)


def test_drag_lifts_after_8_more_hours_of_pewter() -> None:
    ham = set_drag(_thug(), True)
    part = move_time(ham, 5 * HOUR).character
    assert part.allomancy.pewter.drag and part.allomancy.pewter.rested == 5 * HOUR
    lifted = move_time(part, 3 * HOUR)
    assert not lifted.character.allomancy.pewter.drag
    assert "8 more hours of Pewter: Vin's Pewter drag lifts." in lifted.notes
    unlit = set_drag(allomancer("Pewter", rating=4), True)
    assert move_time(unlit, 9 * HOUR).character.allomancy.pewter.drag  # no Pewter, no rest


def test_only_a_pewterarm_is_dragged() -> None:
    with pytest.raises(RulesError, match="burns no Pewter"):
        set_drag(allomancer("Tin"), True)
    assert set_drag(allomancer("Tin"), False).allomancy.pewter == PewterTime()


def test_an_extra_heals_nothing_but_its_count_runs() -> None:
    thugs = make_character(
        {
            "name": "Thugs",
            "kind": "extra",
            "owner_id": 1,
            "size": 3,
            "attributes": {"physique": 4, "charm": 2, "wits": 2},
            "standings": {"resources": 2, "influence": 2, "spirit": 2},
            "powers": [{"type": "allomancy", "name": "Pewter", "rating": 3}],
        }
    )
    moved = move_time(start_burn(thugs, "Pewter").character, 8 * HOUR)
    assert moved.character.damage == thugs.damage and moved.notes == ()
    assert moved.character.allomancy.pewter.wait == PEWTER_DAY
