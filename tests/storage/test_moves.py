"""A Conflict move's writes as one data operation (``storage.moves``) refuse, on both databases,
exactly as the repositories' own writes do, and keep nothing when they refuse: on PostgreSQL the
checks run inside the one ``apply_move`` statement."""

from collections.abc import Callable
from dataclasses import replace

import pytest

from storage import NotFoundError, Storage
from storage.character_rows import StoredCharacter
from storage.conflict_undo import SheetBefore, UndoRecord
from storage.conflicts import StoredConflict
from storage.errors import AlreadyHandledError, StaleWriteError
from storage.moves import MoveWrite
from storage.outbox import MessageKind, NewMessage
from storage.sql import fetch_one, utc_now
from tests.bot.cogs.conflict.moves.crash_conflict import GUILD
from tests.bot.cogs.conflict.moves.test_pg_trips import a_roll
from tests.bot.cogs.conflict.moves.test_transaction import DECLARED, keep_hasting
from tests.rules.conflict.keep_hasting import CARROW, CHANNEL

Change = Callable[[StoredConflict, StoredCharacter], tuple[StoredConflict, StoredCharacter]]
CASES: dict[str, tuple[Change, type[Exception], str]] = {
    "the Conflict changed": (
        lambda c, s: (c.model_copy(update={"version": c.version - 1}), s),
        StaleWriteError,
        "changed this Conflict",
    ),
    "the Conflict ended": (
        lambda c, s: (c.model_copy(update={"id": c.id + 1000}), s),
        NotFoundError,
        "has ended",
    ),
    "a sheet changed": (
        lambda c, s: (c, s.model_copy(update={"version": s.version - 1})),
        StaleWriteError,
        "changed Carrow",
    ),
    "a sheet was deleted": (
        lambda c, s: (c, s.model_copy(update={"id": 999_999})),
        NotFoundError,
        "no longer exists",
    ),
}


async def counts(storage: Storage) -> tuple[int, int, int]:
    found = []
    for table in ("roll_log", "outbox", "handled_interactions"):
        row = await fetch_one(storage.database.reader, f"SELECT COUNT(*) AS n FROM {table}")
        found.append(0 if row is None else int(row["n"]))
    return found[0], found[1], found[2]


async def move_from(storage: Storage, change: Change, interaction_id: int | None = None) -> MoveWrite:
    stored, loaded = await storage.conflicts.get_with_sheets(GUILD, CHANNEL)
    assert stored is not None
    stored, sheet = change(stored, loaded[CARROW])
    return MoveWrite(
        guild_id=GUILD,
        channel_id=CHANNEL,
        stored=stored,
        document=stored.document,
        participants=sorted(loaded),
        sheets=[(sheet, sheet.character)],
        rolls=[a_roll()],
        messages=[NewMessage(kind=MessageKind.NOTICE, payload={"content": "moved"})],
        interaction_id=interaction_id,
    )


@pytest.mark.parametrize("case", sorted(CASES))
async def test_a_refused_move_keeps_nothing(storage: Storage, case: str) -> None:
    change, error, message = CASES[case]
    await keep_hasting(storage, DECLARED)
    before = await storage.conflicts.get_with_sheets(GUILD, CHANNEL)
    move = await move_from(storage, change, interaction_id=55)
    with pytest.raises(error, match=message):
        await storage.moves.write(move)
    assert await storage.conflicts.get_with_sheets(GUILD, CHANNEL) == before
    assert await counts(storage) == (0, 0, 0)


async def test_a_claimed_interaction_is_reported_first_and_keeps_nothing(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    await storage.handled.claim(55)
    before = await storage.conflicts.get_with_sheets(GUILD, CHANNEL)
    stale, _, _ = CASES["the Conflict changed"]
    for change in (lambda c, s: (c, s), stale):
        with pytest.raises(AlreadyHandledError):
            await storage.moves.write(await move_from(storage, change, interaction_id=55))
    assert await storage.conflicts.get_with_sheets(GUILD, CHANNEL) == before
    assert await counts(storage) == (0, 0, 1)


async def test_a_move_whose_reply_answers_its_interaction_is_claimed_by_that_reply(
    storage: Storage,
) -> None:
    """The reply's outbox row is the claim (one row per interaction): the same interaction's
    move again, read from the new state so every version check passes, raises and keeps nothing."""
    await keep_hasting(storage, DECLARED)
    reply = [NewMessage(kind=MessageKind.OUTCOME, payload={"content": "moved"}, interaction_id=55)]
    same = lambda c, s: (c, s)  # noqa: E731
    await storage.moves.write(replace(await move_from(storage, same, interaction_id=55), messages=reply))
    after, written = await storage.conflicts.get_with_sheets(GUILD, CHANNEL), await counts(storage)
    with pytest.raises(AlreadyHandledError):
        await storage.moves.write(replace(await move_from(storage, same, interaction_id=55), messages=reply))
    assert await storage.conflicts.get_with_sheets(GUILD, CHANNEL) == after
    assert await counts(storage) == written


async def test_a_move_writes_everything_once(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    written = await storage.moves.write(await move_from(storage, lambda c, s: (c, s), interaction_id=55))
    stored, loaded = await storage.conflicts.get_with_sheets(GUILD, CHANNEL)
    assert written.stored == stored
    assert written.sheets == (loaded[CARROW],)
    [message] = written.messages
    assert await storage.outbox.get(message.id) == message
    assert await counts(storage) == (1, 1, 1)


async def test_a_move_logs_each_of_its_rolls_in_order_and_counts_each(storage: Storage) -> None:
    """The rolls of one move go in one statement: every one is logged, in the order made, and
    the fairness totals count each (the table's trigger runs per row)."""
    await keep_hasting(storage, DECLARED)
    made = [
        a_roll().model_copy(update={"label": "attack", "faces": (1, 6, 6)}),
        a_roll().model_copy(update={"label": "defence", "faces": (2,)}),
        a_roll().model_copy(update={"label": "damage", "faces": (6, 4)}),
    ]
    move = await move_from(storage, lambda c, s: (c, s), interaction_id=55)
    await storage.moves.write(replace(move, rolls=made))
    logged = await storage.rolls.recent(GUILD, limit=10)
    assert [roll.label for roll in logged] == ["damage", "defence", "attack"]  # newest first
    assert [roll.faces for roll in logged] == [(6, 4), (2,), (1, 6, 6)]
    stats = await storage.rolls.stats(GUILD, 7)
    assert (stats.rolls, stats.face_counts) == (3, (1, 1, 0, 1, 0, 3))


def a_record(stored: StoredConflict, sheet: StoredCharacter, mover: int = 7) -> UndoRecord:
    return UndoRecord(
        conflict_id=stored.id,
        version=stored.version + 1,
        mover_id=mover,
        made_at=utc_now().replace(microsecond=0),
        what="Acted",
        document=stored.document,
        sheets=(SheetBefore(sheet.id, sheet.version + 1, sheet.character.model_dump_json()),),
    )


async def test_a_move_keeps_what_it_changed_for_an_undo_and_the_next_replaces_it(storage: Storage) -> None:
    """The record rides in the move's one data operation (docs/rulings.md §4.24): kept with a
    move, replaced by the next, and kept by none that is refused."""
    await keep_hasting(storage, DECLARED)
    same = lambda c, s: (c, s)  # noqa: E731
    first = await move_from(storage, same)
    record = a_record(first.stored, first.sheets[0][0])
    await storage.moves.write(replace(first, undo=record))
    assert await storage.undo.get(first.stored.id) == record
    second = await move_from(storage, same)
    newer = a_record(second.stored, second.sheets[0][0], mover=8)
    await storage.moves.write(replace(second, undo=newer))
    assert await storage.undo.get(first.stored.id) == newer
    stale = await move_from(storage, CASES["the Conflict changed"][0])
    with pytest.raises(StaleWriteError):
        await storage.moves.write(replace(stale, undo=a_record(stale.stored, stale.sheets[0][0], mover=9)))
    assert await storage.undo.get(first.stored.id) == newer


async def test_a_move_that_ends_the_conflict_drops_its_record(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    same = lambda c, s: (c, s)  # noqa: E731
    first = await move_from(storage, same)
    await storage.moves.write(replace(first, undo=a_record(first.stored, first.sheets[0][0])))
    ending = await move_from(storage, same)
    await storage.moves.write(replace(ending, document=None))
    assert await storage.undo.get(first.stored.id) is None
