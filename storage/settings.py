"""Per-server settings: who counts as a Narrator, where secret rolls go, table dice, whether
a Conflict runs in a thread of its own, and whether players spend Advancements alone.

A server that never changed anything has no row; it reads as the defaults, so nothing has to be
written when the bot joins a server.

Each change is ONE statement that edits the stored row in place (``json_each`` adds or drops a
role id inside the list), never a read followed by a write of the whole row: two admins who add
two roles at the same moment both get theirs, and a GM-channel change never undoes a role change
made meanwhile. ``RETURNING`` hands back the row as that very statement left it.
"""

import json

from pydantic import BaseModel, ConfigDict, field_validator

from storage.session import Session
from storage.sql import Row, execute, fetch_all, fetch_one, per_dialect


class GuildSettings(BaseModel):
    """A server's settings. Discord ids are stored as ints, never as Discord objects."""

    model_config = ConfigDict(frozen=True)

    narrator_role_ids: tuple[int, ...] = ()
    """Members with any of these roles may act as Narrator."""
    gm_channel_id: int | None = None
    """Channel that receives secret rolls; None when the server has not chosen one."""
    table_dice: bool = False
    """Players may type faces from dice rolled at a physical table (docs/rulings.md §7.2)."""
    conflict_threads: bool = False
    """A Conflict started in a text channel runs in a thread of its own (``bot.cogs.conflict.threads``)."""
    players_spend: bool = False
    """Players spend their Heroes' Advancements without a Narrator's approval (docs/rulings.md §10.1)."""

    @field_validator("narrator_role_ids")
    @classmethod
    def _sorted_unique(cls, role_ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(set(role_ids)))


SETTINGS_COLUMNS: dict[str, str] = {
    "narrator_role_ids": "TEXT",
    "gm_channel_id": "BIGINT",
    "table_dice": "INTEGER",
    "conflict_threads": "INTEGER",
    "players_spend": "INTEGER",
}
"""The settings' columns and their SQL types, in one place: every query that reads them names
these (a move's one read, ``storage.conflicts``, types its empty parts by them)."""
_SELECTED = ", ".join(SETTINGS_COLUMNS)
_RETURNING = " RETURNING " + _SELECTED
_ADD_ROLE = {
    "sqlite": "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id)"
    " VALUES (?, json_array(?), NULL) ON CONFLICT (guild_id) DO UPDATE SET narrator_role_ids = ("
    " SELECT json_group_array(value) FROM ("
    " SELECT value FROM json_each(guild_settings.narrator_role_ids)"
    " UNION SELECT json_extract(excluded.narrator_role_ids, '$[0]') ORDER BY 1))" + _RETURNING,
    "postgres": "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id)"
    " VALUES (?, json_build_array(?::bigint)::text, NULL) ON CONFLICT (guild_id) DO UPDATE SET"
    " narrator_role_ids = (SELECT COALESCE(json_agg(v ORDER BY v), '[]')::text FROM ("
    " SELECT value::bigint AS v FROM json_array_elements_text(guild_settings.narrator_role_ids::json)"
    " UNION SELECT (excluded.narrator_role_ids::json->>0)::bigint) AS roles)" + _RETURNING,
}
"""Add one role id to the stored list, in place (per database: their JSON functions differ)."""
_REMOVE_ROLE = {
    "sqlite": "UPDATE guild_settings SET narrator_role_ids = ("
    " SELECT json_group_array(value) FROM json_each(narrator_role_ids) WHERE value <> ?)"
    " WHERE guild_id = ?" + _RETURNING,
    "postgres": "UPDATE guild_settings SET narrator_role_ids = ("
    " SELECT COALESCE(json_agg(v ORDER BY v), '[]')::text FROM ("
    " SELECT value::bigint AS v FROM json_array_elements_text(narrator_role_ids::json)) AS roles"
    " WHERE v <> ?::bigint) WHERE guild_id = ?" + _RETURNING,
}


def settings_of(row: Row | None) -> GuildSettings:
    """The settings a row holds; none (or a LEFT JOIN that found none) are the defaults."""
    if row is None or row["narrator_role_ids"] is None:
        return GuildSettings()
    return GuildSettings(
        narrator_role_ids=tuple(json.loads(row["narrator_role_ids"])),
        gm_channel_id=row["gm_channel_id"],
        table_dice=bool(row["table_dice"]),
        conflict_threads=bool(row["conflict_threads"]),
        players_spend=bool(row["players_spend"]),
    )


class SettingsRepository:
    """Reads and writes :class:`GuildSettings`, one row per server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings, or the defaults if it never saved any."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT " + _SELECTED + " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return settings_of(row)

    async def add_narrator_role(self, guild_id: int, role_id: int) -> GuildSettings:
        """Make ``role_id`` a Narrator role (once), whatever else changes at the same time."""
        return await self._change(
            _ADD_ROLE,
            (guild_id, role_id),
        )

    async def remove_narrator_role(self, guild_id: int, role_id: int) -> GuildSettings:
        """Stop treating ``role_id`` as a Narrator role (nothing happens if it was not one)."""
        return await self._change(
            _REMOVE_ROLE,
            (role_id, guild_id),
            missing_is_default=True,
        )

    async def set_gm_channel(self, guild_id: int, channel_id: int | None) -> GuildSettings:
        """Send secret rolls to ``channel_id`` (None: nowhere), leaving the Narrator roles alone."""
        return await self._change(
            "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id) VALUES (?, '[]', ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET gm_channel_id = excluded.gm_channel_id" + _RETURNING,
            (guild_id, channel_id),
        )

    async def set_table_dice(self, guild_id: int, allowed: bool) -> GuildSettings:
        """Let players type faces from physical dice (or stop them), leaving the rest alone."""
        return await self._change(
            "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id, table_dice)"
            " VALUES (?, '[]', NULL, ?) ON CONFLICT (guild_id) DO UPDATE SET table_dice = excluded.table_dice"
            + _RETURNING,
            (guild_id, int(allowed)),
        )

    async def set_conflict_threads(self, guild_id: int, on: bool) -> GuildSettings:
        """Run each new Conflict in a thread of its own (or in the channel), leaving the rest alone."""
        return await self._change(
            "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id, conflict_threads)"
            " VALUES (?, '[]', NULL, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " conflict_threads = excluded.conflict_threads" + _RETURNING,
            (guild_id, int(on)),
        )

    async def set_players_spend(self, guild_id: int, on: bool) -> GuildSettings:
        """Let players spend Advancements alone (or only with a Narrator's approval), leaving the rest."""
        return await self._change(
            "INSERT INTO guild_settings (guild_id, narrator_role_ids, gm_channel_id, players_spend)"
            " VALUES (?, '[]', NULL, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " players_spend = excluded.players_spend" + _RETURNING,
            (guild_id, int(on)),
        )

    async def _change(
        self, sql: str | dict[str, str], params: tuple[object, ...], *, missing_is_default: bool = False
    ) -> GuildSettings:
        async with self._session.writing() as conn:
            if isinstance(sql, dict):
                sql = per_dialect(conn, sql["sqlite"], sql["postgres"])
            rows = await fetch_all(conn, sql, params)
        if not rows and not missing_is_default:
            raise RuntimeError("SQLite returned no settings row from an upsert.")
        return settings_of(rows[0] if rows else None)

    async def set(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        """Replace the server's settings as a whole (the last writer wins)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO guild_settings"
                " (guild_id, narrator_role_ids, gm_channel_id, table_dice, conflict_threads, players_spend)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " narrator_role_ids = excluded.narrator_role_ids, gm_channel_id = excluded.gm_channel_id,"
                " table_dice = excluded.table_dice, conflict_threads = excluded.conflict_threads,"
                " players_spend = excluded.players_spend",
                (
                    guild_id,
                    json.dumps(list(settings.narrator_role_ids)),
                    settings.gm_channel_id,
                    int(settings.table_dice),
                    int(settings.conflict_threads),
                    int(settings.players_spend),
                ),
            )
        return settings
