"""A Zinc or Bronze tap for the declaring order (docs/rulings.md §9.4): +1 Wits a charge, from the
next round's order and for that round only; spent at the declaration, buying no dice."""

import pytest

from rules.character import Character, make_character
from rules.character.feruchemy import MindSize
from rules.conflict import NextRound, Switch, declaration_order
from rules.conflict.order import declaration_key
from rules.conflict.quickened import next_round_wits, quickened
from rules.conflict.specs import TapSpec
from rules.powers.feruchemy import TapEffect, TapUse
from tests.rules.conflict.builders import (
    BRUTE,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    of_type,
    pick,
)

MIND = 40


def zinc_keeper(thug: Character, metal: str = "Zinc") -> Character:
    """The Thug (Wits 2) as a Keeper of ``metal`` at 3, with a metalmind of 40."""
    data = thug.model_dump(exclude={"id"})
    data["powers"] = [{"type": "feruchemy", "name": metal, "rating": 3}]
    mind = {"kind": "metalmind", "metal": metal, "size": MindSize.AVERAGE, "charges": MIND}
    data["props"] = [*data["props"], {"name": f"{metal} ring", "implement": mind}]
    return make_character(data)


def table(metal: str = "Zinc") -> Table:
    sheets = pick(VIN, THUG, BRUTE)
    sheets[THUG] = zinc_keeper(sheets[THUG], metal)
    return Table.start(sheets)


def order(t: Table) -> list[int]:
    return [p.id for p in declaration_order(t.state)]


@pytest.mark.parametrize(
    ("tapped", "waiting", "counted", "now", "later"),
    [
        (0, 0, 0, 0, 0),
        (3, 0, 0, 3, 0),
        (3, 2, 0, 5, 0),  # a changed declaration taps anew: both count
    ],
)
def test_a_tap_waits_for_the_next_round_then_counts_once(
    tapped: int, waiting: int, counted: int, now: int, later: int
) -> None:
    t = table()
    thug = t.p(THUG).model_copy(update={"next_round_wits": waiting, "wits_tapped": counted})
    effect = TapEffect(metal="Zinc", charges=tapped, wits=tapped) if tapped else None
    after = thug.model_copy(update=quickened(thug, effect))
    assert after.next_round_wits == now and after.wits_tapped == counted
    opened = after.model_copy(update=next_round_wits(after))
    assert (opened.wits_tapped, opened.next_round_wits) == (now, later)
    assert declaration_key(opened)[2] == 2 + now


@pytest.mark.parametrize(
    ("metal", "charges", "second_round"),
    [
        ("Zinc", 3, [BRUTE, VIN, THUG]),  # Wits 2 + 3 = 5: after Brute (3) and Vin (4)
        ("Bronze", 1, [THUG, BRUTE, VIN]),  # 2 + 1 = 3 ties the Brute: join order first
        ("Zinc", 10, [BRUTE, VIN, THUG]),
    ],
)
def test_a_keeper_declares_later_from_the_next_round(
    metal: str, charges: int, second_round: list[int]
) -> None:
    t = table(metal)
    assert order(t) == [THUG, BRUTE, VIN]
    tap = TapSpec(metal=metal, charges=charges, use=TapUse.WITS)
    events = t.do(declare_defence(THUG, tap=tap))
    (moved,) = of_type(events, "charges_moved")
    assert f"+{charges} Wits to declare by next round" in " ".join(moved.notes)
    assert t.dice(THUG) == (0, 5)  # Physique 5: the tap buys no dice
    assert order(t) == [THUG, BRUTE, VIN]  # this round's order stands
    t.do(declare_defence(BRUTE), declare_defence(VIN), NextRound())
    assert order(t) == second_round
    t.do(*(declare_defence(pid) for pid in second_round), NextRound())
    assert order(t) == [THUG, BRUTE, VIN]  # one round only


@pytest.mark.parametrize(
    ("kept", "tapped", "refusal"),
    [("Steel", "Steel", "Only Zinc or Bronze"), ("Steel", "Zinc", "no Feruchemical Zinc")],
)
def test_only_zinc_or_bronze_is_tapped_for_wits(kept: str, tapped: str, refusal: str) -> None:
    t = table(kept)
    t.refuse(declare_defence(THUG, tap=TapSpec(metal=tapped, charges=5, use=TapUse.WITS)), refusal)


def test_a_switch_cannot_tap_for_wits() -> None:
    t = table()
    t.do(declare_attack(THUG, VIN), declare_defence(BRUTE), declare_defence(VIN))
    switch = Switch(
        participant=THUG,
        action=declare_attack(THUG, BRUTE).action,
        dice=declare_attack(THUG, BRUTE, tap=TapSpec(metal="Zinc", charges=5, use=TapUse.WITS)).dice,
    )
    t.refuse(switch, "tap it when you declare")
