-- 9: the format of each stored sheet, so a later incompatible change to the sheet's JSON can
-- upgrade old documents on read and at start (storage.sheet_format). Every sheet so far is format 1.

ALTER TABLE characters ADD COLUMN format_version INTEGER NOT NULL DEFAULT 1;
