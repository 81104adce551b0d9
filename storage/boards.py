"""Which message shows each channel's Conflict board.

The bot edits one status message per Conflict instead of posting a new one after every
command; remembering its id here means a restarted bot keeps editing the same message.
"""

from storage.database import Session
from storage.sql import execute, fetch_one


class BoardRepository:
    """The status message id per (server, channel)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, guild_id: int, channel_id: int) -> int | None:
        row = await fetch_one(
            self._session.reader,
            "SELECT message_id FROM conflict_boards WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return int(row["message_id"]) if row is not None else None

    async def set(self, guild_id: int, channel_id: int, message_id: int) -> None:
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO conflict_boards (guild_id, channel_id, message_id) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id) DO UPDATE SET message_id = excluded.message_id",
                (guild_id, channel_id, message_id),
            )

    async def clear(self, guild_id: int, channel_id: int) -> None:
        async with self._session.writing() as conn:
            await execute(
                conn,
                "DELETE FROM conflict_boards WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
