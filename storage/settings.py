"""Per-server settings: who counts as a Narrator, where secret rolls go, and table dice.

A server that never changed anything has no row; it reads as the defaults, so nothing has to be
written when the bot joins a server.
"""

import json

from pydantic import BaseModel, ConfigDict, field_validator

from storage.database import Session
from storage.sql import execute, fetch_one


class GuildSettings(BaseModel):
    """A server's settings. Discord ids are stored as ints, never as Discord objects."""

    model_config = ConfigDict(frozen=True)

    narrator_role_ids: tuple[int, ...] = ()
    """Members with any of these roles may act as Narrator."""
    gm_channel_id: int | None = None
    """Channel that receives secret rolls; None when the server has not chosen one."""
    table_dice: bool = False
    """Players may type faces from dice rolled at a physical table (docs/rulings.md §7.2)."""

    @field_validator("narrator_role_ids")
    @classmethod
    def _sorted_unique(cls, role_ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(set(role_ids)))


class SettingsRepository:
    """Reads and writes :class:`GuildSettings`, one row per server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings, or the defaults if it never saved any."""
        row = await fetch_one(
            self._session.reader,
            "SELECT narrator_role_ids, gm_channel_id, table_dice FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(
            narrator_role_ids=tuple(json.loads(row["narrator_role_ids"])),
            gm_channel_id=row["gm_channel_id"],
            table_dice=bool(row["table_dice"]),
        )

    async def set(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Replace the server's settings as a whole (the last writer wins)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id, table_dice)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " narrator_role_ids = excluded.narrator_role_ids, gm_channel_id = excluded.gm_channel_id,"
                " table_dice = excluded.table_dice",
                (
                    guild_id,
                    json.dumps(list(settings.narrator_role_ids)),
                    settings.gm_channel_id,
                    int(settings.table_dice),
                ),
            )
        return settings
