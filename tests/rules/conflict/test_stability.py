"""Brass cannot touch a kandra blessed with Stability, and Copper shields from Zinc and Brass,
whoever the target (docs/rulings.md §9.3, §9.6): applied by the bot when the table may read
the target's sheet (a Hero's, or a revealed one); a hidden sheet's are the Narrator's (§7.1)."""

from typing import Any

import pytest

from rules.character import Character, make_character
from rules.conflict import Begin, Burn
from tests.rules.conflict.builders import (
    KELL,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_nothing,
    of_type,
    pick,
)


def _with(sheet: Character, **update: Any) -> Character:
    return make_character(**{**sheet.model_dump(exclude={"id"}), **update})


def _table(target: int, revealed: bool, metal: str, blessing: str | None, copper: int) -> Table:
    """The burner (Kelsier, or the Thug when Kelsier is the target) soothes or riots at ``target``."""
    burner = THUG if target == KELL else KELL
    table = Table.start(pick(VIN, KELL, THUG), begin=False)
    table.revealed = frozenset({THUG}) if revealed else frozenset()
    table.sheets[burner] = _with(
        table.sheets[burner], powers=[{"type": "allomancy", "name": metal, "rating": 6}]
    )
    shield = [{"type": "allomancy", "name": "Copper", "rating": copper}] if copper else []
    blessings = [blessing] if blessing else []
    table.sheets[target] = _with(table.sheets[target], powers=shield, hemalurgy={"blessings": blessings})
    table.do(Burn(participant=burner, metal=metal))
    if copper:
        table.do(Burn(participant=target, metal="Copper"))
    table.do(Begin())
    if burner == KELL:  # the Thug (Wits 2) and Vin (4) declare before Kelsier (5)
        table.do(declare_nothing(THUG), declare_nothing(VIN))
    return table


@pytest.mark.parametrize(
    ("target", "revealed", "metal", "refused"),
    [
        (KELL, False, "Brass", True),  # a Hero's sheet is the table's
        (THUG, True, "Brass", True),  # a revealed Villain's too
        (THUG, False, "Brass", False),  # a hidden one's Blessing is the Narrator's secret
        (KELL, False, "Zinc", False),  # Stability is proof against Brass only
        (THUG, True, "Zinc", False),
    ],
)
def test_stability_is_beyond_brass_for_any_readable_target(
    target: int, revealed: bool, metal: str, refused: bool
) -> None:
    table = _table(target, revealed, metal, "stability", 0)
    burner = THUG if target == KELL else KELL
    command = declare_attack(burner, target, stat=metal)
    if refused:
        table.refuse(command, "blessed with Stability: Brass cannot touch them")
    else:
        table.do(command)
        assert of_type(table.last.events, "declared")


@pytest.mark.parametrize(
    ("target", "revealed", "cloud"), [(KELL, False, [-3]), (THUG, True, [-3]), (THUG, False, [])]
)
def test_copper_shields_any_readable_target(target: int, revealed: bool, cloud: list[int]) -> None:
    table = _table(target, revealed, "Zinc", None, 3)
    burner = THUG if target == KELL else KELL
    table.do(declare_attack(burner, target, stat="Zinc"))
    (declared,) = of_type(table.last.events, "declared")
    assert [p.dice for p in declared.pool if p.label == "Copper cloud"] == cloud
