"""Character sheets, stored as the rules' JSON document plus the columns we search on.

The sheet's format belongs to ``rules.character``; storage keeps ``model_dump_json()`` as it is
and copies out only what it must index: the name (as typed, and as a case-insensitive key that
is unique per server), owner and kind. Every write checks and bumps a version, so two edits
made from the same old copy cannot silently overwrite each other.
"""

import sqlite3
import unicodedata
from functools import lru_cache
from typing import NoReturn

import aiosqlite
from pydantic import AwareDatetime, BaseModel, ConfigDict

from rules.character import Character, CharacterKind, revise_character
from storage.database import Session
from storage.errors import AlreadyExistsError, NotFoundError, StaleWriteError
from storage.sql import execute, fetch_all, fetch_one, from_text, insert, to_text, utc_now

MAX_SEARCH = 25
"""Discord shows at most 25 autocomplete choices."""
MISSING = "That character does not exist in this server (it may have been deleted)."

_COLUMNS = "id, guild_id, version, updated_at, document FROM characters"
_BY_ID = "SELECT " + _COLUMNS + " WHERE guild_id = ? AND id = ?"
_BY_NAME = "SELECT " + _COLUMNS + " WHERE guild_id = ? AND name_key = ?"
_IN_GUILD = "SELECT " + _COLUMNS + " WHERE guild_id = ? ORDER BY name_key"
_BY_OWNER = "SELECT " + _COLUMNS + " WHERE guild_id = ? AND owner_id = ? ORDER BY name_key"
_SUMMARY = "SELECT id, name, kind, owner_id FROM characters"
_SEARCH = _SUMMARY + " WHERE guild_id = ? AND name_key >= ? AND name_key < ? ORDER BY name_key LIMIT ?"
_SEARCH_OPEN = _SUMMARY + " WHERE guild_id = ? AND name_key >= ? ORDER BY name_key LIMIT ?"
_SEARCH_OWNER = (
    _SUMMARY + " WHERE guild_id = ? AND owner_id = ? AND name_key >= ? AND name_key < ?"
    " ORDER BY name_key LIMIT ?"
)
_SEARCH_OWNER_OPEN = (
    _SUMMARY + " WHERE guild_id = ? AND owner_id = ? AND name_key >= ? ORDER BY name_key LIMIT ?"
)


def name_key(name: str) -> str:
    """The form two names share when a player would call them the same name.

    NFKC folds look-alike forms (full-width letters, ligatures) and ``casefold`` folds case
    more thoroughly than ``lower`` (German ß matches ss). Normalizing again after folding
    makes the key stable: the key of a key is itself, so typing a key finds its character.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def _prefix_end(prefix: str) -> str | None:
    """The smallest key above every key starting with ``prefix``; None if there is none.

    SQLite compares text as UTF-8 bytes, which is code point order, so "every key that starts
    with p" is the range ``[p, p with its last character bumped)``, which an index answers
    directly (``LIKE`` would not use it).
    """
    chars = list(prefix)
    while chars:
        code = ord(chars.pop()) + 1
        if code == 0xD800:
            code = 0xE000
        if code <= 0x10FFFF:
            return "".join(chars) + chr(code)
    return None


class StoredCharacter(BaseModel):
    """A character as saved in one server, with the version to quote when saving it back."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    version: int
    updated_at: AwareDatetime
    character: Character

    @property
    def name(self) -> str:
        return self.character.name


class CharacterSummary(BaseModel):
    """What autocomplete needs, read without loading the whole sheet."""

    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    kind: CharacterKind
    owner_id: int


def stored_character(row: sqlite3.Row) -> StoredCharacter:
    """Build a :class:`StoredCharacter` from a row of ``id, guild_id, version, updated_at, document``."""
    return StoredCharacter(
        id=row["id"],
        guild_id=row["guild_id"],
        version=row["version"],
        updated_at=from_text(row["updated_at"]),
        character=parse_sheet(row["document"]),
    )


@lru_cache(maxsize=4096)
def parse_sheet(document: str) -> Character:
    """The sheet a stored document holds, parsed once per distinct document.

    Validating a sheet re-checks every text field character by character; a table rereads the
    same few sheets on every command, and ``Character`` is frozen, so sharing one parsed copy
    per document is safe and saves most of a read's time.
    """
    return Character.model_validate_json(document)


def _not_found(name: str) -> NotFoundError:
    return NotFoundError(f"There is no character named {name} in this server.")


def _taken(name: str) -> AlreadyExistsError:
    return AlreadyExistsError(
        f"There is already a character named {name} in this server; choose another name."
    )


class CharacterRepository:
    """Every read and write of character sheets, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def create(self, guild_id: int, character: Character) -> StoredCharacter:
        """Save a new character; its version starts at 1. The name must be free in the server."""
        now = utc_now()
        async with self._session.writing() as conn:
            try:
                row_id = await insert(
                    conn,
                    "INSERT INTO characters (guild_id, name, name_key, owner_id, kind, version,"
                    " updated_at, document) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                    (
                        guild_id,
                        character.name,
                        name_key(character.name),
                        character.owner_id,
                        character.kind.value,
                        to_text(now),
                        character.model_dump_json(),
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise _taken(character.name) from error
        return StoredCharacter(id=row_id, guild_id=guild_id, version=1, updated_at=now, character=character)

    async def get(self, guild_id: int, character_id: int) -> StoredCharacter:
        """The character with this id in this server; :class:`NotFoundError` if none."""
        row = await fetch_one(self._session.reader, _BY_ID, (guild_id, character_id))
        if row is None:
            raise NotFoundError(MISSING)
        return stored_character(row)

    async def get_by_name(self, guild_id: int, name: str) -> StoredCharacter:
        """The character with this name in this server, in any case; :class:`NotFoundError` if none."""
        row = await fetch_one(self._session.reader, _BY_NAME, (guild_id, name_key(name)))
        if row is None:
            raise _not_found(name.strip())
        return stored_character(row)

    async def list_by_guild(self, guild_id: int, owner_id: int | None = None) -> list[StoredCharacter]:
        """Every character in the server (or owned by one member), in name order."""
        if owner_id is None:
            rows = await fetch_all(self._session.reader, _IN_GUILD, (guild_id,))
        else:
            rows = await fetch_all(self._session.reader, _BY_OWNER, (guild_id, owner_id))
        return [stored_character(row) for row in rows]

    async def search(
        self, guild_id: int, prefix: str, owner_id: int | None = None, limit: int = MAX_SEARCH
    ) -> list[CharacterSummary]:
        """Characters whose name starts with ``prefix`` in any case, in name order, at most 25."""
        limit = max(0, min(limit, MAX_SEARCH))
        start = "".join(ch for ch in name_key(prefix) if unicodedata.category(ch) != "Cs")
        end = _prefix_end(start)
        reader = self._session.reader
        if owner_id is None:
            if end is None:
                rows = await fetch_all(reader, _SEARCH_OPEN, (guild_id, start, limit))
            else:
                rows = await fetch_all(reader, _SEARCH, (guild_id, start, end, limit))
        elif end is None:
            rows = await fetch_all(reader, _SEARCH_OWNER_OPEN, (guild_id, owner_id, start, limit))
        else:
            rows = await fetch_all(reader, _SEARCH_OWNER, (guild_id, owner_id, start, end, limit))
        return [
            CharacterSummary(id=row["id"], name=row["name"], kind=row["kind"], owner_id=row["owner_id"])
            for row in rows
        ]

    async def update(self, guild_id: int, stored: StoredCharacter, character: Character) -> StoredCharacter:
        """Replace ``stored``'s sheet with ``character`` if nobody saved it since ``stored`` was read.

        Raises :class:`StaleWriteError` if someone else saved it first (reload and redo the
        change), :class:`NotFoundError` if it was deleted, and :class:`AlreadyExistsError` if
        the new name is taken.
        """
        now = utc_now()
        async with self._session.writing() as conn:
            try:
                changed = await execute(
                    conn,
                    "UPDATE characters SET name = ?, name_key = ?, owner_id = ?, kind = ?,"
                    " version = version + 1, updated_at = ?, document = ?"
                    " WHERE guild_id = ? AND id = ? AND version = ?",
                    (
                        character.name,
                        name_key(character.name),
                        character.owner_id,
                        character.kind.value,
                        to_text(now),
                        character.model_dump_json(),
                        guild_id,
                        stored.id,
                        stored.version,
                    ),
                )
            except sqlite3.IntegrityError as error:
                raise _taken(character.name) from error
            if not changed:
                await self._explain_miss(conn, guild_id, stored)
        return StoredCharacter(
            id=stored.id, guild_id=guild_id, version=stored.version + 1, updated_at=now, character=character
        )

    async def rename(self, guild_id: int, stored: StoredCharacter, new_name: str) -> StoredCharacter:
        """Give ``stored`` a new name, checked by the sheet's own rules and free in the server.

        A name the sheet refuses raises :class:`~rules.errors.RulesError`; a taken one
        :class:`AlreadyExistsError`.
        """
        return await self.update(guild_id, stored, revise_character(stored.character, name=new_name))

    async def delete(self, guild_id: int, character_id: int, expected_version: int | None = None) -> None:
        """Delete a character (and anyone's choice of it as their active character).

        With ``expected_version``, only if nobody saved it since that version.
        """
        async with self._session.writing() as conn:
            if expected_version is None:
                changed = await execute(
                    conn, "DELETE FROM characters WHERE guild_id = ? AND id = ?", (guild_id, character_id)
                )
            else:
                changed = await execute(
                    conn,
                    "DELETE FROM characters WHERE guild_id = ? AND id = ? AND version = ?",
                    (guild_id, character_id, expected_version),
                )
            if changed:
                return
            row = await fetch_one(
                conn, "SELECT name FROM characters WHERE guild_id = ? AND id = ?", (guild_id, character_id)
            )
        if row is None:
            raise NotFoundError(MISSING)
        raise StaleWriteError(f"Someone else changed {row['name']} just now; try again.")

    @staticmethod
    async def _explain_miss(conn: aiosqlite.Connection, guild_id: int, stored: StoredCharacter) -> NoReturn:
        exists = await fetch_one(
            conn, "SELECT 1 FROM characters WHERE guild_id = ? AND id = ?", (guild_id, stored.id)
        )
        if exists is None:
            raise NotFoundError(f"{stored.name} no longer exists in this server; it was deleted.")
        raise StaleWriteError(f"Someone else changed {stored.name} just now; try again.")
