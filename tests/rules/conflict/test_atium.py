"""Atium, Electrum and metal in hand in a Conflict (docs/rulings.md §9.3, §9.7): Atium's dice on
every declared roll and its place in both orders, Electrum's Defense Dice and its cut of Atium,
Atium Advantage on the defence, a held object wrested against Physique (or the holder's
metal), and anchoring's Health."""

from typing import Any

import pytest

from rules.character import Character, Resilience, make_character
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Burn,
    Declare,
    DiceSpec,
    NextRound,
    Reorder,
    declaration_order,
    resolve_order,
)
from rules.conflict import Defend as DefendCommand
from rules.powers.pushes import ObjectSize
from tests.rules.conflict.builders import (
    BRUTE,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
)


def with_metals(character: Character, *metals: tuple[str, int], stunts: tuple[str, ...] = ()) -> Character:
    """``character`` with Allomantic ``metals`` (name, rating), the last taking ``stunts``."""
    data = character.model_dump(exclude={"id"})
    powers = [{"type": "allomancy", "name": m, "rating": r} for m, r in metals]
    if stunts:
        powers[-1]["stunts"] = list(stunts)
    data["powers"] = [*data["powers"], *powers]
    return make_character(data)


def table_of(burns: dict[int, tuple[str, ...]], metals: dict[int, list[tuple[str, int]]], **kw: Any) -> Table:
    sheets = pick(VIN, THUG, BRUTE)
    stunts: tuple[str, ...] = kw.pop("stunts", ())
    for pid, held in metals.items():
        sheets[pid] = with_metals(sheets[pid], *held, stunts=stunts if pid == VIN else ())
    table = Table.start(sheets, **kw)
    for pid, lit in burns.items():
        for metal in lit:
            table.do(Burn(participant=pid, metal=metal))
    return table


@pytest.mark.parametrize(
    ("thug_electrum", "expected"),
    [(None, 4 + 5), (2, 4 + 3), (5, 4), (7, 4)],
)
def test_atium_adds_its_rating_to_the_dice_less_the_targets_electrum(
    thug_electrum: int | None, expected: int
) -> None:
    """§9.3: Atium's rating on every rolled action; an opponent's Electrum cuts it, never below 0."""
    metals: dict[int, list[tuple[str, int]]] = {VIN: [("Atium", 5)]}
    burns: dict[int, tuple[str, ...]] = {VIN: ("Atium",)}
    if thug_electrum is not None:
        metals[THUG] = [("Electrum", thug_electrum)]
        burns[THUG] = ("Electrum",)
    table = table_of(burns, metals)
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG))
    assert table.dice(VIN)[0] == expected
    labels = [part.label for part in table.declaration(VIN).pool]
    assert ("Atium" in labels) == (expected > 4)


def test_atium_adds_to_a_full_defence_too() -> None:
    table = table_of({VIN: ("Atium",)}, {VIN: [("Atium", 3)]})
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_defence(VIN))
    assert table.dice(VIN) == (0, 4 + 3)


def test_an_atium_burner_declares_after_and_resolves_before_those_who_do_not_burn_it() -> None:
    """Wits 2, 3, 4 declare in that order; the Thug (Wits 2) burning Atium declares last, and
    resolves first with fewer Action Dice than the others."""
    table = table_of({THUG: ("Atium",)}, {THUG: [("Atium", 2)]})
    assert [p.id for p in declaration_order(table.state)] == [BRUTE, VIN, THUG]
    table.refuse(Reorder(order=(THUG, BRUTE, VIN)), "burns no Atium and must declare before")
    table.do(declare_attack(BRUTE, VIN), declare_attack(VIN, THUG, traits_for=2), declare_attack(THUG, VIN))
    assert table.dice(THUG)[0] == 5 + 2 < table.dice(VIN)[0] + 2
    assert resolve_order(table.state)[0] == (THUG,)


def test_electrum_gives_its_rating_in_defense_dice_when_declaring() -> None:
    table = table_of({BRUTE: ("Electrum",)}, {BRUTE: [("Electrum", 3)]})
    events = table.do(declare_nothing(THUG), declare_attack(BRUTE, VIN))
    assert table.dice(BRUTE) == (6, 3)
    (declared,) = [e for e in of_type(events, "declared") if e.participant == BRUTE]
    assert declared.electrum == 3


@pytest.mark.parametrize(("committed", "rolled"), [(4, 2), (3, 2), (2, 2), (6, 4)])
def test_atium_advantage_takes_two_dice_off_the_defence(committed: int, rolled: int) -> None:
    """§9.7: whoever defends against an Atium burner with the Stunt rolls 2 fewer (a pool under 2
    rolls 2, §1)."""
    table = table_of({VIN: ("Atium",)}, {VIN: [("Atium", 2)]}, stunts=("Atium Advantage",))
    table.do(declare_defence(THUG, traits_for=3), declare_defence(BRUTE), declare_attack(VIN, THUG))
    table.do(Act(participant=VIN, pool=4))
    events = table.do(DefendCommand(participant=THUG, dice=committed))
    (resolved,) = of_type(events, "resolved")
    assert len(resolved.contest.opposing.faces) == rolled
    assert table.dice(THUG)[1] == 8 - committed  # the pile pays what was committed


def held(target: int, **action: Any) -> Declare:
    return Declare(
        participant=VIN,
        action=ActionSpec(kind=ActionKind.ACTION, target=target, held=True, **action),
        dice=DiceSpec(stat="Steel"),
    )


@pytest.mark.parametrize(
    ("thug_burns", "label", "granted"),
    [((), "Physique", 5), (("Steel",), "Steel", 6), (("Iron",), "Physique", 5)],
)
def test_a_held_object_is_a_contest_against_physique_or_the_holders_metal(
    thug_burns: tuple[str, ...], label: str, granted: int
) -> None:
    """§9.3: a busy holder defends with Physique, or their Steel or Iron if higher and burning."""
    metals = {THUG: [("Steel", 6), ("Iron", 4)]}
    table = table_of({VIN: ("Steel",), THUG: thug_burns}, metals)
    table.do(declare_nothing(THUG), declare_defence(BRUTE), held(THUG))
    table.do(Act(participant=VIN, pool=5))
    events = table.do(DefendCommand(participant=THUG, dice=2, attack_faces=(4, 4, 1, 2, 3)))
    (grant,) = of_type(events, "defence_granted")
    assert (grant.pool[0].label, grant.dice) == (label, granted)


def test_winning_the_contest_wrests_the_object() -> None:
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE), held(THUG))
    table.do(Act(participant=VIN, pool=5))
    events = table.do(
        DefendCommand(participant=THUG, dice=2, attack_faces=(5, 5, 1, 2, 3), defence_faces=(1, 2))
    )
    (resolved,) = of_type(events, "resolved")
    assert resolved.success and resolved.wrested
    assert not of_type(events, "damage_dealt")


@pytest.mark.parametrize(
    ("action", "burns", "refusal"),
    [
        ({}, (), "must be burning Steel or Iron"),
        ({"target": None}, ("Steel",), "needs a target"),
    ],
)
def test_only_a_steel_or_iron_burner_wrests_from_someone(
    action: dict[str, Any], burns: tuple[str, ...], refusal: str
) -> None:
    table = table_of({VIN: burns}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    spec = {"kind": ActionKind.ACTION, "target": THUG, "held": True, **action}
    table.refuse(Declare(participant=VIN, action=ActionSpec(**spec), dice=DiceSpec(stat="Steel")), refusal)


def test_a_held_object_is_no_attack() -> None:
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.refuse(declare_attack(VIN, THUG, stat="Steel", held=True), "declare it as an action")


@pytest.mark.parametrize("how", ["push", "held"])
def test_anchoring_costs_the_pusher_one_health_when_the_push_is_made(how: str) -> None:
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    if how == "push":
        table.do(declare_attack(VIN, THUG, stat="Steel", push=ObjectSize.LARGE, anchored=True))
    else:
        table.do(held(THUG, anchored=True))
    assert table.sheets[VIN].damage.get(Resilience.HEALTH) == 0
    events = table.do(Act(participant=VIN, pool=5))
    (anchored,) = of_type(events, "anchored")
    assert table.sheets[VIN].damage.get(Resilience.HEALTH) == 1
    assert anchored.health == 4 + 4 - 1  # Physique + Resources, less the anchoring


@pytest.mark.parametrize(("lit", "health"), [(("Steel",), 8), (("Steel", "Pewter"), 8 + 3)])
def test_anchoring_to_no_health_defeats_once_and_ends_every_burn(lit: tuple[str, ...], health: int) -> None:
    """§9.3, §9.2: the last point of Health (Pewter's boost counted) goes to the anchors."""
    table = table_of({VIN: lit}, {})
    hurt = table.sheets[VIN].damage.with_value(Resilience.HEALTH, health - 1)
    table.sheets[VIN] = table.sheets[VIN].model_copy(update={"damage": hurt})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.do(declare_attack(VIN, THUG, stat="Steel", push=ObjectSize.SMALL, anchored=True))
    events = table.do(Act(participant=VIN, pool=5))
    (anchored,) = of_type(events, "anchored")
    assert anchored.health == 0 and len(of_type(events, "defeated")) == 1
    assert table.sheets[VIN].allomancy.burning == () and table.p(VIN).burning == ()
    assert table.p(VIN).defeated and table.state.pending is not None  # the push still flies


def test_anchoring_needs_a_push() -> None:
    table = table_of({VIN: ("Steel",)}, {})
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    table.refuse(declare_attack(VIN, THUG, stat="Steel", anchored=True), "braces on anchors")


def test_atium_pays_each_round_and_its_place_goes_when_it_runs_dry() -> None:
    """§9.2: Atium costs its Conflict charge and 1 each new round; when it cannot be paid it
    ends, and the Thug declares by his Wits again (§9.3)."""
    sheets = pick(VIN, THUG, BRUTE)
    data = with_metals(sheets[THUG], ("Atium", 2)).model_dump(exclude={"id"})
    data["allomancy"] = {"tracked": True, "reserves": [{"metal": "Atium", "charges": 2}]}
    sheets[THUG] = make_character(data)
    table = Table.start(sheets)
    table.do(Burn(participant=THUG, metal="Atium"))
    assert table.sheets[THUG].allomancy.charges("Atium") == 1
    everyone = (declare_nothing(BRUTE), declare_nothing(VIN), declare_nothing(THUG))
    table.do(*everyone, NextRound())
    assert table.sheets[THUG].allomancy.charges("Atium") == 0
    assert [p.id for p in declaration_order(table.state)] == [BRUTE, VIN, THUG]
    events = table.do(*everyone, NextRound())
    assert "Atium" in of_type(events, "charges_moved")[0].ended
    assert [p.id for p in declaration_order(table.state)] == [THUG, BRUTE, VIN]
