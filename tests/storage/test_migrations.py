import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from rules.character import Character, CharacterKind
from rules.character.draft import new_draft
from storage import LATEST_VERSION, GuildSettings, SchemaVersionError, Storage, migrations
from storage.migrations import MIGRATIONS, migrate, schema_version, split_statements, steps
from storage.sql import Connection, fetch_one
from tests.faults.disk import filler_roll

pytestmark = pytest.mark.sqlite_only
"""These test the SQLite file itself (its migrations, its backups)."""

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=7)
STAMP = "2024-05-01T12:00:00.000000+00:00"


async def raw(path: Path) -> aiosqlite.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA foreign_keys = ON")
    return conn


async def seed(conn: aiosqlite.Connection, version: int) -> None:
    """Rows as an older bot would have written them, for every table that existed at ``version``."""
    if version >= 1:
        await conn.execute(
            "INSERT INTO characters (id, guild_id, name, name_key, owner_id, kind, version, updated_at,"
            " document) VALUES (5, 1, 'Vin', 'vin', 7, 'hero', 3, ?, ?)",
            (STAMP, VIN.model_dump_json()),
        )
        await conn.execute("INSERT INTO active_characters VALUES (1, 7, 5)")
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id) VALUES (1, '[42]', 99)"
        )
        await conn.execute(
            "INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow, difficulty,"
            " faces, result, outcome, success, ones, twos, threes, fours, fives, sixes)"
            " VALUES (1, 7, ?, 'Wits', 3, 0, 0, 2, '3,3,6', 3, 1, 1, 0, 0, 2, 0, 0, 1)",
            (STAMP,),
        )
    if version >= 2:
        await conn.execute(
            "INSERT INTO conflicts (id, guild_id, channel_id, version, updated_at, document)"
            " VALUES (3, 1, 100, 4, ?, '{}')",
            (STAMP,),
        )
    if version >= 3:
        await conn.execute(
            "INSERT INTO conflict_boards (guild_id, channel_id, message_id) VALUES (1, 100, 77)"
        )
    if version >= 7:
        await conn.execute(
            "INSERT INTO outbox (guild_id, channel_id, conflict_id, kind, payload, created_at)"
            " VALUES (1, 100, 3, 'outcome', '{\"content\": \"hi\"}', ?)",
            (STAMP,),
        )


async def test_fresh_file_reaches_the_latest_version(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        assert await schema_version(storage.sqlite.reader) == LATEST_VERSION
    assert db_path.exists()


@pytest.mark.parametrize("start", range(LATEST_VERSION))
async def test_upgrade_from_each_earlier_version_keeps_data(db_path: Path, start: int) -> None:
    conn = await raw(db_path)
    assert await migrate(conn, target=start) == start
    await seed(conn, start)
    await conn.close()

    async with await Storage.open(db_path) as storage:
        assert await schema_version(storage.sqlite.reader) == LATEST_VERSION
        if start >= 1:
            vin = await storage.characters.get_by_name(1, "VIN")
            assert (vin.id, vin.version, vin.character) == (5, 3, VIN)
            assert await storage.active.get(1, 7) == vin
            assert await storage.settings.get(1) == GuildSettings(narrator_role_ids=(42,), gm_channel_id=99)
            assert [r.faces for r in await storage.rolls.recent(1)] == [(3, 3, 6)]
            # The fairness totals count the rolls logged before they existed (migration 8).
            assert (await storage.rolls.stats(1, 7)).face_counts == (0, 0, 2, 0, 0, 1)
        if start >= 2:
            conflict = await storage.conflicts.get(1, 100)
            assert conflict is not None
            assert (conflict.id, conflict.version) == (3, 4)
        if start >= 3:  # a board drawn before boards knew their version: redrawn at start
            board = await storage.boards.row(1, 100)
            assert board is not None and (board.message_id, board.conflict_id, board.rendered_version) == (
                77,
                None,
                0,
            )
        if start >= 7:
            [queued] = await storage.outbox.waiting(1, 100)
            assert queued.payload == {"content": "hi"}
        # The upgraded file takes new writes in every table.
        await seed_latest(storage)


async def seed_latest(storage: Storage) -> None:
    kel = await storage.characters.create(1, Character(name="Kelsier", kind=CharacterKind.HERO, owner_id=8))
    await storage.active.set(1, 8, kel.id)
    conflict = await storage.conflicts.create(1, 200, "{}")
    await storage.boards.set(1, 200, 88, conflict_id=conflict.id, version=1)
    await storage.rolls.append(filler_roll(1, 8))
    await storage.drafts.start(1, 8, new_draft("Spook", 8))


async def test_reopening_is_a_no_op(db_path: Path) -> None:
    async with await Storage.open(db_path) as storage:
        await seed_latest(storage)
    async with await Storage.open(db_path) as storage:
        assert (await storage.characters.get_by_name(1, "kelsier")).version == 1


async def test_a_newer_file_is_refused(db_path: Path) -> None:
    conn = await raw(db_path)
    await conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    await conn.close()
    with pytest.raises(SchemaVersionError, match="update the bot"):
        await Storage.open(db_path)


async def test_a_failing_migration_changes_nothing(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conn = await raw(db_path)
    await migrate(conn)
    broken = "CREATE TABLE half_done (a INTEGER);\nSELECT no_such_function();\n"
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "LATEST_VERSION", LATEST_VERSION + 1)
    with pytest.raises(sqlite3.OperationalError, match="no_such_function"):
        await migrate(conn, target=LATEST_VERSION + 1)
    assert await schema_version(conn) == LATEST_VERSION
    assert not conn.in_transaction
    async with conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'") as cursor:
        assert await cursor.fetchall() == []
    await conn.close()


async def test_open_sets_wal_foreign_keys_and_busy_timeout(storage: Storage) -> None:
    async def pragma(conn: Connection, name: str) -> object:
        row = await fetch_one(conn, "PRAGMA " + name)
        assert row is not None
        return row[0]

    reader = storage.sqlite.reader
    assert await pragma(reader, "journal_mode") == "wal"
    assert await pragma(reader, "foreign_keys") == 1
    assert await pragma(reader, "busy_timeout") == 5000
    async with storage.sqlite.transaction() as writer:
        assert await pragma(writer, "foreign_keys") == 1
        assert await pragma(writer, "synchronous") == 1  # NORMAL
        # On the loop's thread SQLite must never wait for a lock or checkpoint by itself: a
        # lock is waited for on the connection's thread, checkpoints run in storage.checkpoints.
        assert await pragma(writer, "busy_timeout") == 0
        assert await pragma(writer, "wal_autocheckpoint") == 0
        assert await pragma(writer, "secure_delete") == 2  # FAST: no page written only to zero it
    assert storage.sqlite.writer.wait_ms == 5000
    lookup = storage.sqlite.lookup
    assert await pragma(lookup, "busy_timeout") == 0
    assert await pragma(lookup, "query_only") == 1
    assert lookup.wait_ms == 5000


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    script = """
    CREATE TABLE a (x INTEGER);
    CREATE TRIGGER t AFTER INSERT ON a BEGIN
        UPDATE a SET x = x + 1;
        DELETE FROM a WHERE x > 9;
    END;
    """
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_statements("CREATE TABLE b (x INTEGER)")


def test_every_migration_splits_cleanly() -> None:
    for migration in MIGRATIONS:
        for step in steps(migration):
            assert callable(step) or split_statements(step)


async def test_a_python_step_runs_inside_the_migrations_transaction(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = await raw(db_path)
    await migrate(conn)
    seen: list[bool] = []

    async def fill(step_conn: aiosqlite.Connection) -> None:
        seen.append(step_conn.in_transaction)
        await step_conn.execute("INSERT INTO made_by_sql (a) VALUES (41)")
        await step_conn.execute("UPDATE made_by_sql SET a = a + 1")

    mixed = ("CREATE TABLE made_by_sql (a INTEGER);", fill, "CREATE INDEX made_by_sql_a ON made_by_sql (a);")
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, mixed))
    monkeypatch.setattr(migrations, "LATEST_VERSION", LATEST_VERSION + 1)
    assert await migrate(conn, target=LATEST_VERSION + 1) == LATEST_VERSION + 1
    assert seen == [True]
    assert await schema_version(conn) == LATEST_VERSION + 1
    assert tuple(await fetch_one(conn, "SELECT a FROM made_by_sql") or ()) == (42,)
    await conn.close()


async def test_a_failing_python_step_undoes_its_whole_migration(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = await raw(db_path)
    await migrate(conn)

    async def fail(step_conn: aiosqlite.Connection) -> None:
        await step_conn.execute("INSERT INTO half_done (a) VALUES (1)")
        raise RuntimeError("step failed")

    broken = ("CREATE TABLE half_done (a INTEGER);", fail)
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "LATEST_VERSION", LATEST_VERSION + 1)
    with pytest.raises(RuntimeError, match="step failed"):
        await migrate(conn, target=LATEST_VERSION + 1)
    assert await schema_version(conn) == LATEST_VERSION
    assert not conn.in_transaction
    assert await fetch_one(conn, "SELECT name FROM sqlite_master WHERE name = 'half_done'") is None
    await conn.close()
