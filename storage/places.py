"""Where something was said, and the SQL form of where a member may read (migration 24;
PostgreSQL 12).

A journal entry and a roll remember the table's channel they were said at (a thread's parent)
and, when they were said in a private thread, that thread (:class:`Origin`). Who may read
where is the rule of ``bot.reach`` (docs/rulings.md §7.6); storage takes its answer as plain
data, a :class:`Reach` (the channels a member may read, and the private threads they took part
in), and picks the rows it allows in the query itself (:func:`reach_clause`), so a list cut at
its newest rows is cut after the rule, never before. ``None`` reads everywhere: a Narrator's.
``tests/bot/test_access.py`` holds the clause to the rule, row by row.
"""

import json

from pydantic import BaseModel, ConfigDict

from storage.sql import Connection, per_dialect


class Origin(BaseModel):
    """Where something was said and by whom, as the journal and the roll log keep it."""

    model_config = ConfigDict(frozen=True)

    channel_id: int
    """The table's channel: the channel itself, or a thread's parent."""
    private_thread_id: int | None = None
    """The private thread it was said in; None in the channel itself or a public thread of it."""
    actor_id: int | None = None
    """The member whose interaction made it (who took part in a private thread)."""


class Reach(BaseModel):
    """Where one member may read: plain data from ``bot.reach``, in the form queries take."""

    model_config = ConfigDict(frozen=True)

    channels: frozenset[int] = frozenset()
    """The channels (never threads) the member may read."""
    threads: frozenset[int] = frozenset()
    """The private threads the member took part in."""


def _among(conn: Connection) -> str:
    """A subquery of the ids in one JSON array parameter."""
    return per_dialect(
        conn,
        "SELECT value FROM json_each(?)",
        "SELECT value::bigint FROM jsonb_array_elements_text(CAST(? AS jsonb))",
    )


def channel_clause(conn: Connection) -> str:
    """``AND`` this to a query over ``channel_id`` (with :func:`channel_params`) to keep the rows
    of the channels a :class:`Reach` reads (every row for None): the sessions it may open."""
    return f" AND (CAST(? AS TEXT) IS NULL OR channel_id IN ({_among(conn)}))"


def channel_params(reach: Reach | None) -> tuple[str | None, str]:
    """The two parameters of :func:`channel_clause`."""
    channels = None if reach is None else json.dumps(sorted(reach.channels))
    return channels, channels or "[]"


def reach_clause(conn: Connection) -> str:
    """``AND`` this to a query over ``channel_id`` and ``private_thread_id`` (with
    :func:`reach_params`) to keep the rows a :class:`Reach` reads: every row for None; else a row
    of a channel it reads (or of no known channel: a roll logged before channels were kept),
    and of a private thread only one it took part in."""
    among = _among(conn)
    return (
        f" AND (CAST(? AS TEXT) IS NULL OR ((channel_id IS NULL OR channel_id IN ({among}))"
        f" AND (private_thread_id IS NULL OR private_thread_id IN ({among}))))"
    )


def reach_params(reach: Reach | None) -> tuple[str | None, str, str]:
    """The three parameters of :func:`reach_clause`."""
    threads = "[]" if reach is None else json.dumps(sorted(reach.threads))
    return (*channel_params(reach), threads)
