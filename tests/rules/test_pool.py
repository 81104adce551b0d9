"""Forming pools (docs/rulings.md §1)."""

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.errors import RulesError
from rules.pool import Pool, Source, build_pool


@pytest.mark.parametrize(
    ("kwargs", "total", "dice", "free", "underflow", "labels"),
    [
        # The seed's worked number: twelve dice roll ten, with two free Nudges.
        ({"rating": 12}, 12, 10, 2, 0, ["Dice"]),
        ({"rating": 10}, 10, 10, 0, 0, ["Dice"]),
        ({"rating": 2}, 2, 2, 0, 0, ["Dice"]),
        ({"rating": 1}, 1, 2, 0, 1, ["Dice"]),
        # A pool of 0 rolls two dice at -2.
        ({"rating": 0}, 0, 2, 0, 2, ["Dice"]),
        (
            {"rating": 4, "rating_label": "Physique", "traits_for": 2, "tool": 1},
            7,
            7,
            0,
            0,
            ["Physique", "2 Traits", "Tool"],
        ),
        # Keep Hasting: Ignus defends with Physique 3 + a Trait + the table as a Tool.
        ({"rating": 3, "rating_label": "Physique", "traits_for": 1, "tool": 1}, 5, 5, 0, 0, None),
        # Carrow: Physique 4 + Pewter 5 + a Trait, two adverse conditions cost a die.
        (
            {
                "rating": 4,
                "rating_label": "Physique",
                "traits_for": 1,
                "circumstances": -1,
                "modifiers": [("Pewter", 5)],
            },
            9,
            9,
            0,
            0,
            ["Physique", "Trait", "Circumstances", "Pewter"],
        ),
        # Thorrow: Physique 6 + Pewter 5 + "spear fighter" is 12 Action Dice.
        (
            {"rating": 6, "rating_label": "Physique", "traits_for": 1, "modifiers": [("Pewter", 5)]},
            12,
            10,
            2,
            0,
            None,
        ),
        # Hindering Traits cut the pool; Burdens only add.
        ({"rating": 3, "traits_against": 2}, 1, 2, 0, 1, ["Dice", "2 hindering Traits"]),
        (
            {"rating": 2, "burdens": [Severity.SERIOUS, Severity.GRAVE, Severity.MORTAL]},
            8,
            8,
            0,
            0,
            ["Dice", "Serious Burden", "Grave Burden", "Mortal Burden"],
        ),
        # Defeat penalty as a named modifier, and a zero modifier left out.
        ({"rating": 3, "modifiers": [("Incapacitated", -2), ("Nothing", 0)]}, 1, 2, 0, 1, None),
        ({"rating": 5, "tool": -1, "circumstances": 1}, 5, 5, 0, 0, ["Dice", "Tool", "Circumstances"]),
    ],
)
def test_build_pool(
    kwargs: dict[str, Any], total: int, dice: int, free: int, underflow: int, labels: list[str] | None
) -> None:
    pool = build_pool(**kwargs)
    assert (pool.total, pool.dice, pool.free_nudges, pool.underflow) == (total, dice, free, underflow)
    assert sum(c.dice for c in pool.contributions) == total
    if labels is not None:
        assert [c.label for c in pool.contributions] == labels


def test_contributions_keep_their_sources_and_signs() -> None:
    pool = build_pool(4, rating_label="Physique", traits_for=1, traits_against=1, tool=-1)
    assert [(c.source, c.dice) for c in pool.contributions] == [
        (Source.RATING, 4),
        (Source.TRAIT, 1),
        (Source.TRAIT, -1),
        (Source.TOOL, -1),
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rating": 50}, "between 0 and 20"),
        ({"rating": -1}, "between 0 and 20"),
        ({"rating": 3, "tool": 2}, "Tools"),
        ({"rating": 3, "tool": -3}, "Tools"),
        ({"rating": 3, "circumstances": 2}, "Circumstances"),
        ({"rating": 3, "traits_for": -1}, "Supporting Traits"),
        ({"rating": 3, "traits_against": 11}, "Hindering Traits"),
        ({"rating": 3, "modifiers": [("Luck", 11)]}, "Luck"),
        ({"rating": 3, "modifiers": [("  ", 1)]}, "needs a name"),
        ({"rating": 3, "modifiers": [("x" * 41, 1)]}, "too long"),
        ({"rating": 3, "rating_label": ""}, "needs a name"),
        ({"rating": 3, "burdens": [Severity.SERIOUS] * 11}, "Burdens"),
        ({"rating": 3, "modifiers": [("m", 1)] * 11}, "modifiers"),
    ],
)
def test_bad_pools_explain_themselves(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        build_pool(**kwargs)


def test_of_dice_is_a_bare_count() -> None:
    assert Pool.of_dice(5) == build_pool(5)


@given(
    rating=st.integers(0, 20),
    traits_for=st.integers(0, 10),
    traits_against=st.integers(0, 10),
    burdens=st.lists(st.sampled_from(Severity), max_size=10),
    tool=st.sampled_from([-1, 0, 1]),
    circumstances=st.sampled_from([-1, 0, 1]),
    modifiers=st.lists(st.tuples(st.sampled_from(["Pewter", "Defeat"]), st.integers(-10, 10)), max_size=10),
)
def test_pool_invariants(
    rating: int,
    traits_for: int,
    traits_against: int,
    burdens: list[Severity],
    tool: int,
    circumstances: int,
    modifiers: list[tuple[str, int]],
) -> None:
    pool = build_pool(
        rating,
        traits_for=traits_for,
        traits_against=traits_against,
        burdens=burdens,
        tool=tool,
        circumstances=circumstances,
        modifiers=modifiers,
    )
    assert 2 <= pool.dice <= 10
    assert pool.dice + pool.free_nudges - pool.underflow == pool.total
    assert pool.free_nudges == 0 or pool.underflow == 0
    assert pool.total == sum(c.dice for c in pool.contributions)
