"""Character storage at scale: 10^4 characters in one guild, timed per call.

Run by hand: ``python -m bench.storage_bench`` (about 10 s) or with ``--characters`` and
``--samples`` to change the sizes.

Times each public call end to end through aiosqlite (so a thread hop per statement is
included): get by name, search (what autocomplete calls on every keystroke: names holding
the typed 1, 2 or 3 letters anywhere, or nothing typed yet) and update with its version check
(one transaction each). Also prints SQLite's query plans, to show get by name uses the
(guild_id, name_key) index and search walks one server's rows in sort order.

Then roll-log writes one after another against the same writes asked together (each its own
commit on the one writer, ``storage.database``), and below the bot's storage, in plain
``sqlite3`` on a file of its own, a commit per row against a savepoint per row and one commit,
with ``synchronous`` NORMAL (what the bot uses in WAL) and FULL.
"""

import argparse
import asyncio
import random
import sqlite3
import statistics
import string
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

from rules.character import Character, CharacterKind, Harm, revise_character
from storage import RollRecord, Storage
from storage.character_rows import SEARCH
from storage.sql import fetch_all

GUILD = 1
OTHER_GUILD = 2


def random_name(rng: random.Random) -> str:
    first = rng.choice(string.ascii_uppercase) + "".join(
        rng.choices(string.ascii_lowercase, k=rng.randint(2, 8))
    )
    return f"{first} {rng.choice(string.ascii_uppercase)}{rng.randint(1, 999_999)}"


async def seed(storage: Storage, count: int, rng: random.Random) -> list[str]:
    names: set[str] = set()
    while len(names) < count:
        names.add(random_name(rng))
    ordered = sorted(names)
    async with storage.transaction() as tx:
        for i, name in enumerate(ordered):
            kind = rng.choice(list(CharacterKind))
            await tx.characters.create(GUILD, Character(name=name, kind=kind, owner_id=i % 50))
            if i % 10 == 0:  # Another guild's rows interleaved in the same index.
                await tx.characters.create(OTHER_GUILD, Character(name=name, kind=kind, owner_id=i % 50))
    return ordered


async def timed(samples: int, call: Callable[[int], Awaitable[object]]) -> list[float]:
    times: list[float] = []
    for i in range(samples):
        start = time.perf_counter_ns()
        await call(i)
        times.append((time.perf_counter_ns() - start) / 1000)
    return times


def report(label: str, micros: list[float]) -> None:
    cuts = statistics.quantiles(micros, n=100, method="inclusive")
    p50, p99, worst = cuts[49], cuts[98], max(micros)
    print(f"{label:<28} n={len(micros):>5}  p50 {p50:8.0f} µs  p99 {p99:8.0f} µs  max {worst:8.0f} µs")


async def run(path: Path, count: int, samples: int, together: int) -> None:
    rng = random.Random(7)
    async with await Storage.open(path) as storage:
        start = time.perf_counter()
        names = await seed(storage, count, rng)
        took = time.perf_counter() - start
        print(f"seeded {count} characters (+{count // 10} in another guild) in {took:.2f} s")
        chars = storage.characters

        report(
            "get_by_name", await timed(samples, lambda i: chars.get_by_name(GUILD, rng.choice(names).upper()))
        )
        for length in (0, 1, 2, 3):
            queries = []
            for name in rng.sample(names, samples):
                start = rng.randrange(len(name) - length + 1)
                queries.append(name[start : start + length].lower())

            async def search(i: int, queries: list[str] = queries) -> None:
                await chars.search(GUILD, queries[i])

            report(f"search, {length} letters", await timed(samples, search))

        targets = [await chars.get_by_name(GUILD, name) for name in rng.sample(names, samples)]

        async def update(i: int) -> None:
            stored = targets[i]
            await chars.update(
                GUILD, stored, revise_character(stored.character, damage=Harm(), notes=f"edit {i}")
            )

        report("update (1 transaction)", await timed(samples, update))

        async def read_and_update(i: int) -> None:
            stored = await chars.get(GUILD, targets[i].id)
            await chars.update(GUILD, stored, revise_character(stored.character, notes=f"again {i}"))

        report("get + update", await timed(samples, read_and_update))

        plans = {
            "get_by_name": ("SELECT id FROM characters WHERE guild_id = ? AND name_key = ?", (GUILD, "x")),
            "search": (SEARCH[(False, False)], (GUILD, "ab", GUILD, "ab", "ab", 25, 25)),
        }
        for label, (sql, params) in plans.items():
            rows = await fetch_all(storage.database.reader, "EXPLAIN QUERY PLAN " + sql, params)
            print(f"plan {label}: " + "; ".join(str(row["detail"]) for row in rows))
        await group_commit(storage, samples * 2, together)


def roll(user_id: int) -> RollRecord:
    return RollRecord(
        guild_id=GUILD,
        user_id=user_id,
        at=datetime.now(UTC),
        label="bench",
        dice=5,
        free_nudges=0,
        underflow=0,
        difficulty=2,
        faces=(1, 2, 3, 4, 5),
        result=1,
        outcome=0,
        success=True,
    )


async def group_commit(storage: Storage, writes: int, together: int) -> None:
    """Roll-log writes one after another against ``together`` asked at once: each its own
    commit either way, on the one writer (``storage.database``)."""
    start = time.perf_counter()
    for i in range(writes):
        await storage.rolls.append(roll(i))
    alone = (time.perf_counter() - start) / writes * 1e6
    start = time.perf_counter()
    for first in range(0, writes, together):
        await asyncio.gather(*(storage.rolls.append(roll(i)) for i in range(first, first + together)))
    shared = (time.perf_counter() - start) / writes * 1e6
    # The writer answers on the loop's thread (storage.loop_connection): a write started while
    # another runs finds it done, so each commits as it asked.
    print(f"roll-log writes one at a time    {alone:8.0f} µs each (a commit each)")
    print(f"roll-log writes {together} at a time    {shared:8.0f} µs each (a commit each)")


def savepoints_vs_commits(folder: Path, rows: int) -> None:
    """Plain sqlite3, no threads: what a commit costs against what a savepoint costs."""
    for synchronous in ("NORMAL", "FULL"):
        path = folder / f"raw-{synchronous}.sqlite3"
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, label TEXT)")
        start = time.perf_counter()
        for i in range(rows):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (label) VALUES (?)", (f"row {i}",))
            conn.execute("COMMIT")
        each = (time.perf_counter() - start) / rows * 1e6
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        for i in range(rows):
            conn.execute("SAVEPOINT unit")
            conn.execute("INSERT INTO t (label) VALUES (?)", (f"row {i}",))
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
        grouped = (time.perf_counter() - start) / rows * 1e6
        conn.close()
        print(
            f"sqlite3, synchronous={synchronous:<6} a commit per row {each:6.1f} µs;"
            f" a savepoint per row, one commit {grouped:6.1f} µs"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=1_000)
    parser.add_argument("--together", type=int, default=32, help="writes sent at once (default 32)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder) / "bench.sqlite3", args.characters, args.samples, args.together))
        savepoints_vs_commits(Path(folder), args.samples * 2)


if __name__ == "__main__":
    main()
