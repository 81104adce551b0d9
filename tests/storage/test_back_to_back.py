"""Statements run back to back run in the order given, and a failure waits for the rest.

``storage.sql.back_to_back`` runs a transaction's statements together; it is only safe if the
database sees them in the caller's order and the caller's rollback runs after every one of
them. Both on a real SQLite file.
"""

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import pytest

from storage.sql import back_to_back, execute, fetch_all, insert


@pytest.fixture
async def conn(tmp_path: Path) -> AsyncIterator[aiosqlite.Connection]:
    async with aiosqlite.connect(tmp_path / "order.sqlite3", isolation_level=None) as db:
        db.row_factory = sqlite3.Row
        await db.execute("CREATE TABLE seen (id INTEGER PRIMARY KEY, step INTEGER UNIQUE)")
        yield db


@pytest.mark.parametrize("count", [1, 2, 10, 60])
async def test_statements_reach_the_database_in_the_order_given(
    conn: aiosqlite.Connection, count: int
) -> None:
    steps = (insert(conn, "INSERT INTO seen (step) VALUES (?)", (n,)) for n in range(count))
    ids = await back_to_back(*steps)
    rows = await fetch_all(conn, "SELECT id, step FROM seen ORDER BY id")
    assert [row["step"] for row in rows] == list(range(count))
    assert ids == [row["id"] for row in rows]


async def test_a_later_statement_sees_an_earlier_one(conn: aiosqlite.Connection) -> None:
    inserted, changed = await back_to_back(
        insert(conn, "INSERT INTO seen (step) VALUES (?)", (7,)),
        execute(conn, "UPDATE seen SET step = step + 1 WHERE step = ?", (7,)),
    )
    assert changed == 1
    assert [tuple(row) for row in await fetch_all(conn, "SELECT id, step FROM seen")] == [(inserted, 8)]


async def test_the_first_failure_is_raised_once_every_statement_has_run(conn: aiosqlite.Connection) -> None:
    await conn.execute("BEGIN")
    with pytest.raises(sqlite3.IntegrityError):
        await back_to_back(
            execute(conn, "INSERT INTO seen (step) VALUES (1)"),
            execute(conn, "INSERT INTO seen (step) VALUES (1)"),  # refused: UNIQUE
            execute(conn, "INSERT INTO seen (step) VALUES (2)"),
            execute(conn, "INSERT INTO seen (step) VALUES (2)"),  # refused too; the first is raised
        )
    assert [row["step"] for row in await fetch_all(conn, "SELECT step FROM seen ORDER BY step")] == [1, 2]
    await conn.execute("ROLLBACK")
    assert await fetch_all(conn, "SELECT step FROM seen") == []
