"""Defeat: who falls and the Burden it may leave, Extras groups losing members, simultaneous blows,
and a Conflict's end when a side is all out (docs/rulings.md §4.16, §5.3, §5.8, §5.9)."""

from rules.burdens import Severity
from rules.character import DefeatCondition
from rules.conflict import (
    Act,
    Defend,
    EndReason,
    NextRound,
    Phase,
    Side,
    SpendNudges,
    Step,
    current_turn,
    declaration_order,
    resolve_order,
)
from tests.rules.conflict.builders import (
    BRUTE,
    CROWD,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
    sheet,
    waiting,
)
from tests.rules.conflict.test_damage import hit


def test_defeat_takes_a_character_out_and_may_leave_a_burden() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(
        declare_nothing(THUG),
        declare_attack(BRUTE, VIN),
        declare_attack(VIN, THUG, traits_for=2, weapon_bonus=4),
    )
    hit(table, VIN, THUG, 6, 4)
    events = table.do(SpendNudges(participant=VIN, damage=3, defeat_burden=Severity.MORTAL))
    (defeated,) = of_type(events, "defeated")
    assert defeated.condition is DefeatCondition.INCAPACITATED and not defeated.simultaneous
    assert table.p(THUG).defeated
    names = [(b.name, b.severity) for b in table.sheets[THUG].burdens]
    assert ("Incapacitated", Severity.MORTAL) in names
    events = table.do(Act(participant=BRUTE, pool=2, faces=(1, 2)))  # Vin has no dice left to defend
    assert of_type(events, "resolved")[0].contest.decided_by.value == "undefended"
    table.do(NextRound())
    assert [p.id for p in declaration_order(table.state)] == [BRUTE, VIN]
    table.refuse(declare_nothing(THUG), "defeated and cannot declare")


def test_the_defeat_burden_named_when_acting_applies_without_nudges() -> None:
    sheets = pick(VIN, THUG)
    sheets[THUG] = sheet("Frail", "villain", wits=2, standings={"resources": 2})
    table = Table.start(sheets | {BRUTE: pick(BRUTE)[BRUTE]})
    table.do(declare_nothing(THUG), declare_defence(BRUTE), declare_attack(VIN, THUG, weapon_bonus=4))
    table.do(Act(participant=VIN, pool=4, defeat_burden=Severity.GRAVE))
    table.do(Defend(participant=THUG, dice=0, attack_faces=(3, 3, 1, 2)))
    assert ("Incapacitated", Severity.GRAVE) in [(b.name, b.severity) for b in table.sheets[THUG].burdens]


def test_extras_groups_lose_a_member_per_point() -> None:
    table = Table.start(pick(VIN, CROWD, THUG))
    table.do(
        declare_nothing(CROWD),
        declare_defence(THUG),
        declare_attack(VIN, CROWD, traits_for=2, weapon_bonus=0),
    )
    hit(table, VIN, CROWD, 6, 2)
    events = table.do(SpendNudges(participant=VIN, damage=2))
    (dealt,) = of_type(events, "damage_dealt")
    assert (dealt.members_lost, dealt.before, dealt.after) == (3, 4, 1)
    assert table.p(CROWD).members_left == 1 and not table.p(CROWD).defeated
    assert table.sheets[CROWD].members_down == 3


def test_a_lone_extra_falls_at_one_damage_and_extras_get_no_nudges() -> None:
    sheets = {1: sheet("Mook", "extra", physique=4, wits=1), 2: sheet("Hero", physique=4)}
    table = Table.start(sheets)
    table.do(declare_attack(1, 2), declare_attack(2, 1))
    table.do(Act(participant=1, pool=4))
    events = table.do(Defend(participant=2, dice=0, attack_faces=(6, 6, 2, 2)))
    assert of_type(events, "resolved")[0].nudges == 0 and table.state.pending is None
    events = table.do(Act(participant=2, pool=2, faces=(2, 2)))  # the Mook kept no dice
    assert of_type(events, "defeated")
    assert table.state.phase is Phase.ENDED


def test_the_conflict_ends_when_a_side_is_all_defeated() -> None:
    sheets = {
        1: sheet("Hero", physique=6),
        2: sheet("Mook", "extra", wits=1),
        3: sheet("Mook 2", "extra", wits=1),
    }
    table = Table.start(sheets)
    table.do(declare_nothing(2), declare_nothing(3), declare_attack(1, 2))
    hit(table, 1, 2, 4, 0)
    assert table.state.phase is Phase.RESOLVE and table.p(2).defeated
    table.do(NextRound(), declare_nothing(3))
    table.do(declare_attack(1, 3))
    events = table.do(Act(participant=1, pool=2))
    events = table.do(Defend(participant=3, dice=0, attack_faces=(3, 3)))
    (ended,) = of_type(events, "conflict_ended")
    assert ended.reason is EndReason.SIDE_DEFEATED and ended.defeated_sides == (Side.OPPOSITION,)
    # mypy keeps the narrowing of the assert above across table.do(), which replaces table.state
    assert table.state.phase is Phase.ENDED and events[-1].type == "conflict_ended"  # type: ignore[comparison-overlap]
    lines = {line.name: line for line in ended.summary}
    assert lines["Hero"].dealt == 2 and lines["Mook"].members_lost == 1 and lines["Mook"].defeated
    table.refuse(NextRound(), "has ended")


def test_a_simultaneous_defeat_still_lets_the_fallen_act() -> None:
    """docs/rulings.md §4: equal Action Dice act at the same moment, so both blows land."""
    sheets = {
        1: sheet("Ash", physique=3, wits=2, standings={"resources": 2}),
        2: sheet("Bell", "villain", physique=3, wits=3, standings={"resources": 2}),
    }
    table = Table.start(sheets)
    table.do(declare_attack(1, 2, weapon_bonus=4), declare_attack(2, 1, weapon_bonus=4))
    assert current_turn(table.state) == (1, 2)
    table.do(Act(participant=2, pool=2))
    events = table.do(Defend(participant=1, dice=0, attack_faces=(5, 5)))
    (defeated,) = of_type(events, "defeated")
    assert defeated.simultaneous and table.p(1).defeated
    assert table.state.phase is Phase.RESOLVE
    assert current_turn(table.state) == (1,)
    events = table.do(Act(participant=1, pool=2, faces=(5, 5)))  # Bell kept 1 die: no defence
    (ended,) = of_type(events, "conflict_ended")
    assert set(ended.defeated_sides) == {Side.HEROES, Side.OPPOSITION}


def test_a_defeat_out_of_turn_order_takes_the_next_action_away() -> None:
    sheets = {
        1: sheet("Ash", physique=3, wits=2, standings={"resources": 2}),
        2: sheet("Bell", "villain", physique=3, wits=3, standings={"resources": 2}),
        3: sheet("Cole", "villain", wits=3),
    }
    table = Table.start(sheets)
    table.do(declare_attack(1, 2, weapon_bonus=4), declare_attack(2, 1, weapon_bonus=4, traits_for=1))
    table.do(declare_defence(3))
    table.do(Act(participant=2, pool=2))
    events = table.do(Defend(participant=1, dice=0, attack_faces=(5, 5)))
    assert not of_type(events, "defeated")[0].simultaneous
    assert of_type(events, "conflict_ended")[0].defeated_sides == (Side.HEROES,)


def test_a_defeated_character_drops_out_of_the_resolve_order() -> None:
    table = Table.start(pick(VIN, THUG, BRUTE))
    table.do(
        declare_attack(THUG, VIN),
        declare_defence(BRUTE),
        declare_attack(VIN, THUG, traits_for=3, weapon_bonus=4),
    )
    assert resolve_order(table.state) == ((VIN,), (THUG,))
    hit(table, VIN, THUG, 7, 3)
    table.do(SpendNudges(participant=VIN, damage=3))
    assert table.p(THUG).defeated
    assert resolve_order(table.state) == ()
    assert waiting(table.last.events).step is Step.NEXT_ROUND
