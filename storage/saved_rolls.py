"""The rolls players saved for their characters (``rules.saved_roll``, docs/rulings.md §6.14).

A saved roll is a row of its own keyed by the character (``(guild_id, character_id)``, deleted
with the sheet by its foreign key), with its name's key (``rules.naming.name_key``) unique per
character, so "Sneak" and "sneak " are one name as everywhere else. A character keeps at most
``limit`` of them, counted while holding the writer (on PostgreSQL, with the character's row
locked), so two saves at once cannot both take the last place, nor one name twice.
"""

from dataclasses import dataclass

from rules.naming import name_key
from rules.saved_roll import SavedRoll
from storage.character_rows import MISSING
from storage.errors import AlreadyExistsError, LimitReachedError, NotFoundError
from storage.session import Session
from storage.sql import Connection, IntegrityError, Row, execute, fetch_all, fetch_one, insert, is_postgres

COLUMNS = "id, character_id, name, stat, traits, tool, modifier, difficulty, label"


@dataclass(frozen=True, slots=True)
class StoredRoll:
    """A saved roll with its row's id (what a panel's button carries) and whose it is."""

    id: int
    character_id: int
    roll: SavedRoll


def taken(name: str) -> AlreadyExistsError:
    return AlreadyExistsError(f"There is already a saved roll called {name} for this character.")


class SavedRollRepository:
    """Saves, lists, renames and deletes a character's saved rolls, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def save(self, guild_id: int, character_id: int, roll: SavedRoll, *, limit: int) -> StoredRoll:
        """Keep ``roll`` for the character: refused when its name is taken there, when the
        character already keeps ``limit``, or when the character is gone."""
        async with self._session.writing() as conn:
            if is_postgres(conn):
                found = await fetch_all(
                    conn,
                    "SELECT id FROM characters WHERE guild_id = ? AND id = ? FOR UPDATE",
                    (guild_id, character_id),
                )
                if not found:
                    raise NotFoundError(MISSING)
            row = await fetch_one(
                conn,
                "SELECT COUNT(*) AS n FROM saved_rolls WHERE guild_id = ? AND character_id = ?",
                (guild_id, character_id),
            )
            if await _name_taken(conn, guild_id, character_id, roll.name):
                raise taken(roll.name)
            if row is not None and row["n"] >= limit:
                raise LimitReachedError(
                    f"This character already keeps {row['n']} saved rolls, the most one may keep. "
                    "Delete one with `/rolls delete` first."
                )
            try:
                row_id = await insert(
                    conn,
                    "INSERT INTO saved_rolls (guild_id, character_id, name, name_key, stat, traits, tool,"
                    " modifier, difficulty, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        character_id,
                        roll.name,
                        name_key(roll.name),
                        roll.stat,
                        roll.traits,
                        roll.tool,
                        roll.modifier,
                        roll.difficulty,
                        roll.label,
                    ),
                )
            except IntegrityError as error:  # the character was deleted meanwhile
                raise NotFoundError(MISSING) from error
        return StoredRoll(row_id, character_id, roll)

    async def of(self, guild_id: int, character_id: int) -> list[StoredRoll]:
        """The character's saved rolls, in the order they were saved (as the panel shows them)."""
        rows = await fetch_all(
            self._session.lookup,
            f"SELECT {COLUMNS} FROM saved_rolls WHERE guild_id = ? AND character_id = ? ORDER BY id",
            (guild_id, character_id),
        )
        return [_stored(row) for row in rows]

    async def get(self, guild_id: int, roll_id: int) -> StoredRoll | None:
        """One saved roll by its id (a panel's button), None once deleted."""
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {COLUMNS} FROM saved_rolls WHERE guild_id = ? AND id = ?",
            (guild_id, roll_id),
        )
        return _stored(row) if row is not None else None

    async def rename(self, guild_id: int, roll_id: int, name: str) -> None:
        """Give the saved roll a new name, free among its character's."""
        async with self._session.writing() as conn:
            try:
                changed = await execute(
                    conn,
                    "UPDATE saved_rolls SET name = ?, name_key = ? WHERE guild_id = ? AND id = ?",
                    (name, name_key(name), guild_id, roll_id),
                )
            except IntegrityError as error:
                raise taken(name) from error
        if not changed:
            raise NotFoundError("That saved roll was deleted just now.")

    async def delete(self, guild_id: int, roll_id: int) -> bool:
        """Delete the saved roll: False when it was already gone."""
        async with self._session.writing() as conn:
            return bool(
                await execute(
                    conn, "DELETE FROM saved_rolls WHERE guild_id = ? AND id = ?", (guild_id, roll_id)
                )
            )


async def _name_taken(conn: Connection, guild_id: int, character_id: int, name: str) -> bool:
    row = await fetch_one(
        conn,
        "SELECT 1 FROM saved_rolls WHERE guild_id = ? AND character_id = ? AND name_key = ?",
        (guild_id, character_id, name_key(name)),
    )
    return row is not None


def _stored(row: Row) -> StoredRoll:
    roll = SavedRoll.model_construct(
        name=row["name"],
        stat=row["stat"],
        traits=row["traits"],
        tool=row["tool"],
        modifier=row["modifier"],
        difficulty=row["difficulty"],
        label=row["label"],
    )
    return StoredRoll(int(row["id"]), int(row["character_id"]), roll)
