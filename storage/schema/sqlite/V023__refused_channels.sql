-- 23: channels where Discord refused the bot (403: it lost access), so the background work
-- (boards, queued messages, catching up) leaves them alone across restarts until an
-- interaction there shows the bot may post again (storage.refused, bot.workers.refusals).

CREATE TABLE refused_channels (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    refused_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
