"""The keys a character's name is stored under, and the migration that computes them.

Storage compares names by ``rules.naming`` like everything else; SQL cannot call it, so each
row carries the results as columns:

* ``name_key``: equality, unique per server (``get_by_name``, "is this name taken?");
* ``search_key``: finding, matched with ``instr`` so a query may hit anywhere in the name;
* ``sort_key``: the three parts of ``rules.naming.sort_key`` joined by ``SORT_SEPARATOR``, a
  control character no name can hold and below every character one can, so ordering by the
  text orders as ``sorted(key=sort_key)`` would.

Every write that sets a name sets all three from :func:`name_columns` (a write that keeps the
name, proved by its version check, leaves them as they were); :func:`rekey_characters` (migration 4)
recomputes them for rows saved under the old storage rule, numbering names that now clash.
"""

import json
import unicodedata

import aiosqlite
from pydantic import ValidationError

from rules.character import Character
from rules.character.limits import NAME_MAX
from rules.character.renumber import renumber_sheet, unclashed
from rules.naming import name_key, search_key, sort_key
from storage.sql import Row, fetch_all

SORT_SEPARATOR = "\x1f"
_FREED = "\t"
"""Prefix of the placeholder keys the migration parks rows on: no key holds a tab, since
``name_key`` folds every run of white space into one space."""


def name_columns(name: str) -> tuple[str, str, str]:
    """``(name_key, search_key, sort_key)`` as stored for a character called ``name``."""
    return name_key(name), search_key(name), SORT_SEPARATOR.join(sort_key(name))


def bindable(key: str) -> str:
    """A key without lone surrogates, which SQLite cannot take and no stored name holds."""
    return "".join(char for char in key if unicodedata.category(char) != "Cs")


def _document(row: Row, name: str) -> str:
    """The row's sheet under its (maybe numbered) name, with clashing Burdens and Powers
    numbered; the stored text itself when nothing changed, so untouched sheets stay byte for
    byte as they were."""
    try:
        data = json.loads(row["document"])
    except ValueError:
        return str(row["document"])
    if not isinstance(data, dict):
        return str(row["document"])
    fixed = renumber_sheet(data)
    if name != row["name"]:
        fixed["name"] = name
    if fixed == data:
        return str(row["document"])
    try:
        return Character.model_validate(fixed).model_dump_json()
    except ValidationError:
        return json.dumps(fixed, ensure_ascii=False, separators=(",", ":"))


async def rekey_characters(conn: aiosqlite.Connection) -> None:
    """Migration 4: recompute every row's keys by ``rules.naming``, keeping names unique.

    Rows are taken oldest first per server; the first of a clashing set keeps its name and the
    newer ones become "Name (2)", "Name (3)"… in the name column and in the sheet. Every key
    is first parked on a placeholder, so the new keys can be written in any order without
    tripping ``UNIQUE (guild_id, name_key)`` on a key another row has not given up yet.
    """
    rows = await fetch_all(conn, "SELECT id, guild_id, name, document FROM characters ORDER BY guild_id, id")
    await conn.execute("UPDATE characters SET name_key = ? || id", (_FREED,))
    keepers: dict[tuple[int, str], int] = {}
    for row in rows:
        keepers.setdefault((row["guild_id"], name_key(row["name"])), row["id"])
    taken: dict[int, set[str]] = {}
    for guild_id, key in keepers:
        taken.setdefault(guild_id, set()).add(key)
    updates = []
    for row in rows:
        name, keys = row["name"], taken[row["guild_id"]]
        if keepers[(row["guild_id"], name_key(name))] != row["id"]:
            name = unclashed(name, keys.__contains__, NAME_MAX)
            keys.add(name_key(name))
        updates.append((name, *name_columns(name), _document(row, name), row["id"]))
    await conn.executemany(
        "UPDATE characters SET name = ?, name_key = ?, search_key = ?, sort_key = ?, document = ?"
        " WHERE id = ?",
        updates,
    )
