"""Writes prepared as data: statements run together inside a savepoint, and a check of their results.

A Conflict move reads, applies and composes before it writes (``storage.conflict_runner``), so
its writes depend on nothing but what it read, and each checks the version it was read at.
Run as a transaction body, they would cost a turn on the one writer and a hand-over between
tasks at each end, every one behind everything else a busy loop had queued. As a
:class:`Prepared`, the writer itself runs them inside a savepoint, and ``finish`` (pure, no
I/O) reads their results: it returns the caller's result, or raises to refuse, which undoes all
of them. Any session can run one (:func:`run_prepared`); SQLite's writer runs it without
handing the connection to anyone (``storage.writer``).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from storage.sql import Connection, Statement, in_order, run_statement, savepoint

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Prepared(Generic[T]):
    """Statements run in order, all kept or none, and what their results mean.

    ``finish`` gets one result per statement: what it returned, or the exception it raised (a
    constraint refusing a row, say). It raises to refuse the whole (nothing of it is kept) or
    returns what the caller gets once it is committed.
    """

    statements: tuple[Statement, ...]
    finish: Callable[[list[Any]], T]


async def run_all(conn: Connection, statements: Sequence[Statement]) -> list[Any]:
    """Run ``statements`` in this order, each even when one before failed: what each returned,
    or the exception it raised, for ``finish`` to read."""
    return await in_order(run_statement(conn, statement) for statement in statements)


async def run_prepared(conn: Connection, prepared: Prepared[T]) -> T:
    """Run ``prepared`` on ``conn`` inside a savepoint: alone it is its own transaction, inside
    an open one it is undone alone when ``finish`` refuses."""
    async with savepoint(conn, "prepared"):
        return prepared.finish(await run_all(conn, prepared.statements))
