-- 11 (SQLite 23): channels where Discord refused the bot (403: it lost access), left alone by
-- the background work until an interaction there shows the bot may post again (storage.refused).

CREATE TABLE refused_channels (
    guild_id     bigint NOT NULL,
    channel_id   bigint NOT NULL,
    reason       text   NOT NULL,
    refused_at   text   NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
