"""The writer and the lookup reader answer on the event loop's thread, and never make it wait.

``storage.loop_connection`` runs small statements where they are asked, with SQLite's own busy
timeout at 0; a statement that meets another process's lock waits for it on the connection's thread,
and the ones asked after it follow it there, in order. ``storage.checkpoints`` copies the WAL
back off the loop, since the writer never does. All on real SQLite files.
"""

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.checkpoints import Checkpointer
from storage.database import Database
from storage.errors import DatabaseBusyError
from storage.loop_connection import LoopConnection, connect_on_loop, is_busy
from storage.sql import fetch_all, fetch_one


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    async with await Database.open(tmp_path / "loop.sqlite3") as opened:
        await opened.writer.execute("CREATE TABLE seen (id INTEGER PRIMARY KEY, step INTEGER, at TEXT)")
        yield opened


async def thread_of(conn: LoopConnection) -> int:
    """The thread that ran a statement: SQLite calls the function on the thread running it."""
    seen: list[int] = []

    def whose() -> int:
        seen.append(threading.get_ident())
        return 0

    await conn.create_function("whose", 0, whose)
    await fetch_one(conn, "SELECT whose()")
    return seen[0]


async def test_the_writer_and_the_lookup_reader_answer_on_the_loops_thread(database: Database) -> None:
    loop_thread = threading.get_ident()
    for conn in (database.writer, database.lookup):
        sent = conn.sent
        assert await thread_of(conn) == loop_thread
        assert conn.sent == sent
    async with database.writing() as writer:
        await writer.execute("INSERT INTO seen (step) VALUES (1)")
    assert [tuple(r) for r in await fetch_all(database.lookup, "SELECT step FROM seen")] == [(1,)]
    assert database.writer.sent == 0


async def test_the_pool_readers_keep_to_their_own_threads(database: Database) -> None:
    """Costly reads go there, so that no long list holds the loop."""
    threads: set[int] = set()

    def whose() -> int:
        threads.add(threading.get_ident())
        return 0

    for reader in database.readers:
        await reader.create_function("whose", 0, whose)
        await fetch_one(reader, "SELECT whose()")
    assert len(threads) == len(database.readers) and threading.get_ident() not in threads


async def test_a_write_facing_another_process_lock_waits_on_the_thread_and_the_loop_runs_on(
    database: Database,
) -> None:
    other = sqlite3.connect(database.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticking = asyncio.create_task(ticker())
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, other.execute, "ROLLBACK")
    try:
        async with database.writing() as conn:
            first = asyncio.create_task(conn.execute("INSERT INTO seen (step) VALUES (1)"))
            await asyncio.sleep(0.05)
            assert not first.done() and database.writer.sent == 1  # waiting on the thread
            later = [
                asyncio.create_task(conn.execute("INSERT INTO seen (step) VALUES (?)", (n,))) for n in (2, 3)
            ]
            await asyncio.gather(first, *later)
    finally:
        ticking.cancel()
        other.close()
    assert ticks >= 30  # the loop ran on through the 0.3 s wait
    rows = await fetch_all(database.lookup, "SELECT step FROM seen ORDER BY id")
    assert [r["step"] for r in rows] == [1, 2, 3]  # the later ones followed it, in order
    assert database.writer.sent == 3
    await database.writer.execute("INSERT INTO seen (step) VALUES (4)")
    assert database.writer.sent == 3  # the lock gone, back on the loop


async def test_a_caller_that_stops_waiting_leaves_the_next_statement_behind_the_thread(
    database: Database,
) -> None:
    """The thread still runs a cancelled caller's statement; a statement run here meanwhile
    would wait for the connection the thread holds, and the loop with it."""
    other = sqlite3.connect(database.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
    try:
        abandoned = asyncio.create_task(database.writer.execute("INSERT INTO seen (step) VALUES (1)"))
        await asyncio.sleep(0.05)
        abandoned.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await abandoned  # its caller has stopped waiting; the thread has not answered yet
        started = asyncio.get_running_loop().time()
        await database.writer.execute("INSERT INTO seen (step) VALUES (2)")
        assert asyncio.get_running_loop().time() - started > 0.15  # waited, on the thread
    finally:
        other.close()
    assert database.writer.sent == 2
    rows = await fetch_all(database.lookup, "SELECT step FROM seen ORDER BY id")
    assert [r["step"] for r in rows] == [1, 2]  # the abandoned one still ran, first


async def test_a_lock_held_past_the_wait_is_busy_and_the_next_write_goes_through(database: Database) -> None:
    database.writer.wait_ms = 50
    other = sqlite3.connect(database.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusyError):
            async with database.writing() as conn:
                await conn.execute("INSERT INTO seen (step) VALUES (1)")
        other.execute("ROLLBACK")
    finally:
        other.close()
    async with database.writing() as conn:
        await conn.execute("INSERT INTO seen (step) VALUES (2)")
    assert [r["step"] for r in await fetch_all(database.lookup, "SELECT step FROM seen")] == [2]
    row = await fetch_one(database.writer, "PRAGMA busy_timeout")
    assert row is not None and row[0] == 0  # the loop still never waits


@pytest.mark.parametrize(
    ("error", "busy"),
    [
        (sqlite3.SQLITE_BUSY, True),
        (sqlite3.SQLITE_BUSY_SNAPSHOT, True),
        (sqlite3.SQLITE_LOCKED, False),
        (sqlite3.SQLITE_IOERR_WRITE, False),
    ],
)
def test_only_busy_codes_send_a_statement_to_wait(error: int, busy: bool) -> None:
    raised = sqlite3.OperationalError("refused")
    raised.sqlite_errorcode = error
    assert is_busy(raised) is busy
    assert not is_busy(sqlite3.IntegrityError("UNIQUE constraint failed"))


async def test_a_call_refused_after_writing_some_rows_is_not_run_again(database: Database) -> None:
    """Outside a transaction each row of a multi-row write commits alone; one refused halfway
    for a lock must fail as busy, not run again on the thread and write its first rows twice."""
    writer = database.writer
    calls = 0

    def half_then_busy() -> None:
        nonlocal calls
        calls += 1
        writer._conn.execute("INSERT INTO seen (step) VALUES (1)")
        refused = sqlite3.OperationalError("database is locked")
        refused.sqlite_errorcode = sqlite3.SQLITE_BUSY
        raise refused

    with pytest.raises(sqlite3.OperationalError, match="locked"):
        await writer._execute(half_then_busy)
    assert calls == 1 and writer.sent == 0
    assert [r["step"] for r in await fetch_all(database.lookup, "SELECT step FROM seen")] == [1]


async def test_other_errors_are_raised_on_the_loop_as_themselves(database: Database) -> None:
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await database.writer.execute("INSERT INTO nowhere VALUES (1)")
    assert database.writer.sent == 0


async def test_the_writer_never_checkpoints_and_the_checkpointer_does(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    async with await Database.open(path) as database:
        await database.checkpointer.close()  # stop its clock: this test checkpoints by hand
        await database.writer.execute("CREATE TABLE pad (body TEXT)")
        for _ in range(10):  # some 1,500 pages: past the 1,000 at which SQLite would checkpoint
            await database.writer.executemany("INSERT INTO pad VALUES (?)", [("x" * 3000,)] * 150)

        checkpoints = await Checkpointer.open(path, database.writer)
        try:
            frames, copied = await checkpoints.checkpoint() or (0, 0)
            assert frames > 1000  # nothing copied the WAL back meanwhile
            assert copied == frames and checkpoints.done == 1
            assert await checkpoints.checkpoint() is None  # nothing written since: nothing to do
            await database.writer.execute("INSERT INTO pad VALUES ('y')")
            assert await checkpoints.checkpoint() is not None
        finally:
            await checkpoints.close()


async def test_the_checkpointer_runs_by_itself_once_something_was_written(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "clock.sqlite3") as database:
        await database.checkpointer.close()
        checkpoints = await Checkpointer.open(database.path, database.writer, every=0.01)
        checkpoints.start()
        try:
            await database.writer.execute("CREATE TABLE t (x)")
            for _ in range(200):
                if checkpoints.done:
                    break
                await asyncio.sleep(0.01)
            assert checkpoints.done >= 1
        finally:
            await checkpoints.close()


async def test_closing_goes_through_the_thread(tmp_path: Path) -> None:
    conn = connect_on_loop(tmp_path / "close.sqlite3")
    await conn
    await conn.execute("CREATE TABLE t (x)")
    await conn.close()
    assert conn.sent == 1 and not conn.on_loop


async def test_a_transaction_cancelled_while_waiting_for_another_process_opens_nothing(
    database: Database,
) -> None:
    """Its BEGIN still runs on the thread once the lock is gone; the write after it must not
    land inside that abandoned transaction, where nothing would ever commit it."""
    other = sqlite3.connect(database.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.2, other.execute, "ROLLBACK")

    async def body() -> None:
        async with database.transaction() as conn:
            await conn.execute("INSERT INTO seen (step) VALUES (1)")

    try:
        abandoned = asyncio.create_task(body())
        await asyncio.sleep(0.05)  # its BEGIN waits for the lock on the thread
        abandoned.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await abandoned
        async with database.writing() as conn:
            await conn.execute("INSERT INTO seen (step) VALUES (2)")
    finally:
        other.close()
    assert not database.writer.in_transaction
    rows = await fetch_all(database.lookup, "SELECT step FROM seen")
    assert [r["step"] for r in rows] == [2]
