"""Each member's active character in each server: the sheet their rolls use by default.

The choice references the character through ``(guild_id, character_id)``, so the schema itself
refuses a character from another server, and deleting the character clears the choice
(``ON DELETE CASCADE``).
"""

from storage.character_rows import MISSING, StoredCharacter, stored_character
from storage.errors import NotFoundError
from storage.session import Session
from storage.sql import IntegrityError, execute, fetch_all, fetch_one


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
            "SELECT c.id, c.guild_id, c.version, c.updated_at, c.document, c.revealed, c.format_version"
            " FROM active_characters AS a JOIN characters AS c"
            " ON c.guild_id = a.guild_id AND c.id = a.character_id"
            " WHERE a.guild_id = ? AND a.user_id = ?",
            (guild_id, user_id),
        )
        return stored_character(row) if row is not None else None

    async def heroes(self, guild_id: int, limit: int = 25) -> list[StoredCharacter]:
        """Every member's active character in this server that is a Hero, by name (the table a
        Narrator addresses when a request names nobody)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT c.id, c.guild_id, c.version, c.updated_at, c.document, c.revealed, c.format_version"
            " FROM active_characters AS a JOIN characters AS c"
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
