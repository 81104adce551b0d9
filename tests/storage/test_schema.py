"""The two schemas agree, and ``storage/schema`` holds them whole (issue 31).

The repositories write one SQL text for both databases, so a column that exists on one side
only, or may be NULL on one side only, is a bug that shows on one backend alone. These tests
migrate a fresh SQLite file and a fresh PostgreSQL database and compare them table by table,
column by column; where the two legitimately differ the exception is listed here with why.
"""

import sqlite3
import tomllib
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from fnmatch import fnmatch
from importlib.resources import files
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from storage import Storage, schema
from storage.conflict_undo import SheetBefore, UndoRecord, from_json
from storage.dialect import PgConnection
from storage.migrations import migrate
from storage.pg_migrations import MIGRATIONS as PG_MIGRATIONS
from storage.pg_migrations import pg_migrate
from storage.schema import current_shape, numbered_scripts
from storage.sql import fetch_all
from testbed.pg_server import PgServer
from tests.storage.schema_shape import (
    SCHEMA_FOLDER,
    Column,
    migrated_pg,
    migrated_sqlite,
    pg_columns,
    pg_shape,
    sqlite_columns,
    sqlite_shape,
)

ONLY_ON_SQLITE = {
    "sqlite_sequence": "SQLite's own record of each AUTOINCREMENT table's last id; "
    "PostgreSQL keeps it in each identity column's sequence",
}
ONLY_ON_POSTGRES = {
    "schema_migrations": "the migration reached; SQLite keeps it in PRAGMA user_version",
}
PG_ONLY_FUNCTIONS = {
    "instr": "SQLite has instr built in; PostgreSQL's is defined as strpos, so the name search is one text",
    "apply_move": "a Conflict move's writes in one statement, since each statement is a network round"
    " trip on PostgreSQL; SQLite runs the same steps as statements on its writer (storage.moves)",
}
PG_TYPES = {
    "INTEGER": {"bigint", "integer"},
    "TEXT": {"text"},
    "REAL": {"double precision"},
    "BLOB": {"bytea"},
}
"""SQLite's type affinity of a declared type, and the PostgreSQL types that store the same values."""
SMALL_NUMBERS = {("identify_buckets", "bucket"), ("outbox", "action_id")}
"""Integer columns named like ids that hold small numbers, not Discord or row ids: an identify
bucket (shard id modulo max_concurrency) and an action's number within one Conflict."""


def affinity(declared: str) -> str:
    """SQLite's rule for a column's affinity from its declared type (sqlite.org/datatype3.html §3.1)."""
    if "INT" in declared:
        return "INTEGER"
    if any(word in declared for word in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if declared == "" or "BLOB" in declared:
        return "BLOB"
    if any(word in declared for word in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def never_null(column: Column, table: tuple[Column, ...]) -> bool:
    """Whether SQLite refuses NULL in ``column``: PRAGMA table_info reports an ``INTEGER PRIMARY
    KEY`` as nullable, but it is the rowid, and a NULL written there takes the next id."""
    alone = sum(c.primary_key > 0 for c in table) == 1
    return column.not_null or (column.primary_key == 1 and column.type == "INTEGER" and alone)


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    conn = await migrated_sqlite(tmp_path / "fresh.sqlite3")
    try:
        yield conn
    finally:
        await conn.close()


@pytest.fixture
async def pg_db(pg_server: PgServer) -> AsyncIterator[Any]:
    url = await pg_server.create_database()
    conn = await migrated_pg(url)
    try:
        yield conn
    finally:
        await conn.close()
        await pg_server.drop_database(url)


async def test_both_databases_have_the_same_tables(sqlite_db: aiosqlite.Connection, pg_db: Any) -> None:
    on_sqlite, on_pg = set(await sqlite_columns(sqlite_db)), set(await pg_columns(pg_db))
    assert on_sqlite - on_pg == set(ONLY_ON_SQLITE)
    assert on_pg - on_sqlite == set(ONLY_ON_POSTGRES)


async def test_each_table_has_the_same_columns_on_both(sqlite_db: aiosqlite.Connection, pg_db: Any) -> None:
    on_sqlite, on_pg = await sqlite_columns(sqlite_db), await pg_columns(pg_db)
    disagreements = []
    for table in sorted(set(on_sqlite) & set(on_pg)):
        lite, pg = on_sqlite[table], on_pg[table]
        if [c.name for c in lite] != [c.name for c in pg]:
            disagreements.append(f"{table}: columns {[c.name for c in lite]} vs {[c.name for c in pg]}")
            continue
        for a, b in zip(lite, pg, strict=True):
            where = f"{table}.{a.name}"
            if b.type not in PG_TYPES.get(affinity(a.type), set()):
                disagreements.append(f"{where}: {a.type} on SQLite, {b.type} on PostgreSQL")
            if never_null(a, lite) != b.not_null:
                disagreements.append(f"{where}: NOT NULL {never_null(a, lite)} vs {b.not_null}")
            if a.primary_key != b.primary_key:
                disagreements.append(f"{where}: key position {a.primary_key} vs {b.primary_key}")
            if a.default != b.default:
                disagreements.append(f"{where}: DEFAULT {a.default} vs {b.default}")
    assert disagreements == []


async def test_ids_are_bigint_on_postgres(pg_db: Any) -> None:
    """SQLite's INTEGER holds 64 bits, PostgreSQL's 32: a Discord id or a row id in an
    ``integer`` column would fail only there, and only once ids grow."""
    narrow = [
        f"{table}.{column.name}"
        for table, columns in (await pg_columns(pg_db)).items()
        for column in columns
        if (column.name == "id" or column.name.endswith(("_id", "_by")))
        and column.type != "bigint"
        and (table, column.name) not in SMALL_NUMBERS
    ]
    assert narrow == []


async def test_same_indexes_and_triggers_and_only_the_listed_functions(
    sqlite_db: aiosqlite.Connection, pg_db: Any
) -> None:
    async with sqlite_db.execute(
        "SELECT type, name, tbl_name FROM sqlite_master"
        " WHERE type IN ('index', 'trigger') AND sql IS NOT NULL"
    ) as cursor:
        on_sqlite = {tuple(row) for row in await cursor.fetchall()}
    indexes = await pg_db.fetch(
        "SELECT indexname, tablename FROM pg_indexes i WHERE schemaname = 'public'"
        " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)"
    )
    triggers = await pg_db.fetch(
        "SELECT tgname, tgrelid::regclass::text AS tbl FROM pg_trigger WHERE NOT tgisinternal"
    )
    on_pg = {("index", row["indexname"], row["tablename"]) for row in indexes}
    on_pg |= {("trigger", row["tgname"], row["tbl"]) for row in triggers}
    assert on_sqlite == on_pg
    functions = await pg_db.fetch(
        "SELECT proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE nspname = 'public'"
    )
    assert {row["proname"] for row in functions} == set(PG_ONLY_FUNCTIONS)


async def test_sqlite_schema_sql_is_what_a_fresh_file_reaches(sqlite_db: aiosqlite.Connection) -> None:
    """``storage/schema/sqlite/schema.sql`` is the current shape; after a new migration,
    ``python -m tests.storage.schema_shape`` rewrites it."""
    assert await sqlite_shape(sqlite_db) == current_shape("sqlite")


async def test_postgres_schema_sql_is_what_a_fresh_database_reaches(pg_db: Any) -> None:
    assert await pg_shape(pg_db) == current_shape("postgres")


def test_every_schema_file_is_package_data() -> None:
    """An installed bot reads the SQL through importlib.resources: pyproject must ship each file."""
    pyproject = tomllib.loads((SCHEMA_FOLDER.parents[1] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["storage.schema"]
    shipped = [path.relative_to(SCHEMA_FOLDER).as_posix() for path in SCHEMA_FOLDER.rglob("*.sql")]
    assert len(shipped) == len(numbered_scripts("sqlite")) + len(numbered_scripts("postgres")) + 2
    assert [path for path in shipped if not any(fnmatch(path, p) for p in patterns)] == []


@pytest.mark.parametrize(
    ("names", "error"),
    [
        (["V001__a.sql", "V003__c.sql"], "not numbered 1..2"),
        (["V001__a.sql", "V002__b.sql", "V002__again.sql"], "Two sqlite migrations are numbered 2"),
    ],
)
def test_a_gap_or_a_doubled_number_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, names: list[str], error: str
) -> None:
    (tmp_path / "sqlite").mkdir()
    for name in names:
        (tmp_path / "sqlite" / name).write_text("SELECT 1;\n")
    monkeypatch.setattr(schema, "files", lambda _package: tmp_path)
    with pytest.raises(RuntimeError, match=error):
        numbered_scripts("sqlite")


def test_the_files_are_read_in_number_order() -> None:
    folder = files("storage.schema").joinpath("sqlite")
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith("V"))
    assert [folder.joinpath(name).read_text(encoding="utf-8") for name in names] == list(
        numbered_scripts("sqlite")
    )


@pytest.mark.sqlite_only
async def test_migration_18_keeps_the_web_secret_and_used_links_and_refuses_null_keys(db_path: Path) -> None:
    """SQLite let ``web_secrets.name`` and ``web_link_uses.nonce`` hold NULL, PostgreSQL never:
    migration 18 rebuilds both tables NOT NULL, keeping the secret (or every signed link and
    cookie would break on upgrade) and the links already used (or they could be used again)."""
    db_path.parent.mkdir(parents=True)
    conn = await aiosqlite.connect(db_path, isolation_level=None)
    await migrate(conn, target=17)
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat(timespec="microseconds")
    await conn.execute("INSERT INTO web_secrets (name, value) VALUES ('web', 'kept-secret')")
    await conn.execute("INSERT INTO web_link_uses (nonce, expires_at) VALUES ('n1', ?)", (later,))
    await conn.execute("INSERT INTO web_link_uses (nonce, expires_at) VALUES (NULL, ?)", (later,))
    await conn.close()

    async with await Storage.open(db_path) as storage:
        assert await storage.web.secret() == "kept-secret"
        assert not await storage.web.use_link("n1", datetime.now(UTC) + timedelta(hours=1))
        assert await storage.web.use_link("n2", datetime.now(UTC) + timedelta(hours=1))
        rows = await fetch_all(storage.sqlite.reader, "SELECT nonce FROM web_link_uses ORDER BY nonce")
        assert [row[0] for row in rows] == ["n1", "n2"]
        with pytest.raises(sqlite3.IntegrityError, match="NOT NULL"):
            async with storage.sqlite.transaction() as writer:
                await writer.execute("INSERT INTO web_secrets (name, value) VALUES (NULL, 'x')")


@pytest.mark.sqlite_only
async def test_migration_32_moves_an_undo_record_onto_its_conflicts_row(db_path: Path) -> None:
    """A move taken back across the upgrade is still taken back (docs/rulings.md §4.24): the
    record migration 31 kept in its own table is the Conflict's ``undo`` after migration 32."""
    db_path.parent.mkdir(parents=True)
    conn = await aiosqlite.connect(db_path, isolation_level=None)
    await migrate(conn, target=31)
    made = "2026-01-02T03:04:05+00:00"
    sheets = '[{"id": 5, "version": 2, "document": "{}"}]'
    await conn.execute(
        "INSERT INTO conflicts (id, guild_id, channel_id, version, updated_at, document)"
        " VALUES (1, 10, 20, 3, ?, '{}')",
        (made,),
    )
    await conn.execute(
        "INSERT INTO conflict_undo VALUES (1, 3, 7, ?, 'Acted', '{\"before\": 1}', ?)", (made, sheets)
    )
    await conn.close()

    async with await Storage.open(db_path) as storage:
        assert await storage.undo.get(1) == UndoRecord(
            conflict_id=1,
            version=3,
            mover_id=7,
            made_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
            what="Acted",
            document='{"before": 1}',
            sheets=(SheetBefore(5, 2, "{}"),),
        )
        assert await storage.undo.get(2) is None


async def test_postgres_migration_20_moves_an_undo_record_onto_its_conflicts_row(pg_server: PgServer) -> None:
    """The same on PostgreSQL: migration 19's record is the Conflict's ``undo`` after 20."""
    url = await pg_server.create_database()
    raw = await asyncpg.connect(url)
    conn = PgConnection(raw)
    try:
        await conn.script("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)")
        for number, script in enumerate(PG_MIGRATIONS[:19], start=1):
            await conn.script(script)
            await conn.execute("INSERT INTO schema_migrations (version) VALUES (?)", (number,))
        made = "2026-01-02T03:04:05+00:00"
        await conn.execute(
            "INSERT INTO conflicts (id, guild_id, channel_id, version, updated_at, document)"
            " VALUES (1, 10, 20, 3, ?, '{}')",
            (made,),
        )
        sheets = '[{"id": 5, "version": 2, "document": "{}"}]'
        await conn.execute(
            "INSERT INTO conflict_undo VALUES (1, 3, 7, ?, 'Acted', '{\"before\": 1}', ?)", (made, sheets)
        )
        await pg_migrate(conn)
        rows = await conn.fetch("SELECT undo FROM conflicts WHERE id = 1", ())
        assert from_json(rows[0][0]) == UndoRecord(
            conflict_id=1,
            version=3,
            mover_id=7,
            made_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
            what="Acted",
            document='{"before": 1}',
            sheets=(SheetBefore(5, 2, "{}"),),
        )
    finally:
        await raw.close()
        await pg_server.drop_database(url)
