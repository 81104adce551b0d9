-- 32 (PostgreSQL 20): a Conflict's record for an undo (docs/rulings.md §4.24,
-- storage.conflict_undo) is a column of its own row, written by the very UPDATE that saves the
-- move: one statement fewer per move, and the record goes with the row when the Conflict ends.
-- The records of migration 31 move there as they are (each one's JSON, as the bot writes it).
ALTER TABLE conflicts ADD COLUMN undo TEXT;
UPDATE conflicts SET undo = (
    SELECT json_object('conflict_id', u.conflict_id, 'version', u.version, 'mover_id', u.mover_id,
                       'made_at', u.made_at, 'what', u.what, 'document', u.document, 'sheets', u.sheets)
    FROM conflict_undo AS u WHERE u.conflict_id = conflicts.id);
DROP TABLE conflict_undo;
