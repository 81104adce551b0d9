"""Migration 4: rows saved under the old storage name rule, brought under rules.naming."""

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from rules.character import Character, CharacterKind
from rules.character.limits import NAME_MAX, text_units
from storage import AlreadyExistsError, Storage
from storage.migrations import migrate, schema_version
from storage.name_keys import name_columns
from storage.sql import fetch_all
from tests.storage.test_migrations import STAMP, raw

BEFORE = 3
"""The schema version just before the name keys changed."""
LONG = "Lestibournes " + "x" * 50
"""63 characters: " (2)" fits only once the name loses three."""


def old_key(name: str) -> str:
    """The storage rule of schema 3: NFKC and casefold, white space runs kept."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip()


def sheet(name: str, **fields: Any) -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(
        Character(name=name, kind=CharacterKind.HERO, owner_id=7).model_dump_json()
    )
    return stored | fields


ROWS: list[tuple[int, int, dict[str, Any]]] = [
    (1, 1, sheet("Vin Venture")),
    (2, 1, sheet("Vin  Venture")),  # now the same name as row 1: the newer one is numbered
    (3, 1, sheet("Vin Venture (2)")),  # already taken "(2)", so row 2 becomes "(3)"
    (4, 1, sheet("Vin   Venture")),
    (5, 2, sheet("Vin  Venture")),  # another server: no clash
    (6, 1, sheet(LONG.replace(" ", "  ", 1))),
    (7, 1, sheet(LONG)),  # older than row 6? no: row 6 is older, so this one is numbered
    (
        8,
        1,
        sheet(
            "Marsh",
            burdens=[{"name": "Fire", "severity": "grave"}, {"name": "Ｆｉｒｅ", "severity": "serious"}],
            powers=[
                {"type": "other", "name": "Glow", "rating": 2, "stunts": []},
                {"type": "other", "name": "Ｇｌｏｗ", "rating": 3, "stunts": []},
                {"type": "kandra", "name": "Ｗｉｔｓ", "rating": 1, "stunts": []},
                {"type": "allomancy", "name": "Steel", "rating": 4, "stunts": []},
            ],
        ),
    ),
]


async def old_file(db_path: Path) -> dict[int, str]:
    """A file at schema 3 holding ``ROWS`` as that bot saved them; their documents by id."""
    conn = await raw(db_path)
    await migrate(conn, target=BEFORE)
    documents = {}
    for row_id, guild_id, data in ROWS:
        document = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        documents[row_id] = document
        await conn.execute(
            "INSERT INTO characters (id, guild_id, name, name_key, owner_id, kind, version, updated_at,"
            " document) VALUES (?, ?, ?, ?, 7, 'hero', 1, ?, ?)",
            (row_id, guild_id, data["name"], old_key(data["name"]), STAMP, document),
        )
    await conn.close()
    return documents


async def test_clashing_names_are_numbered_and_nothing_is_lost(db_path: Path) -> None:
    documents = await old_file(db_path)
    async with await Storage.open(db_path) as storage:
        assert await schema_version(storage.sqlite.reader) >= 4
        rows = await fetch_all(storage.sqlite.reader, "SELECT * FROM characters ORDER BY id")
        names = {row["id"]: row["name"] for row in rows}
        assert names == {
            1: "Vin Venture",
            2: "Vin  Venture (3)",
            3: "Vin Venture (2)",
            4: "Vin   Venture (4)",
            5: "Vin  Venture",
            6: LONG.replace(" ", "  ", 1),
            7: LONG[:60] + " (2)",
            8: "Marsh",
        }
        assert text_units(names[7]) <= NAME_MAX
        for row in rows:
            assert (row["name_key"], row["search_key"], row["sort_key"]) == name_columns(row["name"])
            stored = await storage.characters.get(row["guild_id"], row["id"])
            assert stored.name == row["name"]  # the sheet carries the new name too
            if row["id"] in (1, 3, 5, 6):
                assert row["document"] == documents[row["id"]]  # untouched, byte for byte
        assert await storage.characters.get_by_name(1, "vin venture") == await storage.characters.get(1, 1)
        with pytest.raises(AlreadyExistsError):
            await storage.characters.create(1, Character(name="VIN VENTURE", kind="hero", owner_id=1))


async def test_names_clashing_inside_a_sheet_are_numbered_so_it_still_loads(db_path: Path) -> None:
    await old_file(db_path)
    async with await Storage.open(db_path) as storage:
        marsh = (await storage.characters.get(1, 8)).character
    assert [b.name for b in marsh.burdens] == ["Fire", "Ｆｉｒｅ (2)"]
    assert [p.name for p in marsh.powers] == ["Glow", "Ｇｌｏｗ (2)", "Ｗｉｔｓ (2)", "Steel"]
    assert [p.rating for p in marsh.powers] == [2, 3, 1, 4]


async def test_the_new_order_has_its_indexes(db_path: Path) -> None:
    await old_file(db_path)
    async with await Storage.open(db_path) as storage:
        reader = storage.sqlite.reader
        indexes = await fetch_all(reader, "SELECT name, sql FROM sqlite_master WHERE type = 'index'")
        sql = {row["name"]: row["sql"] for row in indexes}
        assert "(guild_id, sort_key, search_key)" in sql["characters_by_sort_key"]
        assert "(guild_id, owner_id, sort_key, search_key)" in sql["characters_by_owner"]
        listed = [c.name for c in await storage.characters.list_by_guild(1)]
        assert listed[:4] == [LONG[:60] + " (2)", "Lestibournes  " + "x" * 50, "Marsh", "Vin Venture"]
