"""Channels where Discord refused the bot: remembered, so a restart does not knock again.

Discord bans an address for an hour after 10,000 refused requests (401, 403, 429) in ten
minutes. A channel where the bot lost access (a moderator took away View Channel or Send
Messages) answers every request with 403, and a bot that forgot it between starts would be
refused there again by each start's catch-up, in every such channel. A row here says Discord
refused the bot in that channel (and why, in the words of its answer); ``bot.workers.refusals``
writes it on the first refusal, leaves the channel alone while it stands, and deletes it once an
interaction in the channel shows the bot may post there again.
"""

from pydantic import BaseModel, ConfigDict

from storage.session import Session
from storage.sql import execute, fetch_all, to_text, utc_now


class RefusedChannel(BaseModel):
    model_config = ConfigDict(frozen=True)

    guild_id: int
    channel_id: int
    reason: str


class RefusedChannelRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    async def mark(self, guild_id: int, channel_id: int, reason: str) -> None:
        """Discord refused the bot in this channel (again: the latest reason is kept)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO refused_channels (guild_id, channel_id, reason, refused_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id) DO UPDATE SET reason = excluded.reason,"
                " refused_at = excluded.refused_at",
                (guild_id, channel_id, reason, to_text(utc_now())),
            )

    async def clear(self, guild_id: int, channel_id: int) -> bool:
        """The bot may post in the channel again (or it is gone); True if it was marked."""
        async with self._session.writing() as conn:
            return (
                await execute(
                    conn,
                    "DELETE FROM refused_channels WHERE guild_id = ? AND channel_id = ?",
                    (guild_id, channel_id),
                )
                > 0
            )

    async def all(self) -> list[RefusedChannel]:
        """Every marked channel, of every server: a restarted process reads them once."""
        rows = await fetch_all(
            self._session.reader, "SELECT guild_id, channel_id, reason FROM refused_channels"
        )
        return [
            RefusedChannel(guild_id=row["guild_id"], channel_id=row["channel_id"], reason=row["reason"])
            for row in rows
        ]
