"""A Feruchemical tap on a Conflict action (docs/rulings.md §9.4, §9.10): declared with the dice,
spent at once whatever the roll does, its dice in the pile up to 10, or free Nudges and Outcome
on the roll's success."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.character import Character, make_character
from rules.character.feruchemy import Metalmind, MindSize
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    ConflictType,
    Declare,
    Defend,
    DiceSpec,
    SpendNudges,
    Switch,
)
from rules.conflict.specs import TapSpec
from rules.errors import RulesError
from rules.powers.feruchemy import TapUse
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

STEEL_MIND = 40


def keeper(vin: Character, charges: int = STEEL_MIND, rating: int = 3) -> Character:
    """Vin as a Keeper of Steel and Pewter (``rating``) with a Steelmind of ``charges``."""
    data = vin.model_dump(exclude={"id"})
    data["powers"] = [
        {"type": "feruchemy", "name": "Steel", "rating": rating},
        {"type": "feruchemy", "name": "Pewter", "rating": rating},
    ]
    mind = {"kind": "metalmind", "metal": "Steel", "size": MindSize.AVERAGE, "charges": charges}
    data["props"] = [*data["props"], {"name": "Steel bracer", "implement": mind}]
    return make_character(data)


def keeper_table(conflict_type: str = "physical", **mind: Any) -> Table:
    sheets = pick(VIN, THUG, BRUTE)
    sheets[VIN] = keeper(sheets[VIN], **mind)
    table = Table.start(sheets, conflict_type=conflict_type)
    table.do(declare_nothing(THUG), declare_defence(BRUTE))
    return table


def tapping(charges: int, use: TapUse = TapUse.EFFECT, metal: str = "steel", **action: Any) -> Declare:
    return declare_attack(VIN, THUG, tap=TapSpec(metal=metal, charges=charges, use=use), **action)


def mind_charges(table: Table) -> int:
    (mind,) = [p.implement for p in table.sheets[VIN].props if isinstance(p.implement, Metalmind)]
    return mind.charges


@pytest.mark.parametrize(
    ("charges", "use", "action_dice", "note"),
    [
        (1, TapUse.EFFECT, 4 + 1, ""),
        (5, TapUse.EFFECT, 4 + 5, ""),
        (6, TapUse.EFFECT, 10, ""),
        (10, TapUse.EFFECT, 10, "4 tapped dice past 10 are lost"),  # Physique 4 + 6 kept
        (5, TapUse.NUDGES, 4, "1 free Nudges on a success"),
        (30, TapUse.NUDGES, 4, "6 free Nudges on a success"),
        (10, TapUse.OUTCOME, 4, "+1 Outcome on a success"),
        (30, TapUse.OUTCOME, 4, "+3 Outcome on a success"),
    ],
)
def test_a_tap_on_a_declaration_gives_its_dice_or_its_boons_and_is_spent_at_once(
    charges: int, use: TapUse, action_dice: int, note: str
) -> None:
    """§9.4: a die a charge (Steel: Action Dice on a physical action), up to 10 in the pile; or a
    Nudge for every 5, +1 Outcome for every 10; the charges leave the metalmind as declared."""
    table = keeper_table()
    events = table.do(tapping(charges, use))
    assert table.dice(VIN) == (action_dice, 0)
    assert mind_charges(table) == STEEL_MIND - charges
    (moved,) = of_type(events, "charges_moved")
    assert [(m.metal, m.delta, m.why.value) for m in moved.moves] == [("Steel", -charges, "tapped")]
    assert note in " ".join(moved.notes)
    dice = table.declaration(VIN).dice
    assert dice is not None and dice.tap is not None and dice.tap.metal == "Steel"


@pytest.mark.parametrize(
    ("tap", "refusal"),
    [
        (TapSpec(metal="Steel", charges=31), "taps 1 to 30 Steel"),  # 10 × rating 3
        (TapSpec(metal="Steel", charges=0), "taps 1 to 30 Steel"),
        (TapSpec(metal="Tin", charges=5), "no Feruchemical Tin"),
        (TapSpec(metal="Pewter", charges=5), "fullest Pewtermind holds 0"),
        (TapSpec(metal="Steel", charges=7, use=TapUse.NUDGES), "multiple of 5"),
        (TapSpec(metal="Steel", charges=15, use=TapUse.OUTCOME), "multiple of 10"),
        (TapSpec(metal="Gold", charges=5), "no Feruchemical Gold"),
    ],
)
def test_a_tap_the_sheet_cannot_pay_is_refused(tap: TapSpec, refusal: str) -> None:
    table = keeper_table()
    table.refuse(declare_attack(VIN, THUG, tap=tap), refusal)


def test_a_fuller_tap_than_the_metalmind_holds_is_refused() -> None:
    table = keeper_table(charges=8)
    table.refuse(tapping(10), "fullest Steelmind holds 8")


def test_steels_action_dice_help_a_physical_action_only() -> None:
    table = keeper_table()
    table.refuse(tapping(5, attack_kind=ConflictType.SOCIAL), "physical action only")
    table.do(tapping(10, TapUse.OUTCOME, attack_kind=ConflictType.SOCIAL))
    assert mind_charges(table) == STEEL_MIND - 10


def test_no_roll_taps_nothing() -> None:
    table = keeper_table()
    action = ActionSpec(kind=ActionKind.NO_ROLL)
    dice = DiceSpec(stat="Physique", tap=TapSpec(metal="Steel", charges=5))
    table.refuse(Declare(participant=VIN, action=action, dice=dice), "no dice|without a roll")


def test_the_tap_is_spent_even_when_the_action_fails() -> None:
    table = keeper_table()
    table.do(tapping(10, TapUse.OUTCOME), Act(participant=VIN, pool=4))
    events = table.do(Defend(participant=THUG, dice=0, attack_faces=(1, 2, 3, 4)))
    (resolved,) = of_type(events, "resolved")
    assert not resolved.success
    assert mind_charges(table) == STEEL_MIND - 10


def test_a_taps_nudges_are_free_ones_on_a_success_and_never_catch_a_beat() -> None:
    table = keeper_table()
    table.do(tapping(15, TapUse.NUDGES), Act(participant=VIN, pool=4))
    table.do(Defend(participant=THUG, dice=0, attack_faces=(3, 3, 1, 2)))
    pending = table.state.pending
    assert pending is not None and (pending.nudges, pending.free_nudges) == (3, 3)
    table.refuse(SpendNudges(participant=VIN, catch_beat=True), "there are 0 rolled")
    events = table.do(SpendNudges(participant=VIN, damage=3))
    (dealt,) = of_type(events, "damage_dealt")
    assert dealt.amount == 1 + 3 + 1 - 1  # the Dagger, less the leather


@pytest.mark.parametrize(
    ("charges", "attack", "defence", "outcome"),
    [
        (10, (5, 5, 1, 2), (3, 3), 2 + 1),
        (30, (5, 5, 1, 2), (3, 3), 2 + 3),
        (30, (5, 5, 1, 2), (4, 4), 1 + 3),
        (30, (5, 5, 1, 2), (5, 5, 6), 0),  # the Contest is lost: the Outcome helps a success only
    ],
)
def test_a_taps_outcome_joins_a_won_contests(
    charges: int, attack: tuple[int, ...], defence: tuple[int, ...], outcome: int
) -> None:
    sheets = pick(VIN, THUG, BRUTE)
    sheets[VIN] = keeper(sheets[VIN])
    table = Table.start(sheets)
    table.do(declare_defence(THUG, traits_for=1), declare_defence(BRUTE))
    table.do(tapping(charges, TapUse.OUTCOME), Act(participant=VIN, pool=4))
    events = table.do(Defend(participant=THUG, dice=len(defence), attack_faces=attack, defence_faces=defence))
    (resolved,) = of_type(events, "resolved")
    assert resolved.contest.outcome == outcome


def test_an_undefended_roll_reads_the_outcome_once() -> None:
    table = keeper_table()
    table.do(tapping(20, TapUse.OUTCOME), Act(participant=VIN, pool=4))
    events = table.do(Defend(participant=THUG, dice=0, attack_faces=(5, 5, 1, 2)))
    (resolved,) = of_type(events, "resolved")
    assert resolved.contest.outcome == (5 - 1) + 2


def test_a_switch_taps_anew_and_halves_the_tapped_dice_with_the_rest() -> None:
    table = keeper_table()
    table.do(declare_attack(VIN, THUG))
    spec, dice = (
        ActionSpec(kind=ActionKind.ATTACK, target=BRUTE),
        DiceSpec(stat="Physique", tap=TapSpec(metal="Steel", charges=4)),
    )
    events = table.do(Switch(participant=VIN, action=spec, dice=dice))
    (switched,) = of_type(events, "switched")
    assert (switched.refigured, switched.dice) == (8, 4)
    assert mind_charges(table) == STEEL_MIND - 4


@settings(max_examples=60, deadline=None)
@given(
    rating=st.integers(1, 5),
    held=st.integers(0, 60),
    charges=st.integers(0, 70),
    use=st.sampled_from(TapUse),
    traits=st.integers(0, 8),
)
def test_a_conflict_tap_is_all_or_nothing_and_every_charge_is_told(
    rating: int, held: int, charges: int, use: TapUse, traits: int
) -> None:
    """§9.9 over any tap: refused, nothing moves; accepted, the metalmind loses exactly the
    charges (never below 0, never past 10 × the rating), the event tells every one, and the
    pile gains no more than the dice that bring it to 10."""
    table = keeper_table(charges=held, rating=rating)
    command = declare_attack(
        VIN, THUG, traits_for=traits, tap=TapSpec(metal="Steel", charges=charges, use=use)
    )
    try:
        events = table.do(command)
    except RulesError:
        assert mind_charges(table) == held and table.p(VIN).round.declaration is None
        return
    assert 1 <= charges <= min(held, 10 * rating)
    assert mind_charges(table) == held - charges >= 0
    (moved,) = of_type(events, "charges_moved")
    assert sum(m.delta for m in moved.moves) == -charges
    plain = 4 + traits
    gained = table.dice(VIN)[0] - plain
    assert gained == (min(charges, max(0, 10 - plain)) if use is TapUse.EFFECT else 0)
