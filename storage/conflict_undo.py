"""What a Conflict move changed, as it was before (migration 31; PostgreSQL 19), so its mover may
take it back (docs/rulings.md §4.24).

A move writes its :class:`UndoRecord` in its own data operation (``storage.moves``): the
Conflict's document and every sheet it changed as they were before, and the version the move
wrote. One row per Conflict, the last move's, replaced by the next; a record whose version is no
longer the Conflict's (another move came, or it was taken back) is stale and refused, so nothing
ever deletes it while the Conflict runs.
"""

import json
from dataclasses import dataclass
from datetime import datetime

from storage.session import Session
from storage.sql import Connection, execute, fetch_one, from_text, to_text


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

    def sheets_json(self) -> str:
        return json.dumps([{"id": s.id, "version": s.version, "document": s.document} for s in self.sheets])

    def params(self) -> tuple[object, ...]:
        return (
            self.conflict_id,
            self.version,
            self.mover_id,
            to_text(self.made_at),
            self.what,
            self.document,
            self.sheets_json(),
        )


COLUMNS = ("conflict_id", "version", "mover_id", "made_at", "what", "document", "sheets")
UPSERT = (
    f"INSERT INTO conflict_undo ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
    " ON CONFLICT (conflict_id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:])
)
UPSERT_FROM_JSON = (
    f"undo AS (INSERT INTO conflict_undo ({', '.join(COLUMNS)})"
    f" SELECT {', '.join(COLUMNS)} FROM jsonb_to_record(?::jsonb) AS u(conflict_id bigint, version integer,"
    " mover_id bigint, made_at text, what text, document text, sheets text)"
    " ON CONFLICT (conflict_id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in COLUMNS[1:]) + ")"
)
"""The record as a data-modifying WITH beside ``apply_move`` (``storage.moves``): one statement."""


FORGET = "DELETE FROM conflict_undo WHERE conflict_id = ?"
FORGET_WITH = f"forgot AS ({FORGET})"
"""A Conflict's record dropped with the move that ends it (``storage.moves``)."""


def record_json(record: UndoRecord) -> str:
    return json.dumps(dict(zip(COLUMNS, record.params(), strict=True)), ensure_ascii=False)


async def save(conn: Connection, record: UndoRecord) -> None:
    """Keep ``record`` as its Conflict's last move (SQLite's writer, inside the move's savepoint)."""
    await execute(conn, UPSERT, record.params())


_GET = f"SELECT {', '.join(COLUMNS)} FROM conflict_undo WHERE conflict_id = ?"


class UndoRepository:
    """Reads a Conflict's last move's record."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def get(self, conflict_id: int) -> UndoRecord | None:
        row = await fetch_one(self._session.reader, _GET, (conflict_id,))
        if row is None:
            return None
        sheets = tuple(
            SheetBefore(int(s["id"]), int(s["version"]), str(s["document"]))
            for s in json.loads(row["sheets"])
        )
        return UndoRecord(
            conflict_id=int(row["conflict_id"]),
            version=int(row["version"]),
            mover_id=int(row["mover_id"]),
            made_at=from_text(str(row["made_at"])),
            what=str(row["what"]),
            document=str(row["document"]),
            sheets=sheets,
        )
