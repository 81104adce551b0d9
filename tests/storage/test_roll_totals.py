"""The fairness report counts every roll ever logged, pruned or not (``storage.rolls``): the rolls
still in the log are summed when it is asked, and the prune adds what it deletes to the pruned
rolls' totals in the same unit, so no roll is missed or counted twice, even by two processes
pruning at once (migration 26: a trigger kept the totals on every roll before)."""

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from storage import RollRecord, RollStats, Storage
from storage.migrations import migrate
from storage.pg_migrations import MIGRATIONS
from testbed.pg_server import PgServer
from tests.conftest import BACKENDS
from tests.storage.test_migrations import raw

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
OLD, CUTOFF = T0 - timedelta(days=100), T0 - timedelta(days=90)
GUILD = 1


def rolled(rng: random.Random, at: datetime) -> RollRecord:
    faces = tuple(rng.randint(1, 6) for _ in range(rng.randint(0, 6)))
    return RollRecord(
        guild_id=GUILD, user_id=rng.choice((10, 11, 12)), at=at, label="x", dice=len(faces),
        free_nudges=0, underflow=0, difficulty=2, faces=faces, result=0, outcome=-2,
        success=rng.random() < 0.5, secret=rng.random() < 0.3,
    )  # fmt: skip


def counted(records: list[RollRecord], viewer: int | None = None, user_id: int | None = None) -> RollStats:
    """What the report must say of ``records``, counted here one by one."""
    seen = [
        r
        for r in records
        if (user_id is None or r.user_id == user_id) and (not r.secret or viewer in (None, r.user_id))
    ]
    faces = [sum(r.faces.count(face) for r in seen) for face in range(1, 7)]
    return RollStats(
        rolls=len(seen),
        successes=sum(r.success for r in seen),
        face_counts=(faces[0], faces[1], faces[2], faces[3], faces[4], faces[5]),
        secret=sum(r.secret for r in seen),
    )


async def report(storage: Storage) -> list[object]:
    """Every form of the report, for everyone and for one player, by member too."""
    return [
        await storage.rolls.stats(GUILD),
        await storage.rolls.stats(GUILD, viewer=11),
        await storage.rolls.stats(GUILD, 11, viewer=11),
        await storage.rolls.stats_by_user(GUILD),
        await storage.rolls.stats_by_user(GUILD, viewer=12),
    ]


def expected(records: list[RollRecord]) -> list[object]:
    users = sorted({r.user_id for r in records})
    return [
        counted(records),
        counted(records, viewer=11),
        counted(records, viewer=11, user_id=11),
        {user: counted(records, user_id=user) for user in users},
        {
            user: counted(records, viewer=12, user_id=user)
            for user in users
            if counted(records, viewer=12, user_id=user).rolls
        },
    ]


@pytest.fixture(params=BACKENDS)
async def two(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two processes' storages on one database: each its own writer or pool, nothing shared."""
    if request.param == "sqlite":
        async with await Storage.open(db_path) as first, await Storage.open(db_path) as second:
            yield first, second
        return
    server = request.getfixturevalue("pg_server")
    url = await server.create_database()
    try:
        async with await Storage.open(url=url) as first, await Storage.open(url=url) as second:
            yield first, second
    finally:
        await server.drop_database(url)


async def test_two_processes_pruning_at_once_count_each_roll_once(two: tuple[Storage, Storage]) -> None:
    first, second = two
    rng = random.Random(40)
    old = [rolled(rng, OLD + timedelta(minutes=n)) for n in range(60)]
    new = [rolled(rng, T0) for _ in range(9)]
    for record in old + new:
        await first.rolls.append(record)
    assert await report(first) == expected(old + new)
    pruned = await asyncio.gather(
        first.rolls.prune(CUTOFF, batch=7),
        second.rolls.prune(CUTOFF, batch=5),
        first.rolls.prune(CUTOFF, batch=3),
    )
    assert sum(pruned) == len(old)
    assert len(await first.rolls.recent(GUILD, limit=100)) == len(new)
    assert await report(first) == await report(second) == expected(old + new)


async def test_a_member_whose_rolls_were_all_pruned_is_still_counted(storage: Storage) -> None:
    rng = random.Random(41)
    old = [rolled(rng, OLD).model_copy(update={"user_id": 13}) for _ in range(4)]
    for record in old:
        await storage.rolls.append(record)
    await storage.rolls.prune(CUTOFF)
    assert await storage.rolls.recent(GUILD) == []
    assert await storage.rolls.stats_by_user(GUILD) == {13: counted(old)}
    assert await storage.rolls.stats(GUILD, 13) == counted(old)


async def test_migration_26_keeps_every_figure_of_the_report(db_path: Path) -> None:
    """A file whose trigger counted rolls since pruned reads the same report once migrated."""
    rng = random.Random(42)
    records = [rolled(rng, OLD + timedelta(minutes=n)) for n in range(30)]
    conn = await raw(db_path)
    await migrate(conn, target=25)
    for record in records:
        await insert_roll(conn, record)
    await conn.execute("DELETE FROM roll_log WHERE id <= 20")  # pruned by the bot of then: totals kept
    await conn.close()
    async with await Storage.open(db_path) as storage:
        assert len(await storage.rolls.recent(GUILD, limit=100)) == 10
        assert await report(storage) == expected(records)
        await storage.rolls.prune(CUTOFF)
        assert await report(storage) == expected(records)


async def insert_roll(conn: aiosqlite.Connection, record: RollRecord) -> None:
    counts = [record.faces.count(face) for face in range(1, 7)]
    await conn.execute(
        "INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow, difficulty,"
        " faces, result, outcome, success, ones, twos, threes, fours, fives, sixes, secret)"
        " VALUES (?, ?, ?, 'x', ?, 0, 0, 2, ?, 0, -2, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.guild_id,
            record.user_id,
            record.at.isoformat(),
            record.dice,
            ",".join(map(str, record.faces)),
            int(record.success),
            *counts,
            int(record.secret),
        ),
    )


async def test_postgres_migration_14_keeps_every_figure_of_the_report(pg_server: PgServer) -> None:
    """The same on PostgreSQL, whose trigger (a function) counted the rolls since pruned."""
    rng = random.Random(43)
    records = [rolled(rng, OLD + timedelta(minutes=n)) for n in range(30)]
    url = await pg_server.create_database()
    try:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)")
            for number, script in enumerate(MIGRATIONS[:13], start=1):
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_migrations (version) VALUES ($1)", number)
            for record in records:
                counts = [record.faces.count(face) for face in range(1, 7)]
                await conn.execute(
                    "INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow,"
                    " difficulty, faces, result, outcome, success, ones, twos, threes, fours, fives, sixes,"
                    " secret) VALUES ($1, $2, $3, 'x', $4, 0, 0, 2, $5, 0, -2, $6, $7, $8, $9, $10, $11, $12,"
                    " $13)",
                    record.guild_id, record.user_id, record.at.isoformat(), record.dice,
                    ",".join(map(str, record.faces)), int(record.success), *counts, int(record.secret),
                )  # fmt: skip
            await conn.execute("DELETE FROM roll_log WHERE id <= 20")
        finally:
            await conn.close()
        async with await Storage.open(url=url) as storage:
            assert len(await storage.rolls.recent(GUILD, limit=100)) == 10
            assert await report(storage) == expected(records)
    finally:
        await pg_server.drop_database(url)
