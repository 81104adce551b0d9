"""Old rows go a batch at a time (``storage.pruning``): no single DELETE holds the writer, which on
SQLite answers on the event loop's thread, for as long as a whole table's worth of rows takes."""

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rules.contest import Side
from rules.journal import EntryKind, JournalEntry
from rules.request import NewRoller, RequestKind, RequestSpec
from storage import MessageKind, NewMessage, RollRecord, Storage, pruning, sql
from storage.errors import AlreadyHandledError
from storage.places import Origin
from storage.pruning import snowflake_before
from storage.sql import utc_now

GUILD, CHANNEL = 1, 10


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows each pruning statement deleted, in order."""
    deleted: list[int] = []
    execute = sql.execute

    async def counted(*args: Any) -> int:
        count = await execute(*args)
        deleted.append(count)
        return count

    monkeypatch.setattr(pruning, "execute", counted)
    return deleted


async def test_handled_interactions_are_forgotten_a_batch_at_a_time(
    storage: Storage, statements: list[int]
) -> None:
    for interaction_id in range(1, 8):
        await storage.handled.claim(interaction_id)
    assert await storage.handled.prune(utc_now() - timedelta(days=1), batch=3) == 0
    assert await storage.handled.prune(utc_now() + timedelta(seconds=1), batch=3) == 7
    assert statements == [0, 3, 3, 1]
    await storage.handled.claim(1)  # forgotten: it may be handled again


async def test_delivered_outbox_rows_are_pruned_a_batch_at_a_time(
    storage: Storage, statements: list[int]
) -> None:
    said = NewMessage(
        kind=MessageKind.OUTCOME, payload={"content": "said", "allowed_mentions": {"parse": []}}
    )
    rows = await storage.outbox.add(GUILD, CHANNEL, None, [said] * 5)
    for row in rows[:4]:
        await storage.outbox.delivered(row.id, row.id + 1000)
    assert await storage.outbox.prune(utc_now() + timedelta(seconds=1), batch=2) == 4
    assert statements == [2, 2, 0]
    assert [await storage.outbox.get(row.id) is not None for row in rows] == [False] * 4 + [True]


async def test_old_requests_are_pruned_a_batch_at_a_time(storage: Storage, statements: list[int]) -> None:
    roller = NewRoller(side=Side.ACTING, character_id=0, user_id=5, name="Vin")
    made = [
        await storage.requests.create(GUILD, CHANNEL, 5, RequestKind.ROLL, RequestSpec(stat="Wits"), [roller])
        for _ in range(3)
    ]
    assert await storage.requests.prune(utc_now() + timedelta(seconds=1), batch=2) == 3
    assert statements == [2, 1]
    assert [await storage.requests.get(GUILD, request.id) for request in made] == [None] * 3


# The tables every roll writes have no index on their time: a prune walks their primary key from
# the oldest row (``storage.pruning.prune_oldest``, ``snowflake_before``).

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
OLD, NEW = T0 - timedelta(days=100), T0
CUTOFF = T0 - timedelta(days=90)


def logged(at: datetime, label: str) -> RollRecord:
    return RollRecord(
        guild_id=GUILD, user_id=5, at=at, label=label, dice=1, free_nudges=0, underflow=0,
        difficulty=1, faces=(4,), result=0, outcome=-1, success=False,
    )  # fmt: skip


async def labels(storage: Storage) -> list[str]:
    return [record.label for record in reversed(await storage.rolls.recent(GUILD, limit=100))]


async def test_old_rolls_go_oldest_first_a_batch_at_a_time(storage: Storage, statements: list[int]) -> None:
    for n in range(7):
        await storage.rolls.append(logged(OLD + timedelta(minutes=n), f"old {n}"))
    for n in range(2):
        await storage.rolls.append(logged(NEW, f"new {n}"))
    assert await storage.rolls.prune(CUTOFF, batch=3) == 7
    assert statements == [3, 3, 1, 0]  # the third batch held the first new rolls: one more look
    assert await labels(storage) == ["new 0", "new 1"]


async def test_with_nothing_old_a_prune_is_one_statement(storage: Storage, statements: list[int]) -> None:
    for n in range(5):
        await storage.rolls.append(logged(NEW, f"new {n}"))
    await storage.journal.add(GUILD, Origin(channel_id=CHANNEL), [told(NEW, "new")] * 5)
    await storage.handled.claim(snowflake_before(utc_now()))
    assert await storage.rolls.prune(CUTOFF, batch=2) == 0
    assert await storage.journal.prune(CUTOFF, batch=2) == 0
    assert await storage.handled.prune(utc_now() - timedelta(days=1), batch=2) == 0
    assert statements == [0, 0, 0, 0]  # rolls; journal, then its closed sessions; claims


async def test_a_roll_stamped_out_of_order_is_kept_never_deleted_early(
    storage: Storage, statements: list[int]
) -> None:
    """A stamp older than a row logged before it (another writer's clock): within the batch it
    goes with its neighbours; behind a whole batch of younger rows it waits for them to age."""
    await storage.rolls.append(logged(OLD, "old"))
    await storage.rolls.append(logged(NEW, "new"))
    await storage.rolls.append(logged(OLD, "late old"))
    assert await storage.rolls.prune(CUTOFF, batch=3) == 2
    assert await labels(storage) == ["new"]
    for n in range(2):
        await storage.rolls.append(logged(NEW, f"new {n}"))
    await storage.rolls.append(logged(OLD, "behind"))
    assert await storage.rolls.prune(CUTOFF, batch=2) == 0
    assert await labels(storage) == ["new", "new 0", "new 1", "behind"]
    assert await storage.rolls.prune(NEW + timedelta(seconds=1), batch=2) == 4
    assert await labels(storage) == []


def told(at: datetime, text: str) -> JournalEntry:
    return JournalEntry(at=at, kind=EntryKind.ROLL, text=text, public=text)


async def test_old_journal_entries_go_oldest_first_a_batch_at_a_time(
    storage: Storage, statements: list[int]
) -> None:
    await storage.journal.add(
        GUILD, Origin(channel_id=CHANNEL), [told(OLD + timedelta(minutes=n), f"old {n}") for n in range(5)]
    )
    session = await storage.journal.start(GUILD, CHANNEL, "Now", 5, NEW)
    await storage.journal.add(GUILD, Origin(channel_id=CHANNEL), [told(NEW, "new 0"), told(NEW, "new 1")])
    assert await storage.journal.prune(CUTOFF, batch=2) == 5
    assert statements == [2, 2, 1, 0, 0]  # entries; then the closed sessions (none)
    assert [e.text for e in await storage.journal.entries(session)] == ["new 0", "new 1"]


def made_at(moment: datetime, n: int = 0) -> int:
    """A Discord snowflake made at ``moment`` (the n-th of its millisecond)."""
    return snowflake_before(moment) | n


async def test_claims_are_forgotten_by_their_snowflake_and_when_handled(
    storage: Storage, statements: list[int]
) -> None:
    """An interaction is made (its snowflake's time) before it is handled: those handled before
    the cut are below its snowflake in the primary key. One handled before the cut whose id says
    it was made after it (clocks apart) is kept for the next prune, never forgotten early."""
    now = utc_now()
    made = [made_at(now - timedelta(seconds=5), n) for n in range(5)]
    for interaction_id in made:
        await storage.handled.claim(interaction_id)
    ahead = made_at(now + timedelta(minutes=1))
    await storage.handled.claim(ahead)
    later = utc_now() + timedelta(seconds=1)
    assert await storage.handled.prune(later, batch=2) == 5
    assert statements == [2, 2, 1]
    for interaction_id in made:
        await storage.handled.claim(interaction_id)  # forgotten: each may be handled again
    with pytest.raises(AlreadyHandledError):
        await storage.handled.claim(ahead)
    assert await storage.handled.prune(later + timedelta(minutes=2)) == 6


async def vm_steps(storage: Storage, prune: Callable[[], Awaitable[int]]) -> int:
    """The SQLite instructions ``prune`` ran on the writer (its work, whatever the clock says)."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    connection = storage.sqlite.writer.connection
    connection.set_progress_handler(count, 1)
    try:
        assert await prune() == 0
    finally:
        connection.set_progress_handler(None, 1)
    return steps


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_a_prune_with_nothing_old_does_the_same_work_however_big_the_table(storage: Storage) -> None:
    """No index on the time, yet no scan of the table: the prune reads one batch by primary key."""
    work: list[tuple[int, int, int]] = []
    for rows in (300, 1500):
        async with storage.transaction() as tx:
            for n in range(rows):
                await tx.rolls.append(logged(NEW, f"new {n}"))
            await tx.journal.add(GUILD, Origin(channel_id=CHANNEL), [told(NEW, "new")] * rows)
            for n in range(rows):
                await tx.handled.claim(made_at(utc_now(), n))
        work.append(
            (
                await vm_steps(storage, lambda: storage.rolls.prune(CUTOFF, batch=50)),
                await vm_steps(storage, lambda: storage.journal.prune(CUTOFF, batch=50)),
                await vm_steps(
                    storage, lambda: storage.handled.prune(utc_now() - timedelta(days=1), batch=50)
                ),
            )
        )
    assert work[0] == work[1]
