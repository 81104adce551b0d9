"""A Conflict move's transaction body (``bot.cogs.conflict.transaction``) on both databases: atomic,
serialized, and crash-safe."""

import asyncio
import signal
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.cogs.conflict.transaction import end_conflict, run_transition, start_conflict
from rules.character import Character
from rules.conflict import (
    Act,
    AdjustDice,
    Begin,
    Command,
    Conflict,
    Defend,
    Pass,
    Phase,
    SpendNudges,
    Step,
    apply,
    new_conflict,
)
from rules.errors import RulesError
from storage import AlreadyExistsError, NotFoundError, Storage
from storage.conflict_moves import current_conflict
from storage.sql import execute
from tests.bot.cogs.conflict.moves.crash_conflict import GUILD, STAKES
from tests.rules.conflict.builders import waiting
from tests.rules.conflict.keep_hasting import (
    CARROW,
    CHANNEL,
    KOEL,
    THORROW,
    joins,
    keep_hasting_sheets,
    round_one,
)
from tests.support import start_test_module

DECLARED = 8  # two burns and six declarations: the next command is Thorrow's attack


async def keep_hasting(storage: Storage, through: int = 0) -> None:
    """The six sheets, the Conflict, and the first ``through`` commands of round one."""
    for sheet in keep_hasting_sheets().values():
        await storage.characters.create(GUILD, sheet)
    await start_conflict(storage, GUILD, CHANNEL, "physical", STAKES, joins(), begin=True)
    for command in round_one()[:through]:
        await run_transition(storage, GUILD, CHANNEL, command)


def expected_steps() -> list[tuple[Conflict, dict[int, Character]]]:
    """The state and sheets after each command of round one, worked out without storage."""
    sheets = keep_hasting_sheets()
    state = new_conflict(CHANNEL, "physical", STAKES)
    opening: list[Command] = [*joins(), Begin()]
    for command in opening:
        state = apply(state, command, sheets).state
    steps = [(state, dict(sheets))]
    for command in round_one():
        step = apply(state, command, sheets)
        sheets.update(step.changed_sheets)
        state = step.state
        steps.append((state, dict(sheets)))
    return steps


async def stored_sheets(storage: Storage) -> dict[int, Character]:
    return {s.id: s.character for s in await storage.characters.list_by_guild(GUILD)}


async def test_a_round_through_storage_matches_the_pure_engine(storage: Storage) -> None:
    await keep_hasting(storage)
    steps = expected_steps()
    for index, command in enumerate(round_one(), start=1):
        applied = await run_transition(storage, GUILD, CHANNEL, command)
        assert applied.conflict == steps[index][0]
        assert applied.stored is not None and applied.stored.version == index + 1
    assert await current_conflict(storage, GUILD, CHANNEL) == steps[-1][0]
    assert await stored_sheets(storage) == steps[-1][1]
    carrow = await storage.characters.get(GUILD, CARROW)
    # Two writes: burning Pewter (the sheet burns it too, docs/rulings.md §9.2), then the hit.
    assert carrow.character.damage.health == 5 and carrow.version == 3


async def test_damage_and_state_are_written_in_one_transaction(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED + 2)
    applied = await run_transition(
        storage, GUILD, CHANNEL, SpendNudges(participant=THORROW, story=2, damage=2)
    )
    assert [s.id for s in applied.sheets] == [CARROW]
    assert (await storage.characters.get(GUILD, CARROW)).character == applied.sheets[0].character


ON_FIRE = {
    False: [
        "CREATE TRIGGER conflicts_on_fire BEFORE UPDATE ON conflicts"
        " BEGIN SELECT RAISE(ABORT, 'conflicts_on_fire'); END"
    ],
    True: [
        "CREATE FUNCTION conflicts_on_fire() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN RAISE EXCEPTION 'conflicts_on_fire'; END $$",
        "CREATE TRIGGER conflicts_on_fire BEFORE UPDATE ON conflicts"
        " FOR EACH ROW EXECUTE FUNCTION conflicts_on_fire()",
    ],
}
"""A trigger that makes every update of a Conflict fail, on SQLite and on PostgreSQL."""


async def test_a_failure_after_the_sheet_write_rolls_both_back(
    storage: Storage,
) -> None:
    await keep_hasting(storage, DECLARED + 2)
    before_conflict = await storage.conflicts.get(GUILD, CHANNEL)
    before_sheets = await storage.characters.list_by_guild(GUILD)

    # The document's update, written after the sheets', fails in the database itself (the
    # same on both: on PostgreSQL the move's writes are one statement, storage.moves).
    async with storage.database.writing() as conn:
        for statement in ON_FIRE[storage.postgres]:
            await execute(conn, statement)
    with pytest.raises(Exception, match="conflicts_on_fire"):
        await run_transition(storage, GUILD, CHANNEL, SpendNudges(participant=THORROW, story=2, damage=2))
    async with storage.database.writing() as conn:
        await execute(conn, "DROP TRIGGER conflicts_on_fire" + (" ON conflicts" if storage.postgres else ""))
    assert await storage.conflicts.get(GUILD, CHANNEL) == before_conflict
    assert await storage.characters.list_by_guild(GUILD) == before_sheets
    # And it goes through once the disk is fine.
    await run_transition(storage, GUILD, CHANNEL, SpendNudges(participant=THORROW, story=2, damage=2))
    assert (await storage.characters.get(GUILD, CARROW)).character.damage.health == 5


async def test_a_refused_command_writes_nothing(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    before = await storage.conflicts.get(GUILD, CHANNEL)
    with pytest.raises(RulesError, match="not Koel's turn"):
        await run_transition(storage, GUILD, CHANNEL, Act(participant=KOEL, pool=2))
    assert await storage.conflicts.get(GUILD, CHANNEL) == before


async def test_commands_can_be_made_from_the_loaded_state(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED + 1)

    def defend_what_is_pending(conflict: Conflict, sheets: Mapping[int, Character]) -> Defend:
        assert conflict.pending is not None and set(sheets) == {p.id for p in conflict.participants}
        return Defend(participant=conflict.pending.target or 0, dice=0, attack_id=conflict.pending.id)

    applied = await run_transition(storage, GUILD, CHANNEL, defend_what_is_pending)
    assert any(e.type == "resolved" for e in applied.events)


async def test_fifty_concurrent_adjustments_are_all_counted(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    results = await asyncio.gather(
        *(
            run_transition(storage, GUILD, CHANNEL, AdjustDice(participant=THORROW, delta=1))
            for _ in range(50)
        )
    )
    assert sorted(r.stored.version for r in results if r.stored) == list(range(DECLARED + 2, DECLARED + 52))
    final = await current_conflict(storage, GUILD, CHANNEL)
    assert final is not None and final.participant(THORROW).round.action_dice == 12 + 50


async def test_a_move_overtaken_between_its_read_and_its_write_is_redone_after_the_other(
    storage: Storage,
) -> None:
    """The move reads first and writes later (``run_transition``): here another move commits in
    between, so its versioned write changes nothing, and it is built and applied again on top."""
    await keep_hasting(storage, DECLARED)
    loaded, gate = asyncio.Event(), asyncio.Event()
    built_from: list[int] = []

    def adjust(state: Conflict, sheets: Mapping[int, Character]) -> AdjustDice:
        built_from.append(state.participant(THORROW).round.action_dice)
        return AdjustDice(participant=THORROW, delta=1)

    async def held() -> None:  # awaited once the Conflict is loaded
        loaded.set()
        await gate.wait()

    first = asyncio.create_task(run_transition(storage, GUILD, CHANNEL, adjust, ready=held()))
    await asyncio.wait_for(loaded.wait(), 10)
    other = run_transition(storage, GUILD, CHANNEL, AdjustDice(participant=THORROW, delta=5))
    second = await asyncio.wait_for(other, 10)  # not queued behind the move that waits
    gate.set()
    applied = await first
    assert built_from == [12, 12 + 5]  # from what it read, then from what the other move left
    assert second.stored is not None and applied.stored is not None
    assert applied.stored.version == second.stored.version + 1
    final = await current_conflict(storage, GUILD, CHANNEL)
    assert final is not None and final.participant(THORROW).round.action_dice == 12 + 5 + 1


async def test_a_sheet_edited_between_a_moves_read_and_its_write_is_not_overwritten(
    storage: Storage,
) -> None:
    """Damage a move deals is written with the sheet's version check: an edit of that sheet
    made meanwhile (a Narrator's note, say) is kept, and the damage lands on top of it."""
    await keep_hasting(storage, DECLARED + 2)
    loaded, gate = asyncio.Event(), asyncio.Event()

    async def held() -> None:
        loaded.set()
        await gate.wait()

    move = asyncio.create_task(
        run_transition(
            storage, GUILD, CHANNEL, SpendNudges(participant=THORROW, story=2, damage=2), ready=held()
        )
    )
    await asyncio.wait_for(loaded.wait(), 10)
    carrow = await storage.characters.get(GUILD, CARROW)
    noted = carrow.character.model_copy(update={"notes": "Bleeding from the scalp."})
    await asyncio.wait_for(storage.characters.update(GUILD, carrow, noted), 10)
    gate.set()
    await move
    after = (await storage.characters.get(GUILD, CARROW)).character
    assert after.notes == "Bleeding from the scalp."
    assert after.damage.health == 5


async def test_fifty_concurrent_attacks_are_applied_once_or_refused(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    outcomes = await asyncio.gather(
        *(run_transition(storage, GUILD, CHANNEL, Act(participant=THORROW, pool=2)) for _ in range(25)),
        *(run_transition(storage, GUILD, CHANNEL, Pass(participant=THORROW)) for _ in range(25)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and len(refused) == 49
    assert all(isinstance(o, RulesError) for o in refused)
    final = await current_conflict(storage, GUILD, CHANNEL)
    assert final is not None
    state = final.participant(THORROW).round
    assert state.action_dice == 0 and state.defense_dice in (10, 12)


async def test_starting_and_ending(storage: Storage) -> None:
    with pytest.raises(NotFoundError):
        await run_transition(storage, GUILD, CHANNEL, Pass(participant=1))
    await keep_hasting(storage)
    with pytest.raises(AlreadyExistsError):
        await start_conflict(storage, GUILD, CHANNEL, "social", "Again")
    applied = await end_conflict(storage, GUILD, CHANNEL)
    assert applied.ended and applied.stored is None
    assert applied.events[-1].type == "conflict_ended"
    assert await current_conflict(storage, GUILD, CHANNEL) is None
    started = await start_conflict(storage, GUILD, CHANNEL, "social", "A ball at Keep Venture")
    assert started.conflict.phase is Phase.GATHER and waiting(started.events).step is Step.JOIN


async def test_a_bad_start_creates_nothing(storage: Storage) -> None:
    from rules.conflict import Join

    with pytest.raises(RulesError, match="not found"):
        await start_conflict(storage, GUILD, CHANNEL, "physical", "x", [Join(character_id=42)])
    assert await current_conflict(storage, GUILD, CHANNEL) is None


async def test_a_deleted_sheet_is_reported_when_needed(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED + 2)
    await storage.characters.delete(GUILD, CARROW)
    with pytest.raises(RulesError, match="Carrow Bylerum's character sheet is missing"):
        await run_transition(storage, GUILD, CHANNEL, SpendNudges(participant=THORROW, damage=2, story=2))


@pytest.mark.parametrize("acked", [DECLARED + 1, DECLARED + 4])
async def test_a_killed_process_resumes_where_it_committed(tmp_path: Path, acked: int) -> None:
    """Kill -9 the writer right after it is told to apply one more command: the file holds the
    state after ``acked`` or ``acked + 1`` commands, with its dice and pending attack, and the
    round finishes from there exactly as it would have."""
    path = tmp_path / "crash.sqlite3"
    proc = await start_test_module("tests.bot.cogs.conflict.moves.crash_conflict", str(path), stdin=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert (await asyncio.wait_for(proc.stdout.readline(), 30)).strip() == b"ready"
        for index in range(acked):
            proc.stdin.write(b"go\n")
            await proc.stdin.drain()
            assert int(await asyncio.wait_for(proc.stdout.readline(), 30)) == index
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    finally:
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
    assert proc.returncode == -signal.SIGKILL

    steps = expected_steps()
    async with await Storage.open(path) as storage:
        stored = await current_conflict(storage, GUILD, CHANNEL)
        matches = [i for i, (state, _) in enumerate(steps) if state == stored]
        assert matches and matches[0] in (acked, acked + 1)
        done = matches[0]
        assert await stored_sheets(storage) == steps[done][1]
        if done == DECLARED + 1:
            assert stored is not None and stored.pending is not None
            assert stored.participant(THORROW).round.defense_dice == 4
        for command in round_one()[done:]:
            await run_transition(storage, GUILD, CHANNEL, command)
        assert await current_conflict(storage, GUILD, CHANNEL) == steps[-1][0]
        assert await stored_sheets(storage) == steps[-1][1]
