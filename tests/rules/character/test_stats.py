"""Reading a sheet: ratings by name, Pewter, Resiliences, defeat penalties, Standing spend (§5, §6)."""

from typing import Any

import pytest

from rules.character import (
    Character,
    Resilience,
    StatKind,
    defeat_penalties,
    defeated_resiliences,
    effective_physique,
    make_character,
    rating_for,
    recover_standing,
    resilience_current,
    resilience_max,
    rollable_names,
    spend_standing,
    standing_available,
    stat_kind,
)
from rules.errors import RulesError
from rules.pool import build_pool


def sheet(**fields: Any) -> Character:
    return make_character({"name": "Carrow", "kind": "villain", "owner_id": 7}, **fields)


CARROW = sheet(
    attributes={"physique": 4, "charm": 3, "wits": 5},
    standings={"resources": 4, "influence": 6, "spirit": 3},
    powers=[
        {"type": "allomancy", "name": "Pewter", "rating": 5},
        {"type": "allomancy", "name": "Steel", "rating": 4},
        {"type": "feruchemy", "name": "Steel", "rating": 3},
        {"type": "hemalurgy", "name": "Strength spike", "rating": 2},
    ],
)
THORROW = sheet(
    name="Thorrow", attributes={"physique": 6}, powers=[{"type": "allomancy", "name": "Pewter", "rating": 5}]
)
PLAIN = sheet(name="Ignus", attributes={"physique": 3})


@pytest.mark.parametrize(
    ("character", "name", "burning", "expected"),
    [
        (CARROW, "Physique", False, 4),
        (CARROW, "physique", True, 9),  # docs/rulings.md §5.5: Physique 4 boosted to 9
        (THORROW, "PHYSIQUE", True, 11),  # 6 + Pewter 5
        (CARROW, "charm", False, 3),
        (CARROW, " Wits ", False, 5),
        (CARROW, "Resources", False, 4),
        (CARROW, "influence", False, 6),
        (CARROW, "Spirit", False, 3),
        (CARROW, "pewter", False, 5),
        (CARROW, "Steel (Allomancy)", False, 4),
        (CARROW, "steel (feruchemy)", False, 3),
        (CARROW, "Feruchemy Steel", False, 3),
        (CARROW, "strength  SPIKE", False, 2),
        (sheet(standings={"resources": 5}, spent={"resources": 2}), "Resources", False, 3),
    ],
)
def test_rating_for(character: Character, name: str, burning: bool, expected: int) -> None:
    assert rating_for(character, name, burning_pewter=burning) == expected


@pytest.mark.parametrize(
    ("character", "name", "message"),
    [
        (CARROW, "steel", "say Steel (Allomancy) or Steel (Feruchemy)"),
        (CARROW, "Tin", "Carrow has no 'Tin' to roll. The sheet has: Physique, Charm, Wits, Resources"),
        (PLAIN, "", "The sheet has: Physique, Charm, Wits, Resources, Influence, Spirit."),
        (PLAIN, "Health", "Ignus has no 'Health' to roll"),
    ],
)
def test_rating_for_unknown_or_ambiguous_names(character: Character, name: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        rating_for(character, name)
    assert message in str(caught.value)


def test_rollable_names_list_every_stat_and_qualify_shared_metals() -> None:
    assert rollable_names(CARROW) == [
        "Physique",
        "Charm",
        "Wits",
        "Resources",
        "Influence",
        "Spirit",
        "Pewter",
        "Steel (Allomancy)",
        "Steel (Feruchemy)",
        "Strength spike",
    ]
    for name in rollable_names(CARROW):
        rating_for(CARROW, name)


@pytest.mark.parametrize(
    ("name", "kind"),
    [("Physique", StatKind.ATTRIBUTE), ("spirit", StatKind.STANDING), ("Pewter", StatKind.POWER)],
)
def test_stat_kind(name: str, kind: StatKind) -> None:
    assert stat_kind(CARROW, name) is kind


@pytest.mark.parametrize(
    ("character", "burning", "physique", "health"),
    [
        (CARROW, False, 4, 8),
        (CARROW, True, 9, 13),  # Carrow's Pewter-boosted Health
        (THORROW, True, 11, 13),
        (PLAIN, False, 3, 5),
    ],
)
def test_burning_pewter_raises_physique_and_health(
    character: Character, burning: bool, physique: int, health: int
) -> None:
    assert effective_physique(character, burning_pewter=burning) == physique
    assert resilience_max(character, Resilience.HEALTH, burning_pewter=burning) == health


def test_burning_pewter_without_pewter_is_refused() -> None:
    feruchemist = sheet(powers=[{"type": "feruchemy", "name": "Pewter", "rating": 3}])
    for character in (PLAIN, feruchemist):
        with pytest.raises(RulesError, match="cannot burn Pewter"):
            effective_physique(character, burning_pewter=True)


@pytest.mark.parametrize(
    ("resilience", "expected"),
    [("health", 4 + 4), ("Reputation", 3 + 6), (Resilience.WILLPOWER, 5 + 3)],
)
def test_resilience_maxima(resilience: Resilience | str, expected: int) -> None:
    assert resilience_max(CARROW, resilience) == expected
    assert resilience_current(CARROW, resilience) == expected


@pytest.mark.parametrize(
    ("damage", "burning", "current"),
    [
        (5, True, 8),
        (5, False, 3),  # damage taken while Pewter burned stays when it stops
        (10, True, 3),
        (10, False, 0),  # and can drop Health to 0 as the boost fades
        (13, True, 0),
    ],
)
def test_current_health_with_and_without_pewter(damage: int, burning: bool, current: int) -> None:
    carrow = CARROW.model_copy(update={"damage": CARROW.damage.with_value(Resilience.HEALTH, damage)})
    assert resilience_current(carrow, "health", burning_pewter=burning) == current


def test_unknown_resilience_is_refused() -> None:
    with pytest.raises(RulesError, match="not a Resilience; choose one of Health, Reputation, Willpower"):
        resilience_max(CARROW, "Stamina")


def _down(character: Character, **damage: int) -> Character:
    return character.model_copy(update={"damage": character.damage.model_copy(update=damage)})


@pytest.mark.parametrize(
    ("damage", "name", "expected"),
    [
        ({}, "Physique", []),
        ({"health": 8}, "Physique", [("Incapacitated (0 Health)", -2)]),
        ({"health": 8}, "Wits", [("Incapacitated (0 Health)", -2)]),
        ({"health": 8}, "Resources", []),
        ({"health": 8}, "Pewter", []),
        ({"health": 7}, "Physique", []),
        ({"reputation": 9}, "influence", [("Disgraced (0 Reputation)", -2)]),
        ({"reputation": 9}, "Charm", []),
        ({"willpower": 8}, "Steel (Allomancy)", [("Devastated (0 Willpower)", -2)]),
        ({"willpower": 8}, "Spirit", []),
    ],
)
def test_defeat_penalties(damage: dict[str, int], name: str, expected: list[tuple[str, int]]) -> None:
    assert defeat_penalties(_down(CARROW, **damage), name) == expected


def test_defeat_penalty_follows_pewter_and_feeds_build_pool() -> None:
    carrow = _down(CARROW, health=10)
    assert defeat_penalties(carrow, "Physique", burning_pewter=True) == []
    penalties = defeat_penalties(carrow, "Physique")
    pool = build_pool(rating_for(carrow, "Physique"), rating_label="Physique", modifiers=penalties)
    assert pool.total == 4 - 2


def test_defeated_resiliences() -> None:
    assert defeated_resiliences(_down(CARROW, health=8, willpower=8)) == [
        Resilience.HEALTH,
        Resilience.WILLPOWER,
    ]
    assert defeated_resiliences(CARROW) == []


def test_extras_take_no_defeat_penalty() -> None:
    mob = make_character(name="Guards", kind="extra", owner_id=7, size=3, members_down=3)
    assert defeat_penalties(mob, "Physique") == []


@pytest.mark.parametrize(
    ("rating", "spent", "after"),
    [(2, 0, 1), (5, 0, 4), (5, 3, 1), (10, 8, 1)],
)
def test_spend_standing_lowers_it_by_one(rating: int, spent: int, after: int) -> None:
    character = sheet(standings={"influence": rating}, spent={"influence": spent})
    spent_once = spend_standing(character, "Influence")
    assert standing_available(spent_once, "influence") == after
    assert rating_for(spent_once, "Influence") == after
    assert resilience_max(spent_once, "Reputation") == resilience_max(character, "Reputation")


@pytest.mark.parametrize(("rating", "spent"), [(2, 1), (5, 4), (10, 9)])
def test_spend_standing_needs_two_or_more(rating: int, spent: int) -> None:
    character = sheet(standings={"spirit": rating}, spent={"spirit": spent})
    with pytest.raises(RulesError, match="Spirit is down to 1; a roll on it needs 2 or more"):
        spend_standing(character, "spirit")


@pytest.mark.parametrize(
    ("standing", "amount", "expected"),
    [
        (None, None, (0, 0, 0)),
        ("Resources", None, (0, 2, 1)),
        ("influence", 1, (3, 1, 1)),
        (None, 1, (2, 1, 0)),
        (None, 10, (0, 0, 0)),
    ],
)
def test_recover_standing(standing: str | None, amount: int | None, expected: tuple[int, int, int]) -> None:
    character = sheet(
        standings={"resources": 6, "influence": 6, "spirit": 6},
        spent={"resources": 3, "influence": 2, "spirit": 1},
    )
    recovered = recover_standing(character, standing, amount)
    assert (recovered.spent.resources, recovered.spent.influence, recovered.spent.spirit) == expected


@pytest.mark.parametrize(("standing", "amount"), [("Wealth", None), (None, -1), (None, 11)])
def test_recover_standing_refuses_bad_input(standing: str | None, amount: int | None) -> None:
    with pytest.raises(RulesError):
        recover_standing(CARROW, standing, amount)
