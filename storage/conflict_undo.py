"""What a Conflict move changed, as it was before, so its mover may take it back
(docs/rulings.md §4.24).

A move writes its :class:`UndoRecord` as JSON in its Conflict's own row, the ``undo`` column
(SQLite migration 32, PostgreSQL 20), by the same UPDATE that saves the move's document
(``storage.conflicts.document_update``; PostgreSQL's ``apply_move``): the Conflict's document
and every sheet it changed as they were before, and the version the move wrote. One per
Conflict, the last move's, replaced by the next (a move nobody may take back writes NULL) and
gone with the row when the Conflict ends; a record whose version is no longer the Conflict's
(another change came, or it was taken back) is stale and refused.

The document before is most often kept without its log (:attr:`UndoRecord.log_kept`): the move
only added to the log, so the log the move wrote, cut back, is the one it had, and a long
fight's log (most of its document) is not written twice by every move. A full log's oldest
entries, pushed out by the move's, are the only ones kept with it.
"""

import json
from dataclasses import dataclass, replace
from datetime import datetime

import orjson

from rules.conflict import Conflict, with_log_of, without_log
from storage.session import Session
from storage.sql import fetch_one, from_text, to_text

CUT_KEYS = {False: "document_without_log", True: "document_with_oldest_log"}
"""Where a document kept without its log goes, by whether it still holds the oldest entries."""


@dataclass(frozen=True)
class SheetBefore:
    """A sheet the move changed: the version the move wrote, and its document before."""

    id: int
    version: int
    document: str


@dataclass(frozen=True)
class UndoRecord:
    """The last move of a Conflict, and what it changed as it was before."""

    conflict_id: int
    version: int
    """The Conflict's version the move wrote: the record holds only while it still is."""
    mover_id: int
    made_at: datetime
    what: str
    """The move's title, as the table saw it ("Acted", "Declared"…)."""
    document: str
    sheets: tuple[SheetBefore, ...]
    log_kept: int | None = None
    """When set, ``document`` is kept without most of its log (``rules.conflict.without_log``):
    its log is the entries it still holds (those the move pushed out of a full log, else none),
    then the first ``log_kept`` entries of the log in the document the move wrote, which is the
    Conflict's own while the record holds; :meth:`UndoRepository.get` puts it back."""
    pushed_out: bool = False
    """Whether ``document``, kept without its log, still holds the oldest entries of it (those
    the move pushed out of a full log)."""


def kept_without_log(record: UndoRecord, before: Conflict, after: Conflict) -> UndoRecord:
    """``record``, holding the whole document from before the move (``before`` parsed), kept
    without the part of its log that ``after``, the state the move wrote, still holds
    (``rules.conflict.without_log``); as it is when that log cannot be cut."""
    cut = without_log(record.document, before, after)
    if cut is None:
        return record
    return replace(record, document=cut.document, log_kept=cut.taken, pushed_out=cut.pushed_out)


def record_json(record: UndoRecord) -> str:
    """The record as its Conflict's row keeps it (the ``undo`` column): compact JSON by orjson,
    since every move that may be taken back writes one holding the whole document as a string
    (``json`` took about 100 µs of a defence click escaping it; only :func:`from_json` reads it).
    The sheets are an array in it: written as a string of their own (as records before issue 40
    were, and :func:`from_json` still reads), each sheet's document was escaped twice.
    A document kept without its log goes under a key of its own, so a bot from before it cannot
    take it for the whole document; one still holding a full log's oldest entries under another,
    so a bot from before that cannot restore a log without them."""
    key = CUT_KEYS[record.pushed_out]
    document = (
        {"document": record.document}
        if record.log_kept is None
        else {key: record.document, "log_kept": record.log_kept}
    )
    return orjson.dumps(
        {
            "conflict_id": record.conflict_id,
            "version": record.version,
            "mover_id": record.mover_id,
            "made_at": to_text(record.made_at),
            "what": record.what,
            **document,
            "sheets": [{"id": s.id, "version": s.version, "document": s.document} for s in record.sheets],
        }
    ).decode()


def from_json(text: str) -> UndoRecord:
    row = json.loads(text)
    listed = row["sheets"]
    if isinstance(listed, str):  # a record written before issue 40: the array as a string
        listed = json.loads(listed)
    sheets = tuple(SheetBefore(int(s["id"]), int(s["version"]), str(s["document"])) for s in listed)
    kept = row.get("log_kept")
    pushed_out = CUT_KEYS[True] in row
    return UndoRecord(
        conflict_id=int(row["conflict_id"]),
        version=int(row["version"]),
        mover_id=int(row["mover_id"]),
        made_at=from_text(str(row["made_at"])),
        what=str(row["what"]),
        document=str(row["document"] if kept is None else row[CUT_KEYS[pushed_out]]),
        sheets=sheets,
        log_kept=None if kept is None else int(kept),
        pushed_out=pushed_out,
    )


_GET = "SELECT undo, document, version FROM conflicts WHERE id = ?"


class UndoRepository:
    """Reads a Conflict's last move's record."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, conflict_id: int) -> UndoRecord | None:
        row = await fetch_one(self._session.reader, _GET, (conflict_id,))
        if row is None or row["undo"] is None:
            return None
        record = from_json(str(row["undo"]))
        if record.log_kept is None or int(row["version"]) != record.version:
            return record  # whole already, or stale (refused as such: the move is no longer the last)
        whole = with_log_of(record.document, str(row["document"]), record.log_kept)
        return replace(record, document=whole, log_kept=None, pushed_out=False)
