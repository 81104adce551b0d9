-- 19 (SQLite 31): what a Conflict move changed, as it was before, so its mover may take it
-- back while nobody else has moved (docs/rulings.md §4.24, storage.conflict_undo). One row per
-- Conflict, the last move's, written in the move's own statement; ``version`` is the one the
-- move wrote, so a later move (or the undo itself) makes the row stale without touching it.
CREATE TABLE conflict_undo (
    conflict_id bigint NOT NULL PRIMARY KEY,
    version integer NOT NULL,
    mover_id bigint NOT NULL,
    made_at text NOT NULL,
    what text NOT NULL,
    document text NOT NULL,
    sheets text NOT NULL
);
