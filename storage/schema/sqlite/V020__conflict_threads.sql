-- 20: a server may run each Conflict in a thread of its own (storage.settings, /setup
-- conflict-threads). Off for every server until a Narrator turns it on.

ALTER TABLE guild_settings ADD COLUMN conflict_threads INTEGER NOT NULL DEFAULT 0 CHECK (conflict_threads IN (0, 1));
