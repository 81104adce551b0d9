"""Ending rounds and Conflicts, the stored form, and parsing commands."""

import json

import pytest

from rules.conflict import (
    Act,
    Begin,
    Conflict,
    Defend,
    End,
    EndReason,
    Join,
    NextRound,
    Pass,
    Phase,
    SpendNudges,
    Step,
    load_conflict,
    new_conflict,
    parse_command,
)
from rules.errors import RulesError
from tests.rules.conflict.builders import (
    BRUTE,
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    of_type,
    pick,
    waiting,
)
from tests.rules.conflict.keep_hasting import CARROW, THORROW, declared_conflict


def test_next_round_is_refused_until_everyone_has_acted() -> None:
    table = Table.start(pick(VIN, THUG))
    table.refuse(NextRound(), "Everyone must declare")
    table.do(declare_attack(THUG, VIN), declare_attack(VIN, THUG))
    table.refuse(NextRound(), "waiting for Thug to act")
    table.do(Act(participant=THUG, pool=2))
    table.refuse(NextRound(), "waiting for Vin to defend")


def test_forcing_the_round_to_end_drops_the_attack_in_progress() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_attack(VIN, THUG), Act(participant=THUG, pool=2))
    events = table.do(NextRound(force=True))
    (started,) = of_type(events, "round_started")
    assert started.round == 2 and started.dropped_action == 1
    assert table.state.pending is None and table.state.phase is Phase.DECLARE
    assert all(p.round.gained == 0 and p.round.action_dice == 0 for p in table.state.participants)


def test_leftover_dice_vanish_at_the_end_of_the_round() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_attack(THUG, VIN), declare_defence(VIN))
    table.do(Pass(participant=THUG))
    assert table.dice(THUG) == (0, 5) and table.dice(VIN) == (0, 4)
    events = table.do(NextRound())
    assert table.dice(THUG) == (0, 0) and table.dice(VIN) == (0, 0)
    assert waiting(events).step is Step.DECLARE and waiting(events).round == 2


def test_the_narrator_ends_the_conflict_with_a_summary() -> None:
    state, sheets = declared_conflict()
    table = Table(state, sheets)
    table.do(
        Act(participant=THORROW, pool=8),
        Defend(participant=CARROW, dice=4, attack_faces=(3, 3, 6, 6, 6, 6, 1, 2), defence_faces=(3, 3, 6, 1)),
        SpendNudges(participant=THORROW, story=2, damage=2),
    )
    events = table.do(End())
    (ended,) = of_type(events, "conflict_ended")
    assert ended.reason is EndReason.NARRATOR and ended.rounds == 1
    lines = {line.name: line for line in ended.summary}
    assert lines["Thorrow"].dealt == 5
    carrow = lines["Carrow Bylerum"]
    assert [(r.value, n) for r, n in carrow.taken] == [("health", 5)]
    assert [b.name for b in carrow.burdens] == ["Wounded (Health)"]
    assert table.state.phase is Phase.ENDED and table.state.ended is EndReason.NARRATOR
    for command in (End(), NextRound(), Pass(participant=CARROW)):
        table.refuse(command, "has ended")


def test_the_state_round_trips_through_json_exactly() -> None:
    state, sheets = declared_conflict()
    table = Table(state, sheets)
    table.do(Act(participant=THORROW, pool=8))
    text = table.state.model_dump_json()
    assert Conflict.model_validate_json(text) == table.state
    assert load_conflict(text) == table.state
    assert json.loads(text)["schema_version"] == 2


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("not json", "could not be read"),
        ('{"schema_version": 3, "channel_id": 1, "type": "physical", "stakes": ""}', "newer version"),
        ('{"schema_version": 2, "channel_id": 1, "type": "astral", "stakes": ""}', "could not be read"),
        ('{"schema_version": 1, "channel_id": 1, "type": "astral", "stakes": ""}', "could not be read"),
        ('{"schema_version": 1, "channel_id": "x", "type": "physical", "stakes": ""}', "could not be read"),
        ("x" * 600_000, "too large"),
    ],
)
def test_unreadable_documents_are_refused_plainly(document: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_conflict(document)


def test_new_conflict_checks_its_inputs() -> None:
    assert new_conflict(5, "Social", "  Win the ball  ").stakes == "Win the ball"
    with pytest.raises(RulesError, match="physical, social or mental"):
        new_conflict(5, "astral", "x")
    with pytest.raises(RulesError, match="too long"):
        new_conflict(5, "mental", "x" * 201)


def test_commands_parse_from_mappings_and_json() -> None:
    command = parse_command({"type": "act", "participant": 3, "pool": 4})
    assert command == Act(participant=3, pool=4)
    assert parse_command(command.model_dump_json()) == command
    assert parse_command('{"type": "end"}') == End()
    for bad in ({"type": "fly"}, {"type": "act", "participant": "three", "pool": 2}, "{", {"type": "act"}):
        with pytest.raises(RulesError, match="not valid"):
            parse_command(bad)


def test_the_log_keeps_its_newest_entries() -> None:
    from rules.conflict.state import MAX_LOG, LogEntry, LogKind

    state = new_conflict(1, "physical", "x")
    entry = LogEntry(kind=LogKind.STALEMATE, round=1, attacker=1, attacker_name="A")
    for _ in range(MAX_LOG + 3):
        state = state.with_log(entry)
    assert len(state.log) == MAX_LOG and state.log_dropped == 3


def test_a_side_with_nobody_in_it_is_not_defeated() -> None:
    table = Table.start(pick(VIN, BRUTE))
    table.do(declare_defence(BRUTE), declare_attack(VIN, BRUTE))
    assert table.state.phase is Phase.RESOLVE


@pytest.mark.parametrize("auto_rounds", [False, True])
def test_rounds_roll_on_by_themselves_only_when_the_conflict_says_so(auto_rounds: bool) -> None:
    """docs/rulings.md §4.17: by default the round waits for the Narrator's Next round; a
    Conflict started with ``auto_rounds`` opens the next one with the move that ends a round,
    telling what Next round tells, and waits for its first declaration."""
    table = Table(new_conflict(1, "physical", "Test stakes", auto_rounds=auto_rounds), pick(VIN, THUG))
    table.do(*(Join(character_id=cid) for cid in (VIN, THUG)), Begin())
    table.do(declare_attack(THUG, VIN), declare_defence(VIN))
    events = table.do(Pass(participant=THUG))
    if not auto_rounds:
        assert waiting(events).step is Step.NEXT_ROUND and not of_type(events, "round_started")
        return
    (started,) = of_type(events, "round_started")
    assert started.round == 2 and table.state.round == 2 and table.state.phase is Phase.DECLARE
    assert waiting(events).step is Step.DECLARE
    assert [e.step for e in of_type(events, "waiting")] == [Step.DECLARE]  # only what is waited for now
    table.refuse(NextRound(), "Everyone must declare")  # the round is not over: nothing to press
