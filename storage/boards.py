"""Which message shows each channel's Conflict board, and what it showed last.

The bot edits one status message per Conflict instead of posting a new one after every
command; remembering its id here means a restarted bot keeps editing the same message. The
board is derived from the Conflict, not queued like the outbox: each row also says which
Conflict the message shows and at which version, so a restarted bot (or a refresh that failed)
knows exactly which boards are behind their Conflict, and which show a Conflict that ended.
"""

from pydantic import BaseModel, ConfigDict

from storage.session import Session
from storage.sql import Row, execute, fetch_all, fetch_one

_COLUMNS = "guild_id, channel_id, message_id, conflict_id, rendered_version FROM conflict_boards"
_SAVED = (
    " RETURNING (SELECT id FROM conflicts AS c WHERE c.guild_id = conflict_boards.guild_id"
    " AND c.channel_id = conflict_boards.channel_id) AS saved_id,"
    " (SELECT version FROM conflicts AS c WHERE c.guild_id = conflict_boards.guild_id"
    " AND c.channel_id = conflict_boards.channel_id) AS saved_version"
)
"""What a board's mark reads back in the same statement: its channel's Conflict as last committed."""

Saved = tuple[int, int] | None
"""A channel's Conflict as last committed, as (id, version); None without one."""


class BoardRow(BaseModel):
    """A board message and the Conflict (id and version) it showed when last drawn."""

    model_config = ConfigDict(frozen=True)

    guild_id: int
    channel_id: int
    message_id: int
    conflict_id: int | None = None
    """None for a board drawn before the bot remembered it (it is redrawn)."""
    rendered_version: int = 0

    def shows(self, conflict_id: int, version: int) -> bool:
        """Whether the message already shows this Conflict at this version (or a later one)."""
        return self.conflict_id == conflict_id and self.rendered_version >= version


def board_row(row: Row) -> BoardRow:
    return BoardRow(
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        conflict_id=row["conflict_id"],
        rendered_version=row["rendered_version"],
    )


def _saved(row: Row) -> Saved:
    return None if row["saved_id"] is None else (int(row["saved_id"]), int(row["saved_version"]))


class BoardRepository:
    """The status message per (server, channel), and what it shows."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, guild_id: int, channel_id: int) -> int | None:
        """The board's message id, if the channel has one."""
        found = await self.row(guild_id, channel_id)
        return None if found is None else found.message_id

    async def row(self, guild_id: int, channel_id: int) -> BoardRow | None:
        row = await fetch_one(
            self._session.lookup,
            "SELECT " + _COLUMNS + " WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else board_row(row)

    async def saved(self, guild_id: int, channel_id: int) -> Saved:
        """The channel's Conflict as last committed, as (id, version); None without one.

        One indexed read: what a board just drawn is checked against, since another process
        may have saved (and drawn) a newer state meanwhile (``bot.workers.board``).
        """
        row = await fetch_one(
            self._session.lookup,
            "SELECT id, version FROM conflicts WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return None if row is None else (int(row["id"]), int(row["version"]))

    async def set(
        self,
        guild_id: int,
        channel_id: int,
        message_id: int,
        *,
        conflict_id: int | None = None,
        version: int = 0,
    ) -> Saved:
        """Remember a (new) board message, showing ``conflict_id`` at ``version``; return the
        channel's Conflict as last committed, read in the same statement (:meth:`shown`)."""
        async with self._session.writing() as conn:
            rows = await fetch_all(
                conn,
                "INSERT INTO conflict_boards"
                " (guild_id, channel_id, message_id, conflict_id, rendered_version)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, channel_id) DO UPDATE SET"
                " message_id = excluded.message_id, conflict_id = excluded.conflict_id,"
                " rendered_version = excluded.rendered_version" + _SAVED,
                (guild_id, channel_id, message_id, conflict_id, version),
            )
        return _saved(rows[0])

    async def shown(
        self, guild_id: int, channel_id: int, message_id: int, conflict_id: int, version: int
    ) -> Saved:
        """The message now shows ``conflict_id`` at ``version`` (never moves a board backwards).

        Returns the channel's Conflict as last committed, which a board just drawn is checked
        against (:meth:`saved`, ``bot.workers.board``): read in the same statement as the mark,
        or, when the mark changed nothing (the row already shows as much), by a read of its own.
        """
        async with self._session.writing() as conn:
            rows = await fetch_all(
                conn,
                "UPDATE conflict_boards SET conflict_id = ?, rendered_version = ?"
                " WHERE guild_id = ? AND channel_id = ? AND message_id = ?"
                " AND (conflict_id IS NULL OR conflict_id <> ? OR rendered_version < ?)" + _SAVED,
                (conflict_id, version, guild_id, channel_id, message_id, conflict_id, version),
            )
        return _saved(rows[0]) if rows else await self.saved(guild_id, channel_id)

    async def clear(self, guild_id: int, channel_id: int) -> None:
        async with self._session.writing() as conn:
            await execute(
                conn,
                "DELETE FROM conflict_boards WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )

    async def orphans(self) -> list[BoardRow]:
        """Boards of channels with no Conflict running any more: they must be closed.

        Across servers on purpose: a restarted bot closes the boards of every Conflict that
        ended while it was down.
        """
        rows = await fetch_all(
            self._session.reader,
            "SELECT b.guild_id, b.channel_id, b.message_id, b.conflict_id, b.rendered_version"
            " FROM conflict_boards AS b LEFT JOIN conflicts AS c"
            " ON c.guild_id = b.guild_id AND c.channel_id = b.channel_id WHERE c.id IS NULL",
        )
        return [board_row(row) for row in rows]
