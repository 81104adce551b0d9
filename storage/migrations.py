"""The SQLite schema's runner: the numbered migrations of ``storage/schema/sqlite``, applied in order.

``PRAGMA user_version`` holds the number of the last migration applied. Each migration runs in
one ``BEGIN IMMEDIATE`` transaction together with the bump of ``user_version``, so a crash
leaves the file at the previous version, never half-migrated, and two processes starting at
once apply each migration exactly once (the second re-reads the version under the write lock).

A migration is its SQL file (``storage.schema``), then, where SQL cannot express the change
(recomputing a column with the rules' own functions), the Python step registered under its
number in :data:`PYTHON_STEPS` (an async function given the connection). Every step of one
migration runs in the same transaction as the bump.

Never edit a migration that has shipped: add the next file. A migration that rebuilds a table
must not rely on ``PRAGMA foreign_keys`` (it cannot change inside a transaction).
"""

import sqlite3
from collections.abc import Awaitable, Callable

import aiosqlite

from storage.conflict_participants import index_live_conflicts
from storage.errors import SchemaVersionError
from storage.name_keys import rekey_characters
from storage.roll_outcomes import reread_failed_rolls
from storage.schema import numbered_scripts
from storage.sql import rollback

PythonStep = Callable[[aiosqlite.Connection], Awaitable[None]]
"""A migration step in Python: it runs inside the migration's transaction and must not commit."""
Step = str | PythonStep
Migration = Step | tuple[Step, ...]


def split_statements(script: str) -> list[str]:
    """Cut a migration into single statements, so they can run inside our own transaction.

    ``executescript`` would commit any open transaction first, which would break the
    one-transaction-per-migration guarantee. ``sqlite3.complete_statement`` knows where a
    statement ends (including ``CREATE TRIGGER ... END;``).
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if _sql_text(pending):
        raise ValueError(f"Migration ends with an incomplete statement: {pending.strip()[:60]!r}")
    return statements


def _sql_text(script: str) -> str:
    """``script`` without its ``--`` comment lines and blank lines (a file may be only a comment)."""
    return "".join(
        line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("--")
    )


def steps(migration: Migration) -> tuple[Step, ...]:
    """The steps of one migration, in the order they run."""
    return migration if isinstance(migration, tuple) else (migration,)


PYTHON_STEPS: dict[int, PythonStep] = {
    4: rekey_characters,
    5: reread_failed_rolls,
    6: index_live_conflicts,
}
"""The steps SQL cannot express, by migration number; each runs after that number's SQL file."""


def _migration(number: int, script: str) -> Migration:
    python = PYTHON_STEPS.get(number)
    if python is None:
        return script
    return (script, python) if split_statements(script) else python


MIGRATIONS: tuple[Migration, ...] = tuple(
    _migration(number, script) for number, script in enumerate(numbered_scripts("sqlite"), 1)
)
LATEST_VERSION = len(MIGRATIONS)


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    for step in steps(migration):
        if isinstance(step, str):
            for statement in split_statements(step):
                await conn.execute(statement)
        else:
            await step(conn)


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of the last migration applied to the file behind ``conn``."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(conn: aiosqlite.Connection, target: int = LATEST_VERSION) -> int:
    """Apply every migration after the file's version up to ``target``; return the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no open transaction.
    ``target`` below the latest exists for tests that build an old file to upgrade.
    """
    if not 0 <= target <= LATEST_VERSION:
        raise ValueError(f"Migration target {target} is outside 0..{LATEST_VERSION}.")
    current = await schema_version(conn)
    if current > LATEST_VERSION:
        raise SchemaVersionError(
            f"The database is at schema version {current}, newer than this bot knows "
            f"({LATEST_VERSION}); update the bot before opening it."
        )
    for number in range(current + 1, target + 1):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if await schema_version(conn) < number:
                await _apply(conn, MIGRATIONS[number - 1])
                # PRAGMA takes no parameters; ``number`` is our own int, never user input.
                await conn.execute(f"PRAGMA user_version = {int(number)}")
            await conn.execute("COMMIT")
        except BaseException:
            await rollback(conn)
            raise
    return max(current, target)
