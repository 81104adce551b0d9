-- 4 (SQLite 16): a channel's Circumstances and the Breathers called but not yet taken
-- (storage.scenes).

CREATE TABLE scene_circumstances (
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    net         INTEGER NOT NULL CHECK (net BETWEEN -1 AND 1),
    note        TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
CREATE TABLE breather_calls (
    guild_id      BIGINT  NOT NULL,
    character_id  BIGINT  NOT NULL,
    kind          TEXT    NOT NULL,
    resting       INTEGER NOT NULL,
    called_by     BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, character_id)
);
