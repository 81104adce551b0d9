from datetime import UTC, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from rules.journal import EntryKind, JournalEntry
from storage import RollRecord, RollStats, Storage
from storage.errors import AlreadyHandledError
from storage.places import Origin

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def roll(
    guild_id: int = 1,
    user_id: int = 10,
    faces: tuple[int, ...] = (1, 3, 6),
    success: bool = True,
    at: datetime = T0,
    label: str = "Physique",
) -> RollRecord:
    return RollRecord(
        guild_id=guild_id,
        user_id=user_id,
        at=at,
        label=label,
        dice=len(faces),
        free_nudges=0,
        underflow=0,
        difficulty=2,
        faces=faces,
        result=3 if success else 0,
        outcome=1 if success else -2,
        success=success,
    )


async def test_append_returns_growing_ids_and_recent_round_trips(storage: Storage) -> None:
    first = await storage.rolls.append(roll(faces=(2, 2)))
    second = await storage.rolls.append(roll(faces=(5, 5, 6), success=False))
    assert second > first
    recent = await storage.rolls.recent(1)
    assert recent == [roll(faces=(5, 5, 6), success=False), roll(faces=(2, 2))]


async def test_a_roll_logged_once_per_interaction(storage: Storage) -> None:
    """The same interaction twice (a replay, two sessions of one shard) logs one roll and
    counts it once in the fairness totals; another interaction logs its own."""
    first = await storage.rolls.append_once(roll(faces=(2, 2)), interaction_id=555)
    with pytest.raises(AlreadyHandledError):
        await storage.rolls.append_once(roll(faces=(6, 6)), interaction_id=555)
    other = await storage.rolls.append_once(roll(faces=(4,)), interaction_id=556)
    assert other > first
    assert await storage.rolls.recent(1) == [roll(faces=(4,)), roll(faces=(2, 2))]
    assert (await storage.rolls.stats(1)).rolls == 2


async def test_a_roll_logged_once_keeps_its_journal_entries_with_it(storage: Storage) -> None:
    """The claim, the roll and its entries are one unit (on PostgreSQL one statement): the
    entries read back as they were told, in order, and a replay adds no roll and no entry."""
    session = await storage.journal.start(1, 20, "Tonight", 7, T0 - timedelta(hours=1))
    told = [
        JournalEntry(at=T0, kind=EntryKind.ROLL, text="Vin rolled (secret)", public=None, owner_id=10,
                     character_id=3, outcome=1),
        JournalEntry(at=T0, kind=EntryKind.ROLL, text="Kelsier rolled", public="Kelsier rolled", outcome=-2),
    ]  # fmt: skip
    await storage.rolls.append_once(roll(), 700, (Origin(channel_id=20), told))
    with pytest.raises(AlreadyHandledError):
        await storage.rolls.append_once(roll(faces=(6,)), 700, (Origin(channel_id=20), told[:1]))
    assert await storage.journal.entries(session) == told
    assert await storage.rolls.recent(1) == [roll()]


async def test_a_replayed_roll_inside_a_transaction_leaves_the_transaction_usable(storage: Storage) -> None:
    await storage.rolls.append_once(roll(), 701)
    async with storage.transaction() as tx:
        with pytest.raises(AlreadyHandledError):
            await tx.rolls.append_once(roll(faces=(6,)), 701)
        await tx.rolls.append(roll(label="after"))
    assert [r.label for r in await storage.rolls.recent(1)] == ["after", "Physique"]


async def test_recent_filters_by_user_and_limits(storage: Storage) -> None:
    for i in range(15):
        await storage.rolls.append(roll(user_id=10 + i % 2, label=f"roll {i}"))
    mine = await storage.rolls.recent(1, user_id=10, limit=3)
    assert [r.label for r in mine] == ["roll 14", "roll 12", "roll 10"]
    assert len(await storage.rolls.recent(1)) == 10
    assert len(await storage.rolls.recent(1, limit=1000)) == 15
    assert await storage.rolls.recent(1, limit=0) == []


async def test_times_are_kept_in_utc(storage: Storage) -> None:
    local = T0.astimezone(timezone(timedelta(hours=-5)))
    await storage.rolls.append(roll(at=local))
    (stored,) = await storage.rolls.recent(1)
    assert stored.at == T0
    assert stored.at.utcoffset() == timedelta(0)


async def test_stats_count_faces_rolls_and_successes(storage: Storage) -> None:
    await storage.rolls.append(roll(user_id=10, faces=(1, 1, 6), success=True))
    await storage.rolls.append(roll(user_id=10, faces=(2, 3), success=False))
    await storage.rolls.append(roll(user_id=11, faces=(6, 6, 6, 4), success=True))
    mine = await storage.rolls.stats(1, user_id=10)
    assert mine == RollStats(rolls=2, successes=1, face_counts=(2, 1, 1, 0, 0, 1))
    assert mine.success_rate == 0.5
    assert mine.dice_thrown == 5
    everyone = await storage.rolls.stats(1)
    assert everyone == RollStats(rolls=3, successes=2, face_counts=(2, 1, 1, 1, 0, 4))
    by_user = await storage.rolls.stats_by_user(1)
    assert by_user == {10: mine, 11: RollStats(rolls=1, successes=1, face_counts=(0, 0, 0, 1, 0, 3))}


async def test_stats_of_nothing_are_zero_with_no_rate(storage: Storage) -> None:
    stats = await storage.rolls.stats(1)
    assert stats == RollStats()
    assert stats.success_rate is None
    assert await storage.rolls.stats_by_user(1) == {}


@pytest.mark.parametrize(
    "change",
    [
        {"faces": (0, 3)},
        {"faces": (7,)},
        {"faces": tuple([1] * 21)},
        {"at": datetime(2024, 1, 1)},
        {"label": "x" * 201},
        {"dice": -1},
    ],
)
def test_bad_records_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        RollRecord.model_validate(roll().model_dump() | change)


async def test_pruning_keeps_recent_rolls_and_every_total(storage: Storage) -> None:
    """Old rolls leave the log; the fairness totals still count them, per member too."""
    old = [roll(user_id=10, at=T0 - timedelta(days=100), faces=(6, 6)) for _ in range(7)]
    new = [roll(user_id=11, at=T0, faces=(1,), success=False), roll(user_id=10, at=T0, label="kept")]
    for record in old + new:
        await storage.rolls.append(record)
    before = (
        await storage.rolls.stats(1),
        await storage.rolls.stats(1, 10),
        await storage.rolls.stats_by_user(1),
    )
    assert await storage.rolls.prune(T0 - timedelta(days=90), batch=3) == 7
    assert [r.label for r in await storage.rolls.recent(1)] == ["kept", "Physique"]
    after = (
        await storage.rolls.stats(1),
        await storage.rolls.stats(1, 10),
        await storage.rolls.stats_by_user(1),
    )
    assert after == before
    assert after[0] == RollStats(rolls=9, successes=8, face_counts=(2, 0, 1, 0, 0, 15))
    assert await storage.rolls.prune(T0 - timedelta(days=90)) == 0


async def test_totals_are_per_server(storage: Storage) -> None:
    await storage.rolls.append(roll(guild_id=1))
    await storage.rolls.append(roll(guild_id=2, faces=(2, 2)))
    assert (await storage.rolls.stats(1)).face_counts == (1, 0, 1, 0, 0, 1)
    assert (await storage.rolls.stats(2)).face_counts == (0, 2, 0, 0, 0, 0)
