"""Polls of times for the next night (docs/rulings.md §6.15, ``bot.cogs.sessions.polls``).

Discord keeps the poll and counts its votes; this keeps what the bot must remember to act on
it: where the poll is, the times it offers (UTC), when Discord closes it, and its state:
``open`` until closed, ``closing`` while one process schedules the winner, ``tied`` while the
Narrator picks, ``done`` after. A state moves only from the one expected (:meth:`claim`), so of
two processes (or a process and a restarted one) seeing the poll close, one acts.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from storage.session import Session
from storage.sql import Row, execute, fetch_all, fetch_one, from_text, insert, to_text

State = Literal["open", "closing", "tied", "done"]
COLUMNS = "id, guild_id, channel_id, message_id, title, starts, zone, closes_at, state"


@dataclass(frozen=True, slots=True)
class TimePoll:
    id: int
    guild_id: int
    channel_id: int
    message_id: int
    title: str
    starts: tuple[datetime, ...]
    """The times offered, in the poll's order, in UTC."""
    zone: str
    """The zone the Narrator gave them in, as the answers name it."""
    closes_at: datetime
    state: State


class TimePollRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    async def add(
        self,
        guild_id: int,
        channel_id: int,
        message_id: int,
        *,
        title: str,
        starts: tuple[datetime, ...],
        zone: str,
        closes_at: datetime,
    ) -> TimePoll:
        async with self._session.writing() as conn:
            poll_id = await insert(
                conn,
                "INSERT INTO time_polls (guild_id, channel_id, message_id, title, starts, zone, closes_at,"
                " state) VALUES (?, ?, ?, ?, ?, ?, ?, 'open')",
                (
                    guild_id,
                    channel_id,
                    message_id,
                    title,
                    " ".join(to_text(start) for start in starts),
                    zone,
                    to_text(closes_at),
                ),
            )
        return TimePoll(poll_id, guild_id, channel_id, message_id, title, starts, zone, closes_at, "open")

    async def get(self, guild_id: int, poll_id: int) -> TimePoll | None:
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {COLUMNS} FROM time_polls WHERE guild_id = ? AND id = ?",
            (guild_id, poll_id),
        )
        return _poll(row) if row is not None else None

    async def by_message(self, guild_id: int, message_id: int) -> TimePoll | None:
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {COLUMNS} FROM time_polls WHERE guild_id = ? AND message_id = ?",
            (guild_id, message_id),
        )
        return _poll(row) if row is not None else None

    async def due(self, now: datetime) -> list[TimePoll]:
        """Open polls Discord has closed by ``now`` (a bot offline at the close finds them here)."""
        rows = await fetch_all(
            self._session.lookup,
            f"SELECT {COLUMNS} FROM time_polls WHERE state = 'open' AND closes_at <= ? ORDER BY closes_at",
            (to_text(now),),
        )
        return [_poll(row) for row in rows]

    async def close_early(self, guild_id: int, poll_id: int, at: datetime) -> None:
        """The Narrator closed the open poll at ``at``: it is due from then."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "UPDATE time_polls SET closes_at = ? WHERE guild_id = ? AND id = ? AND state = 'open'",
                (to_text(at), guild_id, poll_id),
            )

    async def claim(self, guild_id: int, poll_id: int, was: State, now: State) -> bool:
        """Move the poll from ``was`` to ``now``: False when another process moved it first."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE time_polls SET state = ? WHERE guild_id = ? AND id = ? AND state = ?",
                (now, guild_id, poll_id, was),
            )
        return changed == 1


def _poll(row: Row) -> TimePoll:
    return TimePoll(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        message_id=int(row["message_id"]),
        title=str(row["title"]),
        starts=tuple(from_text(text) for text in str(row["starts"]).split()),
        zone=str(row["zone"]),
        closes_at=from_text(str(row["closes_at"])),
        state=row["state"],
    )
