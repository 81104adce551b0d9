-- 13 (SQLite 25): each Breather call has its id (the interaction that called it; 0 for a call
-- made before), so a Hero's button names the call it was posted with and a stale one, whose
-- call the Narrator replaced, is refused rather than taking the newer call (docs/rulings.md §5.12).
ALTER TABLE breather_calls ADD COLUMN call_id bigint NOT NULL DEFAULT 0;
