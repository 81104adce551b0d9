-- 3: the message that shows each channel's Conflict board, so a restart edits it again.

CREATE TABLE conflict_boards (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
