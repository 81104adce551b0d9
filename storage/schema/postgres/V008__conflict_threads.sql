-- 8 (SQLite 20): a server may run each Conflict in a thread of its own (storage.settings).

ALTER TABLE guild_settings ADD COLUMN conflict_threads INTEGER NOT NULL DEFAULT 0 CHECK (conflict_threads IN (0, 1));
