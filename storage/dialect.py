"""The one place the repositories' SQL meets PostgreSQL: placeholders, row counts, errors.

The repositories write their SQL once, in the form both databases accept (``?`` placeholders,
``ON CONFLICT … DO UPDATE``, ``RETURNING``, integer flags, ISO text timestamps); where the two
truly differ (JSON functions, ``IS NOT`` on nullable values, ``UPDATE … FROM (VALUES …)``) a
repository picks its text with :func:`storage.sql.per_dialect`. :class:`PgConnection` gives an
asyncpg connection (or pool) the few calls ``storage.sql`` makes, turning ``?`` into ``$n``
once per distinct statement.

Why not SQLAlchemy: its async layer would sit on both drivers, but the statements that matter
(upserts with ``RETURNING``, JSON, the multi-row version-checked update) would still be written
per dialect, behind a much larger layer and a slower row path.

An asyncpg connection runs one statement at a time: a lock per connection queues statements
that tasks sharing it ask at once, in the order they were asked.
"""

import asyncio
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from functools import lru_cache
from typing import Any

import asyncpg


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` outside quotes as ``$1``, ``$2`` … in order (asyncpg's style)."""
    out: list[str] = []
    number, quote = 0, ""
    for char in sql:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def _count(status: str) -> int:
    """Rows changed, from asyncpg's status tag (``UPDATE 3``, ``INSERT 0 1``, ``DELETE 0``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgConnection:
    """A PostgreSQL connection, or the pool (for reads), as ``storage.sql`` uses it."""

    def __init__(self, target: Any, *, pool: bool = False) -> None:
        self._target = target
        self._lock: AbstractAsyncContextManager[object] = nullcontext() if pool else asyncio.Lock()
        """A pool hands each statement its own connection: nothing to queue there."""

    async def fetch(self, sql: str, params: Sequence[object]) -> list[Any]:
        async with self._lock:
            return list(await self._target.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[object]) -> int:
        async with self._lock:
            return _count(await self._target.execute(numbered(sql), *params))

    async def execute_many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        if not rows:
            return
        async with self._lock:
            await self._target.executemany(numbered(sql), rows)

    async def script(self, sql: str) -> None:
        """Several statements without parameters (a migration)."""
        async with self._lock:
            await self._target.execute(sql)


def raised_message(error: BaseException) -> str | None:
    """The text of a PL/pgSQL ``RAISE EXCEPTION`` (``storage.moves`` reads which check failed)."""
    if isinstance(error, asyncpg.exceptions.RaiseError):
        return str(error.args[0]) if error.args else None
    return None


IntegrityErrors: tuple[type[Exception], ...] = (asyncpg.IntegrityConstraintViolationError,)
"""What PostgreSQL raises where SQLite raises ``sqlite3.IntegrityError``."""
