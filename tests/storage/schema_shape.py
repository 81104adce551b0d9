"""What a freshly migrated database holds, read back from each database's own catalogue.

:func:`sqlite_columns` and :func:`pg_columns` give every table's columns in one form, for the
test that the two databases agree (tests/storage/test_schema.py); :func:`sqlite_shape` and
:func:`pg_shape` give the whole schema as SQL text, the ``schema.sql`` kept beside each
database's migrations (``storage/schema``) so the current shape reads in one place.

After a new migration, rewrite both files and read the diff::

    python -m tests.storage.schema_shape
"""

import asyncio
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from storage.dialect import PgConnection
from storage.migrations import migrate
from storage.pg_migrations import pg_migrate
from testbed.pg_server import start_server

_CAST = re.compile(r"::[a-z ]+$")
SCHEMA_FOLDER = Path(__file__).resolve().parents[2] / "storage" / "schema"


@dataclass(frozen=True)
class Column:
    """One column as both databases can say it: its type as written on SQLite's side, or PG's name."""

    name: str
    type: str
    not_null: bool
    primary_key: int
    """Position in the table's primary key (1, 2 …), 0 when not part of it."""
    default: str | None
    """The default as written, PostgreSQL's without its cast (``''::text`` reads ``''``)."""


async def migrated_sqlite(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    await migrate(conn)
    return conn


async def migrated_pg(url: str) -> Any:
    conn = await asyncpg.connect(url)
    await pg_migrate(PgConnection(conn))
    return conn


async def sqlite_columns(conn: aiosqlite.Connection) -> dict[str, tuple[Column, ...]]:
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as cursor:
        tables = [str(row[0]) for row in await cursor.fetchall()]
    found: dict[str, tuple[Column, ...]] = {}
    for table in tables:
        async with conn.execute(f"PRAGMA table_info('{table}')") as cursor:
            rows = await cursor.fetchall()
        found[table] = tuple(
            Column(name, declared.upper(), bool(not_null), int(key), default)
            for _, name, declared, not_null, default, key in rows
        )
    return found


async def pg_columns(conn: Any) -> dict[str, tuple[Column, ...]]:
    rows = await conn.fetch(
        """
        SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'NO' AS not_null,
               COALESCE(k.ordinal_position, 0) AS primary_key, c.column_default
        FROM information_schema.columns c
        JOIN information_schema.tables t
          ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        LEFT JOIN information_schema.table_constraints p
          ON p.table_schema = c.table_schema AND p.table_name = c.table_name
         AND p.constraint_type = 'PRIMARY KEY'
        LEFT JOIN information_schema.key_column_usage k
          ON k.constraint_schema = p.constraint_schema AND k.constraint_name = p.constraint_name
         AND k.column_name = c.column_name
        WHERE c.table_schema = 'public'
        ORDER BY c.table_name, c.ordinal_position
        """
    )
    found: dict[str, list[Column]] = {}
    for row in rows:
        default = None if row["column_default"] is None else _CAST.sub("", row["column_default"])
        column = Column(row["column_name"], row["data_type"], row["not_null"], row["primary_key"], default)
        found.setdefault(row["table_name"], []).append(column)
    return {table: tuple(columns) for table, columns in found.items()}


async def sqlite_shape(conn: aiosqlite.Connection) -> str:
    """Every table, index and trigger as SQLite keeps its text, each table followed by its own."""
    async with conn.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
        " ORDER BY tbl_name, type = 'table' DESC, type, name"
    ) as cursor:
        rows = await cursor.fetchall()
    return _joined("SQLite", [f"{row[0]};" for row in rows])


async def pg_shape(conn: Any) -> str:
    """Every table (from the catalogue, constraints as PostgreSQL prints them), then its indexes
    and triggers, then our functions: a normal form of what ``pg_dump --schema-only`` shows."""
    parts: list[str] = []
    tables = await conn.fetch(
        "SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname"
    )
    for table in tables:
        parts.append(await _pg_table(conn, table["oid"], table["relname"]))
        indexes = await conn.fetch(
            "SELECT indexdef FROM pg_indexes i WHERE schemaname = 'public' AND tablename = $1"
            " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)"
            " ORDER BY indexname",
            table["relname"],
        )
        parts += [row["indexdef"] + ";" for row in indexes]
        triggers = await conn.fetch(
            "SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = $1 AND NOT tgisinternal"
            " ORDER BY tgname",
            table["oid"],
        )
        parts += [row["def"] + ";" for row in triggers]
    functions = await conn.fetch(
        "SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = 'public' ORDER BY p.proname"
    )
    parts += [row["def"].strip() + ";" for row in functions]
    return _joined("PostgreSQL", parts)


async def _pg_table(conn: Any, oid: int, name: str) -> str:
    columns = await conn.fetch(
        """
        SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull,
               CASE WHEN a.attcollation <> t.typcollation THEN co.collname END AS collation,
               pg_get_expr(d.adbin, d.adrelid) AS default_value, a.attidentity::text AS identity
        FROM pg_attribute a
        JOIN pg_type t ON t.oid = a.atttypid
        LEFT JOIN pg_collation co ON co.oid = a.attcollation
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum
        """,
        oid,
    )
    lines = []
    for column in columns:
        line = f"    {column['attname']} {column['type']}"
        if column["collation"]:
            line += f' COLLATE "{column["collation"]}"'
        if column["identity"] == "d":
            line += " GENERATED BY DEFAULT AS IDENTITY"
        if column["attnotnull"]:
            line += " NOT NULL"
        if column["default_value"] is not None:
            line += f" DEFAULT {column['default_value']}"
        lines.append(line)
    constraints = await conn.fetch(
        "SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1"
        " ORDER BY contype, conname",
        oid,
    )
    lines += [f"    CONSTRAINT {row['conname']} {row['def']}" for row in constraints]
    return f"CREATE TABLE {name} (\n" + ",\n".join(lines) + "\n);"


def _joined(database: str, parts: list[str]) -> str:
    header = (
        f"-- The shape a fresh {database} database reaches after every numbered migration beside this\n"
        "-- file, as its catalogue says it. For reading only, never applied: rewritten by\n"
        "-- `python -m tests.storage.schema_shape`, checked by tests/storage/test_schema.py.\n"
    )
    return header + "\n" + "\n\n".join(parts) + "\n"


async def write_both() -> None:
    """Rewrite ``storage/schema/{sqlite,postgres}/schema.sql`` from freshly migrated databases."""
    with tempfile.TemporaryDirectory() as folder:
        conn = await migrated_sqlite(Path(folder) / "shape.sqlite3")
        try:
            (SCHEMA_FOLDER / "sqlite" / "schema.sql").write_text(await sqlite_shape(conn))
        finally:
            await conn.close()
    server = start_server()
    try:
        url = await server.create_database()
        pg = await migrated_pg(url)
        try:
            (SCHEMA_FOLDER / "postgres" / "schema.sql").write_text(await pg_shape(pg))
        finally:
            await pg.close()
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(write_both())
