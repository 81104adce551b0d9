"""Healing, Breathers and daily recovery (docs/rulings.md §5)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.character import (
    BreatherKind,
    Character,
    Resilience,
    Standing,
    apply_damage,
    breather,
    daily_recovery,
    heal,
    long_breather,
    make_character,
    resilience_current,
    resilience_lost,
    resilience_max,
    short_breather,
)
from rules.errors import RulesError
from tests.rules.character.test_strategies import characters

BASE: dict[str, Any] = {
    "name": "Koel",
    "kind": "hero",
    "owner_id": 3,
    "attributes": {"physique": 4, "charm": 5, "wits": 4},
    "standings": {"resources": 4, "influence": 4, "spirit": 4},
    "powers": [{"type": "allomancy", "name": "Pewter", "rating": 3}],
}
# Health 8, Reputation 9, Willpower 8.


def hurt(health: int = 0, reputation: int = 0, willpower: int = 0, **fields: Any) -> Character:
    damage = {"health": health, "reputation": reputation, "willpower": willpower}
    return make_character(BASE, damage=damage, **fields)


def currents(character: Character) -> tuple[int, ...]:
    return tuple(resilience_current(character, r) for r in Resilience)


@pytest.mark.parametrize(
    ("damage", "resilience", "amount", "expected"),
    [
        (5, "health", 2, 3 + 2),
        (5, "health", 5, 8),
        (5, "health", 20, 8),  # never past the maximum
        (0, "health", 3, 8),
        (5, "Health", 0, 3),
        (12, "health", 1, 1),  # damage beyond the maximum (Pewter gone) is forgotten first
    ],
)
def test_heal(damage: int, resilience: str, amount: int, expected: int) -> None:
    assert resilience_current(heal(hurt(health=damage), resilience, amount), "health") == expected


def test_heal_while_burning_pewter_uses_the_boosted_maximum() -> None:
    koel = hurt(health=10)
    healed = heal(koel, "health", 2, burning_pewter=True)
    assert resilience_current(healed, "health", burning_pewter=True) == 11 - 8
    assert resilience_current(healed, "health") == 0


@pytest.mark.parametrize(
    ("args", "message"), [(("luck", 1), "not a Resilience"), (("health", -2), "Healing")]
)
def test_heal_refuses_bad_input(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        heal(hurt(health=3), *args)


def test_heal_on_extras_brings_members_back() -> None:
    mob = make_character(name="Guards", kind="extra", owner_id=3, size=4, members_down=3)
    assert heal(mob, "health", 2).members_left == 3
    assert heal(mob, "willpower", 9).members_left == 4


@pytest.mark.parametrize(
    ("damage", "resting", "expected", "restored"),
    [
        ((5, 5, 5), False, (3, 4 + 3, 3 + 3), (0, 3, 3)),  # half of 5 rounds up to 3
        ((5, 5, 5), True, (3 + 3, 7, 6), (3, 3, 3)),
        ((4, 9, 8), True, (6, 4 + 1, 4), (2, 5, 4)),
        ((1, 1, 1), False, (7, 9, 8), (0, 1, 1)),
        ((0, 0, 0), True, (8, 9, 8), (0, 0, 0)),
    ],
)
def test_short_breather(
    damage: tuple[int, int, int], resting: bool, expected: tuple[int, ...], restored: tuple[int, ...]
) -> None:
    result = short_breather(hurt(*damage), resting=resting)
    assert currents(result.character) == expected
    assert tuple(result.restored[r] for r in Resilience) == restored
    assert result.eased_burden is None


@pytest.mark.parametrize(
    ("burdens", "named", "eased", "eased_to", "left"),
    [
        ([], None, None, None, []),
        ([("Limp", "serious")], None, "Limp", None, []),
        (
            [("Limp", "serious"), ("Gash", "grave")],
            None,
            "Gash",
            Severity.SERIOUS,
            [("Limp", "serious"), ("Gash", "serious")],
        ),
        ([("Limp", "serious"), ("Gash", "grave")], "limp", "Limp", None, [("Gash", "grave")]),
        ([("Curse", "mortal")], None, None, None, [("Curse", "mortal")]),
        ([("Curse", "mortal"), ("Cut", "serious")], None, "Cut", None, [("Curse", "mortal")]),
    ],
)
def test_long_breather_restores_all_and_eases_one_burden(
    burdens: list[tuple[str, str]],
    named: str | None,
    eased: str | None,
    eased_to: Severity | None,
    left: list[tuple[str, str]],
) -> None:
    character = hurt(7, 9, 8, burdens=[{"name": n, "severity": s} for n, s in burdens])
    result = long_breather(character, named)
    assert currents(result.character) == (8, 9, 8)
    assert tuple(result.restored[r] for r in Resilience) == (7, 9, 8)
    assert (result.eased_burden, result.eased_to) == (eased, eased_to)
    assert [(b.name, b.severity.value) for b in result.character.burdens] == left


@pytest.mark.parametrize(("named", "message"), [("Curse", "Mortal"), ("Nothing", "no Burden called")])
def test_long_breather_refuses_mortal_or_unknown_burdens(named: str, message: str) -> None:
    character = hurt(burdens=[{"name": "Curse", "severity": "mortal"}])
    with pytest.raises(RulesError, match=message):
        long_breather(character, named)


@pytest.mark.parametrize(
    ("damage", "expected"),
    [((3, 0, 8), (6, 9, 1)), ((0, 0, 0), (8, 9, 8)), ((8, 9, 8), (1, 1, 1))],
)
def test_daily_recovery_gives_a_point_each(damage: tuple[int, int, int], expected: tuple[int, ...]) -> None:
    assert currents(daily_recovery(hurt(*damage)).character) == expected


def test_extras_members_stay_down_through_breathers() -> None:
    mob = make_character(name="Guards", kind="extra", owner_id=3, size=4, members_down=2)
    for result in (short_breather(mob, resting=True), long_breather(mob), daily_recovery(mob)):
        assert result.character.members_left == 2
        assert set(result.restored.values()) == {0}


def test_wound_then_long_breather_round_trip() -> None:
    wounded = apply_damage(hurt(), "health", 4, defeat_burden=None).character
    assert wounded.burdens[0].severity is Severity.GRAVE
    rested = long_breather(wounded).character
    assert rested.burdens[0].severity is Severity.SERIOUS
    assert long_breather(rested).character.burdens == ()


@given(characters(), st.sampled_from(list(Resilience)), st.integers(0, 99), st.booleans())
def test_heal_never_exceeds_the_maximum(
    character: Character, resilience: Resilience, amount: int, pewter: bool
) -> None:
    pewter = pewter and any(p.name == "Pewter" and p.type.value == "allomancy" for p in character.powers)
    before = resilience_current(character, resilience, pewter)
    healed = heal(character, resilience, amount, burning_pewter=pewter)
    top = resilience_max(healed, resilience, pewter)
    after = resilience_current(healed, resilience, pewter)
    assert before <= after <= top
    if not character.is_extra:
        assert after == min(top, before + amount)
    assert Character.model_validate(healed.model_dump()) == healed


@given(characters(), st.booleans())
def test_breathers_only_ever_restore(character: Character, resting: bool) -> None:
    short = short_breather(character, resting=resting)
    long = long_breather(character)
    for r in Resilience:
        lost = resilience_lost(character, r)
        assert resilience_current(short.character, r) >= resilience_current(character, r)
        if not character.is_extra:
            assert resilience_lost(long.character, r) == 0
            assert short.restored[r] == (0 if r is Resilience.HEALTH and not resting else (lost + 1) // 2)
    assert len(long.character.burdens) >= len(character.burdens) - 1


@pytest.mark.parametrize(
    ("kind", "resting", "spent", "restored"),
    [
        (BreatherKind.SHORT, False, {"influence": 2}, (3, 7, 8)),
        (BreatherKind.SHORT, True, {"resources": 1, "spirit": 3}, (6, 7, 8)),
        (BreatherKind.LONG, False, {}, (8, 9, 8)),
    ],
)
def test_a_breather_brings_back_spent_standings(
    kind: BreatherKind, resting: bool, spent: dict[str, int], restored: tuple[int, ...]
) -> None:
    character = hurt(health=5, reputation=4, spent=spent)
    result = breather(character, kind, resting=resting)
    assert currents(result.character) == restored
    assert all(result.character.spent.get(s) == 0 for s in Standing)
    assert {s.value: n for s, n in result.standings.items()} == spent


def test_a_short_breather_eases_no_burden() -> None:
    with pytest.raises(RulesError, match="Only a Long Breather"):
        breather(hurt(), BreatherKind.SHORT, burden="Anything")
