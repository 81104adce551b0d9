"""Gathering the cast, late arrivals and changed declarations (docs/rulings.md §4.18, §4.22, §4.23)."""

import pytest

from rules.conflict import Begin, Join, NextRound, Pass, Phase, Status, Step, next_declarer
from tests.rules.conflict.builders import (
    BRUTE,
    CROWD,
    KELL,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    declare_nothing,
    of_type,
    pick,
    waiting,
)


def test_a_conflict_gathers_until_the_narrator_begins_and_nobody_declares_before() -> None:
    table = Table.start(pick(VIN, THUG), begin=False)
    assert table.state.phase is Phase.GATHER
    assert waiting(table.last.events).step is Step.BEGIN and not waiting(table.last.events).participants
    table.refuse(declare_attack(THUG, VIN), "has not begun")
    table.refuse(NextRound(), "has not begun")
    table.sheets.update(pick(KELL))
    table.do(Join(character_id=KELL))  # more join while gathering, in any Wits order
    events = table.do(Begin())
    assert of_type(events, "round_started")[0].round == 1
    assert waiting(events).step is Step.DECLARE and waiting(events).participants == (THUG,)
    table.refuse(Begin(), "already begun")


def test_begin_needs_someone_to_fight() -> None:
    table = Table.start({})
    assert table.state.phase is Phase.GATHER
    table.refuse(Begin(), "Nobody has joined yet")


@pytest.mark.parametrize(
    ("newcomer", "late"),
    [(CROWD, True), (BRUTE, False)],  # Crowd (Wits 1) comes before Thug (Wits 2); Brute (3) after
)
def test_a_newcomer_takes_their_place_only_if_it_is_still_to_come(newcomer: int, late: bool) -> None:
    table = Table.start(pick(VIN, KELL, THUG))
    table.do(declare_attack(THUG, VIN))  # Thug (Wits 2) declared; Vin (4) is up
    table.sheets.update(pick(newcomer))
    events = table.do(Join(character_id=newcomer))
    assert of_type(events, "joined")[0].late is late
    expected = VIN if late else newcomer
    declarer = next_declarer(table.state)
    assert declarer is not None and declarer.id == expected
    if late:
        table.refuse(declare_defence(newcomer), "declare from the next round")
        table.do(declare_attack(VIN, THUG), declare_defence(KELL, "Wits"))
        assert table.state.phase is Phase.RESOLVE and table.p(newcomer).round.late
        table.do(Pass(participant=THUG), Pass(participant=VIN))
        table.do(NextRound())
        assert not table.p(newcomer).round.late
        first = next_declarer(table.state)
        assert first is not None and first.id == newcomer  # the Crowd declares first from now on


def test_a_declaration_changes_until_someone_declares_after_then_only_the_narrator_reopens_it() -> None:
    table = Table.start(pick(VIN, KELL, THUG))
    table.do(declare_attack(THUG, VIN))
    events = table.do(declare_nothing(THUG))
    assert of_type(events, "declared")[0].changed and table.p(THUG).round.status is Status.DONE
    table.do(declare_attack(VIN, THUG))
    table.refuse(declare_attack(THUG, VIN), "Vin has declared since. Only the Narrator can reopen it")
    reopened = declare_attack(THUG, KELL).model_copy(update={"reopen": True})
    table.do(reopened)
    declared = table.p(THUG).round.declaration
    assert declared is not None and declared.action.target == KELL
    assert next_declarer(table.state) is not None  # Kell still to declare; Vin's stands
    table.do(declare_defence(KELL, "Wits"))
    assert table.state.phase is Phase.RESOLVE
    events = table.do(declare_nothing(KELL))  # the last declarer, before any turn
    assert of_type(events, "resolve_started")
    assert table.p(KELL).round.status is Status.DONE
