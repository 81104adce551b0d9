-- 21: the table's memory (storage.journal). A session is a Narrator's night in one channel, from
-- started_at to ended_at (NULL: still open; at most one open per channel). The journal holds
-- one row per thing that happened at a table (a roll, a Contest, a request, a Conflict's
-- round, end and blows, a change to a sheet), written in the same transaction as the change
-- it tells; a session's events are the channel's rows between its start and end. Each row's
-- document keeps the names as they were, so a deleted character's story stays readable.

CREATE TABLE table_sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    title       TEXT    NOT NULL,
    started_by  INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    ended_at    TEXT,
    ended_how   TEXT CHECK (ended_how IN ('narrator', 'quiet'))
);
CREATE UNIQUE INDEX table_sessions_open ON table_sessions (guild_id, channel_id) WHERE ended_at IS NULL;
CREATE INDEX table_sessions_by_channel ON table_sessions (guild_id, channel_id, started_at);
CREATE INDEX table_sessions_by_age ON table_sessions (started_at);
CREATE TABLE journal (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    at            TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    character_id  INTEGER,
    document      TEXT    NOT NULL
);
CREATE INDEX journal_by_channel ON journal (guild_id, channel_id, at);
CREATE INDEX journal_by_character ON journal (guild_id, character_id, id) WHERE character_id IS NOT NULL;
CREATE INDEX journal_by_time ON journal (at);
