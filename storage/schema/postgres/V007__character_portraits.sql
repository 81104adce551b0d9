-- 7 (SQLite 19): a character's portrait, apart from the sheet's row (storage.portraits).

CREATE TABLE character_portraits (
    guild_id      BIGINT NOT NULL,
    character_id  BIGINT NOT NULL,
    token         TEXT   NOT NULL,
    media_type    TEXT   NOT NULL,
    image         BYTEA  NOT NULL,
    generation    INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
