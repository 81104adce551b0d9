"""How a character row is read and found: the stored sheet and its summary, the SQL of lookups
and searches, and the per-server limits (``storage.characters`` writes and reads with these).

Kept apart from the repository so each module stays one screenful of one job.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import NamedTuple

from pydantic import AwareDatetime, BaseModel, ConfigDict

from rules.character import Character, CharacterKind
from storage import sheet_format
from storage.errors import AlreadyExistsError, LimitReachedError, NotFoundError
from storage.name_keys import name_columns
from storage.sheet_format import current_document
from storage.sql import (
    Connection,
    Row,
    Statement,
    fetch_all,
    fetch_one,
    from_text,
    is_postgres,
    to_text,
)

MAX_SEARCH = 25
"""Discord shows at most 25 autocomplete choices."""
MISSING = (
    "That character does not exist in this server (it may have been deleted); "
    "/character list shows the sheets here."
)

COLUMNS = "id, guild_id, version, updated_at, document, revealed, format_version FROM characters"
ROW_VALUES = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
# One UPDATE for any number of sheets: each VALUES row is (name, name_key, search_key, sort_key,
# owner_id, kind, document, format_version, id, version, updated_at), SQLite's column1..column11.
UPDATE_MANY = (
    "UPDATE characters SET name = v.column1, name_key = v.column2, search_key = v.column3,"
    " sort_key = v.column4, owner_id = v.column5, kind = v.column6, document = v.column7,"
    " format_version = v.column8, version = characters.version + 1, updated_at = v.column11"
    " FROM (VALUES {rows}) AS v"
    " WHERE characters.guild_id = ? AND characters.id = v.column9 AND characters.version = v.column10"
    " RETURNING characters.id"
)
_KEPT = " WHERE guild_id = ? AND id = ? AND version = ?"
UPDATE_ONE = (
    "UPDATE characters SET name = ?, name_key = ?, search_key = ?, sort_key = ?, owner_id = ?, kind = ?,"
    " document = ?, format_version = ?, version = version + 1, updated_at = ?" + _KEPT
)
UPDATE_DOCUMENT = (
    "UPDATE characters SET document = ?, format_version = ?, version = version + 1, updated_at = ?" + _KEPT
)
"""One sheet, its name, owner and kind kept: no indexed column is SET, so no index is written."""
DOCUMENT_VALUES = "(?, ?, ?, ?, ?)"
# The same for sheets whose name, owner and kind stay: (document, format_version, id, version,
# updated_at), column1..column5; no indexed column is SET, so no index is written.
UPDATE_DOCUMENTS = (
    "UPDATE characters SET document = v.column1, format_version = v.column2,"
    " version = characters.version + 1, updated_at = v.column5"
    " FROM (VALUES {rows}) AS v"
    " WHERE characters.guild_id = ? AND characters.id = v.column3 AND characters.version = v.column4"
    " RETURNING characters.id"
)
PG_ROW_VALUES = "(?::text, ?::text, ?::text, ?::text, ?::bigint, ?::text, ?::text, ?::integer, ?::bigint,"
PG_ROW_VALUES += " ?::integer, ?::text)"
# PostgreSQL names a VALUES list's columns itself and must be told their types.
PG_UPDATE_MANY = (
    "UPDATE characters SET name = v.c1, name_key = v.c2, search_key = v.c3,"
    " sort_key = v.c4, owner_id = v.c5, kind = v.c6, document = v.c7,"
    " format_version = v.c8, version = characters.version + 1, updated_at = v.c11"
    " FROM (VALUES {rows}) AS v (c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11)"
    " WHERE characters.guild_id = ? AND characters.id = v.c9 AND characters.version = v.c10"
    " RETURNING characters.id"
)
UPGRADE_BATCH = 200
"""Sheets rewritten per batch when an old format is upgraded at start."""
BY_ID = "SELECT " + COLUMNS + " WHERE guild_id = ? AND id = ?"
BY_NAME = "SELECT " + COLUMNS + " WHERE guild_id = ? AND name_key = ?"
IN_GUILD = "SELECT " + COLUMNS + " WHERE guild_id = ? ORDER BY sort_key"
BY_OWNER = "SELECT " + COLUMNS + " WHERE guild_id = ? AND owner_id = ? ORDER BY sort_key"
PUBLIC = " AND (kind = 'hero' OR revealed = 1)"
"""Sheets anyone in the server may read (docs/rulings.md §7.1)."""
STAMPS = "SELECT id, version, kind, owner_id, revealed FROM characters WHERE guild_id = ?"
STAMPS_OWNER = STAMPS + " AND owner_id = ?"
SUMMARY = "SELECT id, name, kind, owner_id, revealed, sort_key"
SUMMARIES = SUMMARY + " FROM characters WHERE guild_id = ?"
SUMMARIES_OWNER = SUMMARY + " FROM characters WHERE guild_id = ? AND owner_id = ?"
NAMES = "SELECT name, name_key, search_key FROM characters WHERE guild_id = ?"
EXACT = SUMMARY + ", 1 AS exact FROM characters WHERE guild_id = ? AND name_key = ?"
CONTAINING = (
    SUMMARY + ", 0 AS exact FROM characters WHERE guild_id = ? AND name_key <> ? AND instr(search_key, ?) > 0"
)


def matching(owned: str) -> str:
    """Names containing the query's search key: the one with the query's very name first (by
    the unique name index), then the rest walked in sort order (``characters_by_sort_key``,
    or ``characters_by_owner``) until ``limit`` match, so a common query stops early and only
    the few rows kept are sorted. ``instr`` itself cannot use an index."""
    exact = EXACT + owned
    containing = CONTAINING + owned + " ORDER BY sort_key LIMIT ?"
    return (
        "SELECT id, name, kind, owner_id, revealed, exact FROM ("
        + exact
        + " UNION ALL SELECT * FROM ("
        + containing
        + ") AS containing) AS found ORDER BY exact DESC, sort_key LIMIT ?"
    )


LOOP_SEARCH = 100
"""A server with at most this many sheets is searched on the loop's lookup connection: the
walk is that short whatever was typed. A larger one is searched on a reader's thread."""
FEW = "SELECT COUNT(*) AS n FROM (SELECT 1 FROM characters WHERE guild_id = ?"
FEW += f" LIMIT {LOOP_SEARCH + 1}) AS few"
"""How many sheets the server holds, counted on the index no further than :data:`LOOP_SEARCH` + 1."""

SEARCH = {
    (owner, public): matching((" AND owner_id = ?" if owner else "") + (PUBLIC if public else ""))
    for owner in (False, True)
    for public in (False, True)
}
"""The search by (filtered by owner, public sheets only)."""


class StoredCharacter(BaseModel):
    """A character as saved in one server, with the version to quote when saving it back."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    version: int
    updated_at: AwareDatetime
    character: Character
    revealed: bool = False
    """A Narrator opened this (Villain's or Extra's) sheet to the players."""

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
    revealed: bool = False


class SheetStamp(NamedTuple):
    """Which saved state of a sheet a row holds, read without its document: every write bumps
    ``version`` (ids are never used again, even after a delete), and ``revealed`` changes
    beside it. Kind and owner say who may read and control it (``bot.access``). What a cache
    of built sheets checks itself against; a tuple, since a server's thousands are read at once."""

    id: int
    version: int
    kind: CharacterKind
    owner_id: int
    revealed: bool


_KINDS = {kind.value: kind for kind in CharacterKind}


def stamp_of(row: Row) -> SheetStamp:
    return SheetStamp(row[0], row[1], _KINDS[row[2]], row[3], bool(row[4]))


@dataclass(frozen=True)
class SheetLimits:
    """How many sheets a server, and one member's Heroes, may hold.

    Only Heroes count against a member: only Narrators make Villains and Extras, and a large
    campaign's opposition is theirs to keep, under the server's limit like everything else.
    """

    per_server: int
    per_member: int


async def check_limits(conn: Connection, guild_id: int, character: Character, limits: SheetLimits) -> None:
    if is_postgres(conn):  # no single writer there: serialise the server's creates while counting
        await fetch_all(conn, "SELECT pg_advisory_xact_lock(?::bigint)", (guild_id,))
    row = await fetch_one(conn, "SELECT COUNT(*) AS n FROM characters WHERE guild_id = ?", (guild_id,))
    if row is not None and row["n"] >= limits.per_server:
        raise LimitReachedError(
            f"This server already has {row['n']} character sheets, the most it may keep. "
            "Delete some with /character delete first."
        )
    if character.kind is not CharacterKind.HERO:
        return
    row = await fetch_one(
        conn,
        "SELECT COUNT(*) AS n FROM characters WHERE guild_id = ? AND owner_id = ? AND kind = ?",
        (guild_id, character.owner_id, CharacterKind.HERO.value),
    )
    if row is not None and row["n"] >= limits.per_member:
        raise LimitReachedError(
            f"That member already has {row['n']} Heroes in this server, the most one member may keep. "
            "Delete one with /character delete first."
        )


def summary_of(row: Row) -> CharacterSummary:
    return CharacterSummary(
        id=row["id"], name=row["name"], kind=row["kind"], owner_id=row["owner_id"], revealed=row["revealed"]
    )


def stored_character(row: Row) -> StoredCharacter:
    """A :class:`StoredCharacter` from a row of ``id, guild_id, version, updated_at, document,
    revealed, format_version`` (a sheet in an older format is upgraded as it is read)."""
    return _stored(
        row["id"],
        row["guild_id"],
        row["version"],
        row["updated_at"],
        row["document"],
        bool(row["revealed"]),
        row["format_version"],
    )


@lru_cache(maxsize=4096)
def _stored(
    character_id: int,
    guild_id: int,
    version: int,
    updated_at: str,
    document: str,
    revealed: bool,
    format_version: int,
) -> StoredCharacter:
    """Built once per distinct row: keyed by every column it is built from, so a row that
    changed in any way is a new key and is never answered from an older one. A table rereads
    the same few rows on every roll (issue 40: a stat roll's lookup), and the result is frozen.

    Built without validation: the sheet comes parsed and checked (:func:`parse_sheet`), and
    validating the wrapper would run the sheet's own checks again on every read."""
    return StoredCharacter.model_construct(
        id=character_id,
        guild_id=guild_id,
        version=version,
        updated_at=from_text(updated_at),
        character=parse_sheet(current_document(document, format_version)),
        revealed=revealed,
    )


@lru_cache(maxsize=4096)
def parse_sheet(document: str) -> Character:
    """The sheet a stored document holds, parsed once per distinct document.

    Validating a sheet re-checks every text field character by character; a table rereads the
    same few sheets on every command, and ``Character`` is frozen, so sharing one parsed copy
    per document is safe and saves most of a read's time.
    """
    return Character.model_validate_json(document)


def not_found(name: str) -> NotFoundError:
    return NotFoundError(
        f"There is no character named {name} in this server; /character list shows the sheets here."
    )


def taken(name: str) -> AlreadyExistsError:
    return AlreadyExistsError(
        f"There is already a character named {name} in this server; choose another name."
    )


def update_many_statement(
    guild_id: int, changes: Sequence[tuple[StoredCharacter, Character]], now: datetime, *, postgres: bool
) -> Statement:
    """ONE UPDATE replacing every sheet of ``changes`` that is still at the version it was read
    at; it returns the ids it wrote (several sheets), or how many rows it wrote (one sheet).

    One sheet (a sheet's edit, most of a Conflict move's damage) is a plain UPDATE of its row:
    SQLite runs the join over a VALUES list through temporary tables, five times the cost. When
    no sheet's name, owner or kind changes (a Conflict move's damage), only the document and its
    stamps are written: the version check proves the row is the one read, so its name's keys and
    its owner and kind are already these, and the indexes on them are left untouched (on SQLite
    a commit then writes three pages fewer, issue 40)."""
    stamp, latest = to_text(now), sheet_format.latest()
    same = all(_same_keys(stored.character, character) for stored, character in changes)
    if len(changes) == 1:
        [(stored, character)] = changes
        kept = (stored.id, stored.version)
        if same:
            return Statement(UPDATE_DOCUMENT, (character.model_dump_json(), latest, stamp, guild_id, *kept))
        keys = (character.name, *name_columns(character.name), character.owner_id, character.kind.value)
        return Statement(UPDATE_ONE, (*keys, character.model_dump_json(), latest, stamp, guild_id, *kept))
    params: list[object] = []
    if not postgres and same:
        for stored, character in changes:
            params += [character.model_dump_json(), latest, stored.id, stored.version, stamp]
        sql = UPDATE_DOCUMENTS.format(rows=", ".join([DOCUMENT_VALUES] * len(changes)))
        return Statement(sql, (*params, guild_id), returns="rows")
    for stored, character in changes:
        params += [character.name, *name_columns(character.name), character.owner_id, character.kind.value]
        params += [character.model_dump_json(), latest, stored.id, stored.version, stamp]
    template, values = (PG_UPDATE_MANY, PG_ROW_VALUES) if postgres else (UPDATE_MANY, ROW_VALUES)
    sql = template.format(rows=", ".join([values] * len(changes)))
    return Statement(sql, (*params, guild_id), returns="rows")


def _same_keys(before: Character, after: Character) -> bool:
    """Whether a sheet keeps every column an index is built on (name, owner, kind)."""
    return before.name == after.name and before.owner_id == after.owner_id and before.kind is after.kind
