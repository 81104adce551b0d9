-- 28 (PostgreSQL 16): a Narrator's poll of times for the next night (docs/rulings.md §6.15,
-- storage.time_polls): the times offered, when Discord closes it, and how far it has got.

CREATE TABLE time_polls (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER NOT NULL,
    title        TEXT    NOT NULL,
    starts       TEXT    NOT NULL,
    zone         TEXT    NOT NULL,
    closes_at    TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('open', 'closing', 'tied', 'done')),
    UNIQUE (guild_id, message_id)
);

CREATE INDEX time_polls_open ON time_polls (state, closes_at);
