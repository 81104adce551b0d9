"""The true Destiny of a character (migration 29; PostgreSQL 17): the Narrator's alone
(docs/rulings.md §10.2).

The sheet holds the Destiny its player believes; the true one is a row of its own, keyed like
the sheet and deleted with it, and never part of the sheet's document. Whatever shows, lists,
exports, journals or suggests a sheet reads the sheet, so none of them can carry it: only the
Narrator's ``/story`` commands read this table.
"""

from datetime import datetime

from storage.session import Session
from storage.sql import execute, fetch_one, to_text


class TrueDestinyRepository:
    """Sets, reads and clears a character's true Destiny."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def set(self, guild_id: int, character_id: int, text: str, set_by: int, at: datetime) -> str:
        """The character's true Destiny is now ``text`` (checked by ``rules.character.story``)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO true_destinies (guild_id, character_id, text, set_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, character_id) DO UPDATE SET"
                " text = excluded.text, set_by = excluded.set_by, updated_at = excluded.updated_at",
                (guild_id, character_id, text, set_by, to_text(at)),
            )
        return text

    async def get(self, guild_id: int, character_id: int) -> str | None:
        row = await fetch_one(
            self._session.lookup,
            "SELECT text FROM true_destinies WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return str(row["text"]) if row is not None else None

    async def clear(self, guild_id: int, character_id: int) -> bool:
        """Forget the true Destiny: False when there was none."""
        async with self._session.writing() as conn:
            return bool(
                await execute(
                    conn,
                    "DELETE FROM true_destinies WHERE guild_id = ? AND character_id = ?",
                    (guild_id, character_id),
                )
            )
