-- 7: the outbox (storage.outbox): every message a Conflict move must show, written in the
-- move's own transaction and marked once Discord has it; and which Conflict, at which version,
-- each board last showed, so a restarted bot knows which boards are behind.

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    conflict_id     INTEGER,
    action_id       INTEGER,
    kind            TEXT    NOT NULL CHECK (kind IN ('outcome', 'prompt', 'notice')),
    payload         TEXT    NOT NULL,
    interaction_id  INTEGER,
    created_at      TEXT    NOT NULL,
    attempted_at    TEXT,
    delivered_at    TEXT,
    message_id      INTEGER,
    failure         TEXT
);
CREATE INDEX outbox_waiting ON outbox (guild_id, channel_id, id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_prompts ON outbox (conflict_id, action_id, id) WHERE action_id IS NOT NULL;
CREATE INDEX outbox_by_message ON outbox (message_id) WHERE message_id IS NOT NULL;
ALTER TABLE conflict_boards ADD COLUMN conflict_id INTEGER;
ALTER TABLE conflict_boards ADD COLUMN rendered_version INTEGER NOT NULL DEFAULT 0;
