"""A move's record for an undo as its Conflict's row keeps it, and a sheet saved with its name
kept (a Conflict move's damage), on both backends."""

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from rules.character import Character, CharacterKind, revise_character
from rules.conflict import dump_conflict, without_log
from rules.conflict.state import MAX_LOG
from storage import Storage
from storage.conflict_undo import SheetBefore, UndoRecord, from_json, record_json
from tests.rules.conflict.test_document import a_conflict, log_entry

RECORD = UndoRecord(
    conflict_id=7,
    version=12,
    mover_id=42,
    made_at=datetime(2026, 12, 2, 17, 0, 0, 123456, tzinfo=UTC),
    what="Defended",
    document='{"stakes":"Out of the \\"alley\\" — Luthadel","log":[]}',
    sheets=(
        SheetBefore(3, 5, '{"name":"Vin","notes":"a \\"quoted\\" line\\nand ‘more’"}'),
        SheetBefore(9, 2, '{"name":"Thug"}'),
    ),
)


def _written_before(record: UndoRecord) -> str:
    """A record as moves wrote it before issue 40: its sheets an array inside a JSON string."""
    sheets = json.dumps([{"id": s.id, "version": s.version, "document": s.document} for s in record.sheets])
    return json.dumps(
        {
            "conflict_id": record.conflict_id,
            "version": record.version,
            "mover_id": record.mover_id,
            "made_at": record.made_at.isoformat(timespec="microseconds"),
            "what": record.what,
            "document": record.document,
            "sheets": sheets,
        }
    )


NO_SHEET = UndoRecord(**{**vars(RECORD), "sheets": ()})
WITHOUT_LOG = UndoRecord(**{**vars(RECORD), "log_kept": 4})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (record_json(RECORD), RECORD),
        (_written_before(RECORD), RECORD),
        (record_json(NO_SHEET), NO_SHEET),
        (record_json(WITHOUT_LOG), WITHOUT_LOG),
    ],
    ids=["as written now", "as written before", "no sheet changed", "its document without the log"],
)
def test_an_undo_record_reads_back_exactly(text: str, expected: UndoRecord) -> None:
    assert from_json(text) == expected


def test_each_sheet_document_is_escaped_once() -> None:
    stored = json.loads(record_json(RECORD))
    assert [s["document"] for s in stored["sheets"]] == [s.document for s in RECORD.sheets]


async def test_a_sheet_saved_with_its_name_kept_is_still_found_by_it(storage: Storage) -> None:
    vin = await storage.characters.create(1, Character(name="Vin", kind=CharacterKind.HERO, owner_id=1))
    wounded = revise_character(vin.character, notes="took a blow")
    [saved] = await storage.characters.update_many(1, [(vin, wounded)])
    assert (saved.version, saved.character) == (2, wounded)
    assert await storage.characters.get_by_name(1, "vin") == saved
    assert [s.name for s in await storage.characters.search(1, "vi", owner_id=1)] == ["Vin"]
    assert [s.name for s in await storage.characters.list_by_guild(1, owner_id=1)] == ["Vin"]
    renamed = revise_character(wounded, name="Valette")
    [again] = await storage.characters.update_many(1, [(saved, renamed)])
    assert await storage.characters.get_by_name(1, "valette") == again
    assert await storage.characters.named(1, "vin") is None


def test_a_document_without_its_log_is_never_read_as_the_whole_one() -> None:
    """A bot from before it reads ``document``: it finds none, rather than a Conflict with no log;
    nor does one from before a full log's oldest entries were kept find ``document_without_log``."""
    assert "document" not in json.loads(record_json(WITHOUT_LOG))
    holding = json.loads(record_json(replace(WITHOUT_LOG, pushed_out=True)))
    assert "document" not in holding and "document_without_log" not in holding


@pytest.mark.parametrize("size", [3, MAX_LOG])
async def test_a_record_kept_without_the_log_is_read_back_whole(storage: Storage, size: int) -> None:
    """``MAX_LOG``: the move's entry pushed the oldest out, which only the record still holds."""
    before = a_conflict("The bridge", tuple(log_entry(n) for n in range(size)))
    after = before.with_log(log_entry(9, name="Kelsier"))
    document = dump_conflict(before)
    stored = await storage.conflicts.create(1, 5, document)
    cut = without_log(document, before, after)
    assert cut is not None
    record = replace(
        RECORD,
        conflict_id=stored.id,
        version=2,
        document=cut.document,
        sheets=(),
        log_kept=cut.taken,
        pushed_out=cut.pushed_out,
    )
    assert cut.pushed_out is (size == MAX_LOG)
    assert from_json(record_json(record)) == record
    saved = await storage.conflicts.save(
        1, stored, dump_conflict(after), participants=None, undo=record_json(record)
    )
    assert await storage.undo.get(stored.id) == replace(
        record, document=document, log_kept=None, pushed_out=False
    )
    # Once another change came, the record is stale as it is (and refused as such by its version).
    await storage.conflicts.save(
        1, saved, dump_conflict(after.with_log(log_entry(10))), participants=None, undo=record_json(record)
    )
    assert await storage.undo.get(stored.id) == record
