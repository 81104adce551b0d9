"""The Conflicts chapter's Keep Hasting example (docs/rulings.md §4–§5), run end to end through the engine."""

from rules.burdens import Severity
from rules.character import Resilience, resilience_current
from rules.conflict import (
    Act,
    ActionKind,
    ActionSpec,
    Defend,
    DiceSpec,
    NextRound,
    Pass,
    Phase,
    SpendNudges,
    Step,
    Switch,
    declaration_order,
    resolve_order,
)
from tests.rules.conflict.builders import Table, of_type, waiting
from tests.rules.conflict.keep_hasting import (
    CARROW,
    CORDAL,
    GUARDS,
    IGNUS,
    KOEL,
    THORROW,
    declarations,
    declared_conflict,
    keep_hasting_sheets,
    setup_commands,
)

THORROW_FACES = (3, 3, 6, 6, 6, 6, 1, 2)
CARROW_FACES = (3, 3, 6, 1)


def test_the_surprised_declare_first_then_by_wits() -> None:
    table = Table(Table.start({}).state, keep_hasting_sheets())
    table.do(*setup_commands())
    order = [p.id for p in declaration_order(table.state)]
    assert order == [IGNUS, CORDAL, GUARDS, CARROW, KOEL, THORROW]


def test_carrow_has_health_13_while_burning_pewter() -> None:
    sheets = keep_hasting_sheets()
    assert resilience_current(sheets[CARROW], Resilience.HEALTH, burning_pewter=True) == 13


def test_everyone_declares_and_gets_the_dice_of_the_example() -> None:
    state, _ = declared_conflict()
    dice = {p.id: (p.round.action_dice, p.round.defense_dice) for p in state.participants}
    assert dice == {
        IGNUS: (0, 5),  # Physique 3 + "sniveling coward" + the table as a Tool
        CORDAL: (6, 0),  # Steel 6
        GUARDS: (0, 0),  # moving: no roll, no dice
        CARROW: (9, 0),  # Physique 4 + Pewter 5 + "agile tumbler" - Circumstances
        KOEL: (4, 0),  # Steel 4
        THORROW: (12, 0),  # Physique 6 + Pewter 5 + "spear fighter"
    }
    thorrow = state.participant(THORROW).round.declaration
    assert thorrow is not None
    assert [(c.label, c.dice) for c in thorrow.pool] == [("Physique", 6), ("Trait", 1), ("Pewter", 5)]
    assert state.phase is Phase.RESOLVE
    assert resolve_order(state) == ((THORROW,), (CARROW,), (CORDAL,), (KOEL,))


def test_declarations_out_of_order_are_refused() -> None:
    table = Table(Table.start({}).state, keep_hasting_sheets())
    table.do(*setup_commands())
    first, second, *_rest, last = declarations()
    table.refuse(last, "Ignus's turn to declare")
    table.do(first, second)
    table.refuse(first, "Cordal Bylerum has declared since")


def test_thorrow_trips_and_wounds_carrow() -> None:
    state, sheets = declared_conflict()
    table = Table(state, sheets)
    events = table.do(Act(participant=THORROW, pool=8))
    assert table.dice(THORROW) == (0, 4)  # the 4 left over become Defense Dice
    assert waiting(events).step is Step.DEFEND and waiting(events).participants == (CARROW,)

    events = table.do(
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES)
    )
    assert table.dice(CARROW) == (5, 0)
    # Carrow spent Action Dice, so he drops below Cordal at once.
    assert resolve_order(table.state) == ((CORDAL,), (CARROW,), (KOEL,))
    (resolved,) = of_type(events, "resolved")
    assert (resolved.contest.acting.result, resolved.contest.acting.nudges) == (3, 4)
    assert resolved.contest.opposing.result == 3
    assert resolved.contest.decided_by.value == "more Nudges"
    assert resolved.success and resolved.awaiting_nudges and resolved.nudges == 4

    events = table.do(SpendNudges(participant=THORROW, story=2, damage=2))
    (dealt,) = of_type(events, "damage_dealt")
    assert (dealt.amount, dealt.weapon, dealt.nudges, dealt.armour) == (5, 2, 2, 0)
    assert (dealt.before, dealt.after, dealt.wound) == (13, 8, Severity.SERIOUS)
    carrow = table.sheets[CARROW]
    assert carrow.damage.health == 5
    assert [(b.name, b.severity) for b in carrow.burdens] == [("Wounded (Health)", Severity.SERIOUS)]
    assert resilience_current(carrow, Resilience.HEALTH, burning_pewter=True) == 8
    assert not table.p(CARROW).defeated
    assert table.state.log[-1].taken == 5


def test_the_rest_of_the_round_and_the_next() -> None:
    state, sheets = declared_conflict()
    table = Table(state, sheets)
    table.do(
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=THORROW_FACES, defence_faces=CARROW_FACES),
        SpendNudges(participant=THORROW, story=2, damage=2),
    )
    table.refuse(Act(participant=CARROW, pool=5), "not Carrow Bylerum's turn")
    # Cordal's Steelpush: Koel pushes back with 2 of her 4 Action Dice; the coins miss.
    table.do(Act(participant=CORDAL, pool=6))
    table.do(Defend(participant=KOEL, dice=2, attack_faces=(1, 2, 3, 4, 5, 6), defence_faces=(4, 4)))
    assert table.dice(KOEL) == (2, 0)
    assert table.p(CORDAL).round.defense_dice == 0
    # Carrow strikes at Thorrow with his 5; Thorrow holds his 4 Defense Dice back.
    events = table.do(Act(participant=CARROW, pool=5))
    table.do(Defend(participant=THORROW, dice=0, attack_faces=(2, 2, 1, 1, 3)))
    assert table.sheets[THORROW].damage.health == 1 + 1  # 1 + the obsidian dagger's 1
    # Koel's blind shot at the guards (Difficulty 3) with her last 2 dice; the guards are
    # only moving, so they get their Physique 3 in Defense Dice when first attacked.
    table.do(Act(participant=KOEL, pool=2))
    events = table.do(Defend(participant=GUARDS, dice=2, attack_faces=(3, 3), defence_faces=(1, 2)))
    assert of_type(events, "defence_granted")[0].dice == 3
    (dealt,) = of_type(events, "damage_dealt")
    assert dealt.members_lost == 1 and table.p(GUARDS).members_left == 2
    assert waiting(events).step is Step.NEXT_ROUND
    events = table.do(NextRound())
    assert table.state.round == 2 and table.state.phase is Phase.DECLARE
    assert all(p.round.action_dice == p.round.defense_dice == 0 for p in table.state.participants)
    assert not any(p.surprised for p in table.state.participants)
    assert waiting(events).participants == (IGNUS,)


def test_thorrow_switches_to_throwing_his_spear() -> None:
    """docs/rulings.md §4.8: the new action is refigured to 12, halved to 6, and goes last."""
    state, sheets = declared_conflict()
    table = Table(state, sheets)
    events = table.do(
        Switch(
            participant=THORROW,
            action=ActionSpec(
                kind=ActionKind.ATTACK, target=GUARDS, label="throws his spear through the wall"
            ),
            dice=DiceSpec(stat="Physique", traits_for=1),
        )
    )
    (switched,) = of_type(events, "switched")
    assert (switched.refigured, switched.halved, switched.lost, switched.dice) == (12, 6, 0, 6)
    assert table.dice(THORROW) == (6, 0)
    assert resolve_order(table.state) == ((CARROW,), (CORDAL,), (KOEL,), (THORROW,))
    table.refuse(
        Switch(participant=CARROW, action=ActionSpec(kind=ActionKind.NO_ROLL), dice=DiceSpec(stat="Wits")),
        "must be one that rolls",
    )
    table.do(Pass(participant=CARROW))
    assert table.dice(CARROW) == (0, 9)
