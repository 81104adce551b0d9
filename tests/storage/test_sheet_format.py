"""Stored sheets carry their format; an older one is upgraded on read and at start, never misread.

The upgrade path is tried with a fake next format: it "moves" each sheet's notes under a new
heading (a change the current model can still read, so the test can see the step ran exactly
once). The real step from format 1 (Savants, Blessings and spikes in words) is
``tests/storage/test_sheet_upgrade.py``.
"""

from pathlib import Path
from typing import Any

import pytest

from rules.character import Character, CharacterKind
from storage import SchemaVersionError, Storage, sheet_format
from storage.sql import fetch_all

VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1, notes="Skaa")
ELEND = Character(name="Elend", kind=CharacterKind.HERO, owner_id=2)


NOW = sheet_format.SHEET_FORMAT
NEXT = NOW + 1


def to_next(data: dict[str, Any]) -> dict[str, Any]:
    return data | {"notes": f"[moved] {data.get('notes', '')}".strip()}


@pytest.fixture
def next_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if the next version of the bot wrote sheets in the next format, with the step to it."""
    monkeypatch.setattr(sheet_format, "SHEET_FORMAT", NEXT)
    monkeypatch.setattr(sheet_format, "UPGRADES", {**sheet_format.UPGRADES, NOW: to_next})


async def formats(storage: Storage) -> dict[str, tuple[int, str]]:
    rows = await fetch_all(storage.database.reader, "SELECT name, format_version, document FROM characters")
    return {row["name"]: (row["format_version"], row["document"]) for row in rows}


async def test_a_sheet_in_the_current_format_is_read_as_stored(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    assert (await formats(storage))["Vin"] == (NOW, VIN.model_dump_json())
    assert (await storage.characters.get(1, vin.id)).character == VIN
    document = VIN.model_dump_json()
    assert sheet_format.current_document(document, NOW) is document


async def test_an_old_sheet_is_upgraded_on_read_and_rewritten_at_start(
    db_path: Path, next_format: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as old_bot:  # the previous bot writes today's format
        old_bot.setattr(sheet_format, "SHEET_FORMAT", NOW)
        async with await Storage.open(db_path) as storage:
            vin = await storage.characters.create(1, VIN)
            assert (await formats(storage))["Vin"][0] == NOW
    async with await Storage.open(db_path) as storage:  # the new bot: upgraded at start
        stored = await formats(storage)
        assert stored["Vin"][0] == NEXT and "[moved] Skaa" in stored["Vin"][1]
        read = await storage.characters.get(1, vin.id)
        assert read.character.notes == "[moved] Skaa" and read.version == vin.version
        elend = await storage.characters.create(1, ELEND)
        assert (await formats(storage))["Elend"][0] == NEXT
        assert (await storage.characters.get(1, elend.id)).character == ELEND  # never upgraded twice


async def test_an_old_row_read_before_the_start_upgrade_is_upgraded_too(
    storage: Storage, next_format: None
) -> None:
    """A sheet written in format 1 behind the bot's back (another, older process) reads upgraded."""
    async with storage.database.transaction() as conn:
        await conn.execute(
            "INSERT INTO characters (guild_id, name, name_key, search_key, sort_key, owner_id, kind,"
            " version, updated_at, document, format_version)"
            " VALUES (1, 'Vin', 'vin', 'vin', 'vin', 1, 'hero', 1, '2024-01-01T00:00:00.000000+00:00', ?, 1)",
            (VIN.model_dump_json(),),
        )
    [vin] = await storage.characters.list_by_guild(1)
    assert vin.character.notes == "[moved] Skaa"


async def test_a_sheet_from_a_newer_bot_is_refused_plainly(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as newer_bot:
        newer_bot.setattr(sheet_format, "SHEET_FORMAT", NEXT)
        async with await Storage.open(db_path) as storage:
            vin = await storage.characters.create(1, VIN)
    async with await Storage.open(db_path) as storage:
        with pytest.raises(SchemaVersionError, match="newer version of the bot"):
            await storage.characters.get(1, vin.id)


async def test_a_missing_step_is_refused(next_format: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheet_format, "UPGRADES", {})
    with pytest.raises(SchemaVersionError, match="No upgrade is known from sheet format 1 to 2"):
        sheet_format.current_document(VIN.model_dump_json(), 1)


async def test_sheets_are_loaded_and_saved_many_at_once(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    assert await storage.characters.get_many(1, [elend.id, vin.id, 999]) == {vin.id: vin, elend.id: elend}
    assert await storage.characters.get_many(2, [vin.id]) == {}
    assert await storage.characters.get_many(1, []) == {}
    saved = await storage.characters.update_many(
        1, [(vin, VIN.model_copy(update={"notes": "a"})), (elend, ELEND.model_copy(update={"notes": "b"}))]
    )
    assert [(s.version, s.character.notes) for s in saved] == [(2, "a"), (2, "b")]
    assert await storage.characters.get_many(1, [vin.id, elend.id]) == {s.id: s for s in saved}
