-- 31 (PostgreSQL 19): what a Conflict move changed, as it was before, so its mover may take it
-- back while nobody else has moved (docs/rulings.md §4.24, storage.conflict_undo). One row per
-- Conflict, the last move's, written in the move's own transaction; ``version`` is the one the
-- move wrote, so a later move (or the undo itself) makes the row stale without touching it.
CREATE TABLE conflict_undo (
    conflict_id INTEGER PRIMARY KEY,
    version     INTEGER NOT NULL,
    mover_id    INTEGER NOT NULL,
    made_at     TEXT    NOT NULL,
    what        TEXT    NOT NULL,
    document    TEXT    NOT NULL,
    sheets      TEXT    NOT NULL
);
