"""Each member's active character in each server: the sheet their rolls use by default.

The choice references the character through ``(guild_id, character_id)``, so the schema itself
refuses a character from another server, and deleting the character clears the choice
(``ON DELETE CASCADE``).
"""

from dataclasses import dataclass

from storage.character_rows import MISSING, StoredCharacter, stored_character
from storage.errors import NotFoundError
from storage.scenes import SceneCircumstances, scene_of
from storage.session import Session
from storage.settings import GuildSettings, settings_of
from storage.sql import IntegrityError, Row, execute, fetch_all, fetch_one

SHEET = "c.id, c.guild_id, c.version, c.updated_at, c.document, c.revealed, c.format_version"
AT_TABLE = (
    "SELECT "
    + SHEET
    + ", s.narrator_role_ids, s.gm_channel_id, s.table_dice, s.conflict_threads, s.players_spend,"
    " sc.net, sc.note FROM (SELECT 1 AS here) AS one"
    " LEFT JOIN active_characters AS a ON a.guild_id = ? AND a.user_id = ?"
    " LEFT JOIN characters AS c ON c.guild_id = a.guild_id AND c.id = a.character_id"
    " LEFT JOIN guild_settings AS s ON s.guild_id = ?"
    " LEFT JOIN scene_circumstances AS sc ON sc.guild_id = ? AND sc.channel_id = ?"
)
"""Each join is by a primary key, from one constant row: always one row back, and a part that is
not there (no active sheet, no settings, no Circumstances) reads as NULLs."""


@dataclass(frozen=True, slots=True)
class AtTable:
    """What a member's roll from their sheet reads, in one query: their active sheet (None if
    they chose none), the server's settings (who is a Narrator) and the channel's Circumstances."""

    sheet: StoredCharacter | None
    scene: SceneCircumstances
    row: Row | None = None
    """The row read, whose settings :attr:`settings` parses when asked."""

    @property
    def settings(self) -> GuildSettings:
        """The server's settings, parsed only when asked: a roll of the member's own Hero never
        asks, for it needs no judgement of who is asking (``bot.inputs.characters.at_table``)."""
        return settings_of(self.row)


class ActiveCharacterRepository:
    """Sets, reads and clears a member's active character in a server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def set(self, guild_id: int, user_id: int, character_id: int) -> None:
        """Make ``character_id`` the member's active character in this server."""
        async with self._session.writing() as conn:
            try:
                await execute(
                    conn,
                    "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET character_id = excluded.character_id",
                    (guild_id, user_id, character_id),
                )
            except IntegrityError as error:
                raise NotFoundError(MISSING) from error

    async def get(self, guild_id: int, user_id: int) -> StoredCharacter | None:
        """The member's active character in this server, or None if they have not chosen one."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT " + SHEET + " FROM active_characters AS a JOIN characters AS c"
            " ON c.guild_id = a.guild_id AND c.id = a.character_id"
            " WHERE a.guild_id = ? AND a.user_id = ?",
            (guild_id, user_id),
        )
        return stored_character(row) if row is not None else None

    async def at_table(self, guild_id: int, user_id: int, channel_id: int | None) -> AtTable:
        """The member's active sheet, the server's settings and the channel's Circumstances, in
        ONE lookup instead of three (a stat roll reads all three)."""
        row = await fetch_one(
            self._session.lookup, AT_TABLE, (guild_id, user_id, guild_id, guild_id, channel_id)
        )
        sheet = stored_character(row) if row is not None and row["id"] is not None else None
        return AtTable(sheet=sheet, scene=scene_of(row), row=row)

    async def heroes(self, guild_id: int, limit: int = 25) -> list[StoredCharacter]:
        """Every member's active character in this server that is a Hero, by name (the table a
        Narrator addresses when a request names nobody)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT " + SHEET + " FROM active_characters AS a JOIN characters AS c"
            " ON c.guild_id = a.guild_id AND c.id = a.character_id"
            " WHERE a.guild_id = ? AND c.kind = 'hero' AND c.owner_id = a.user_id"
            " ORDER BY c.sort_key LIMIT ?",
            (guild_id, limit),
        )
        return [stored_character(row) for row in rows]

    async def clear(self, guild_id: int, user_id: int) -> None:
        """Forget the member's active character in this server (nothing happens if none)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "DELETE FROM active_characters WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
