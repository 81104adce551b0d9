-- 2: one live Conflict per channel, as an opaque JSON document with a version.

CREATE TABLE conflicts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL,
    UNIQUE (guild_id, channel_id)
);
