"""Damage, wounds and defeat (docs/rulings.md §5)."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.character import (
    Character,
    DefeatCondition,
    Resilience,
    apply_damage,
    make_character,
    resilience_current,
    resilience_max,
    wound_severity,
)
from rules.character import limits as lim
from rules.errors import RulesError
from tests.rules.character.test_strategies import characters

CARROW = make_character(
    name="Carrow",
    kind="villain",
    owner_id=7,
    attributes={"physique": 4, "charm": 3, "wits": 5},
    standings={"resources": 4, "influence": 6, "spirit": 3},
    powers=[{"type": "allomancy", "name": "Pewter", "rating": 5}],
)


@pytest.mark.parametrize(
    ("before", "damage", "expected"),
    [
        (13, 5, Severity.SERIOUS),  # Carrow: ceil(13/2)=7 > 5, ceil(13/4)=4 <= 5
        (13, 7, Severity.GRAVE),
        (13, 6, Severity.SERIOUS),
        (13, 4, Severity.SERIOUS),
        (13, 3, None),
        (8, 4, Severity.GRAVE),
        (8, 3, Severity.SERIOUS),
        (8, 2, Severity.SERIOUS),
        (8, 1, None),
        (5, 3, Severity.GRAVE),
        (5, 2, Severity.SERIOUS),
        (3, 2, Severity.GRAVE),
        (3, 1, Severity.SERIOUS),
        (2, 1, Severity.GRAVE),
        (1, 1, Severity.GRAVE),
        (30, 7, None),
        (30, 8, Severity.SERIOUS),
        (30, 15, Severity.GRAVE),
        (8, 0, None),
        (0, 3, None),
    ],
)
def test_wound_severity(before: int, damage: int, expected: Severity | None) -> None:
    assert wound_severity(before, damage) is expected


def test_carrow_takes_five_while_burning_pewter() -> None:
    result = apply_damage(CARROW, "health", 5, burning_pewter=True)
    assert (result.before, result.taken, result.after) == (13, 5, 8)
    assert result.wound is Severity.SERIOUS
    assert [(b.name, b.severity) for b in result.burdens_added] == [("Wounded (Health)", Severity.SERIOUS)]
    assert result.character.burdens == result.burdens_added
    assert not result.defeated
    assert resilience_current(result.character, "health", burning_pewter=True) == 8
    # When the Pewter goes out the damage stays: 8 - 5.
    assert resilience_current(result.character, "health") == 3


@pytest.mark.parametrize(
    ("resilience", "amount", "before", "after", "wound", "condition"),
    [
        ("health", 1, 8, 7, None, None),
        ("health", 2, 8, 6, Severity.SERIOUS, None),
        ("health", 4, 8, 4, Severity.GRAVE, None),
        ("health", 8, 8, 0, Severity.GRAVE, DefeatCondition.INCAPACITATED),
        ("health", 20, 8, 0, Severity.GRAVE, DefeatCondition.INCAPACITATED),
        ("Reputation", 3, 9, 6, Severity.SERIOUS, None),
        ("reputation", 9, 9, 0, Severity.GRAVE, DefeatCondition.DISGRACED),
        (Resilience.WILLPOWER, 8, 8, 0, Severity.GRAVE, DefeatCondition.DEVASTATED),
        ("willpower", 0, 8, 8, None, None),
    ],
)
def test_apply_damage(
    resilience: str,
    amount: int,
    before: int,
    after: int,
    wound: Severity | None,
    condition: DefeatCondition | None,
) -> None:
    result = apply_damage(CARROW, resilience, amount)
    assert (result.before, result.after, result.taken) == (before, after, before - after)
    assert result.wound is wound
    assert result.defeated is (condition is not None)
    assert result.condition is condition
    assert resilience_current(result.character, resilience) == after
    assert len(result.character.burdens) == (wound is not None)


@pytest.mark.parametrize(
    ("choice", "expected"),
    [
        (None, [("Wounded (Health)", Severity.GRAVE)]),
        (Severity.GRAVE, [("Wounded (Health)", Severity.GRAVE), ("Incapacitated", Severity.GRAVE)]),
        ("mortal", [("Wounded (Health)", Severity.GRAVE), ("Incapacitated", Severity.MORTAL)]),
    ],
)
def test_defeat_burden_is_the_attackers_choice(choice: Severity | str | None, expected: list[Any]) -> None:
    result = apply_damage(CARROW, "health", 8, defeat_burden=choice)
    assert [(b.name, b.severity) for b in result.character.burdens] == expected


def test_defeat_burden_only_applies_when_the_attack_defeats() -> None:
    result = apply_damage(CARROW, "health", 3, defeat_burden=Severity.MORTAL)
    assert [b.name for b in result.character.burdens] == ["Wounded (Health)"]


def test_a_serious_defeat_burden_is_refused() -> None:
    with pytest.raises(RulesError, match="Grave or Mortal Burden, or none"):
        apply_damage(CARROW, "health", 8, defeat_burden=Severity.SERIOUS)


def test_repeated_wounds_get_numbered_names() -> None:
    character = CARROW
    for _ in range(3):
        character = apply_damage(character, "willpower", 2).character
    assert [b.name for b in character.burdens] == [
        "Wounded (Willpower)",
        "Wounded (Willpower) 2",
        "Wounded (Willpower) 3",
    ]


def test_an_attack_on_a_defeated_resilience_changes_nothing() -> None:
    down = apply_damage(CARROW, "health", 8).character
    again = apply_damage(down, "health", 5, defeat_burden=Severity.MORTAL)
    assert again.already_defeated and not again.defeated
    assert (again.taken, again.wound, again.burdens_added) == (0, None, ())
    assert again.character == down


def test_a_full_sheet_reports_the_wound_it_could_not_add() -> None:
    full = make_character(
        CARROW.model_dump(),
        burdens=[{"name": f"Old {i}", "severity": "serious"} for i in range(lim.BURDENS_MAX)],
    )
    result = apply_damage(full, "health", 8, defeat_burden="grave")
    assert result.defeated and result.burdens_added == ()
    assert [b.name for b in result.burdens_skipped] == ["Wounded (Health)", "Incapacitated"]
    assert result.character.burdens == full.burdens


@pytest.mark.parametrize(
    ("size", "down", "amount", "lost", "left", "defeated"),
    [
        (1, 0, 1, 1, 0, True),  # a lone Extra falls to 1 damage
        (1, 0, 4, 1, 0, True),
        (1, 0, 0, 0, 1, False),
        (5, 0, 2, 2, 3, False),  # one member per point
        (5, 3, 2, 2, 0, True),
        (5, 3, 6, 2, 0, True),
        (5, 5, 1, 0, 0, False),
    ],
)
def test_extras_lose_members(size: int, down: int, amount: int, lost: int, left: int, defeated: bool) -> None:
    mob = make_character(name="House guards", kind="extra", owner_id=7, size=size, members_down=down)
    result = apply_damage(mob, "health", amount, defeat_burden=Severity.MORTAL)
    assert (result.members_lost, result.after, result.defeated) == (lost, left, defeated)
    assert result.character.members_left == left
    assert result.character.size == size
    assert result.wound is None and result.character.burdens == ()
    assert result.condition is (DefeatCondition.INCAPACITATED if defeated else None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("stamina", 3), "not a Resilience"),
        (("health", -1), "from 0 to 99"),
        (("health", 100), "from 0 to 99"),
        (("health", 2.5), "whole number"),
        (("health", True), "whole number"),
    ],
)
def test_apply_damage_refuses_bad_input(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        apply_damage(CARROW, *args)


def test_burning_pewter_needs_pewter() -> None:
    plain = make_character(name="Ignus", kind="villain", owner_id=7)
    with pytest.raises(RulesError, match="cannot burn Pewter"):
        apply_damage(plain, "health", 2, burning_pewter=True)


@settings(suppress_health_check=[HealthCheck.too_slow])  # whole sheets are slow to draw on a busy machine
@given(
    characters(),
    st.sampled_from(list(Resilience)),
    st.lists(st.integers(0, 99), min_size=1, max_size=6),
    st.booleans(),
)
def test_damage_never_makes_a_resilience_negative(
    character: Character, resilience: Resilience, hits: list[int], pewter: bool
) -> None:
    pewter = pewter and any(p.name == "Pewter" and p.type.value == "allomancy" for p in character.powers)
    for amount in hits:
        before = (
            character.members_left
            if character.is_extra
            else resilience_current(character, resilience, pewter)
        )
        result = apply_damage(
            character, resilience, amount, defeat_burden=Severity.GRAVE, burning_pewter=pewter
        )
        character = result.character
        after = resilience_current(character, resilience, pewter)
        assert 0 <= after <= resilience_max(character, resilience, pewter)
        if character.is_extra:
            assert result.after == character.members_left >= 0
        else:
            assert result.after == after
        assert result.before == before
        assert result.taken == before - result.after <= amount
        assert result.defeated is (before > 0 and result.after == 0)
        assert Character.model_validate(character.model_dump()) == character
        assert all(0 <= character.damage.get(r) <= lim.DAMAGE_MAX for r in Resilience)
        assert len(character.burdens) <= lim.BURDENS_MAX
