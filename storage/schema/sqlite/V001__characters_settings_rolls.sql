-- 1: characters, guild settings, active characters, roll log.
-- Ids that other rows or in-memory copies refer to are AUTOINCREMENT, so never reused: a stale
-- copy of a deleted row must not match a new row that took its id.

CREATE TABLE characters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    owner_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL,
    UNIQUE (guild_id, name_key),
    UNIQUE (guild_id, id)
);
CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, name_key);

CREATE TABLE guild_settings (
    guild_id           INTEGER PRIMARY KEY,
    narrator_role_ids  TEXT    NOT NULL,
    gm_channel_id      INTEGER
);

CREATE TABLE active_characters (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, character_id)
        REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
CREATE INDEX active_characters_by_character ON active_characters (guild_id, character_id);

CREATE TABLE roll_log (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    at           TEXT    NOT NULL,
    label        TEXT    NOT NULL,
    dice         INTEGER NOT NULL,
    free_nudges  INTEGER NOT NULL,
    underflow    INTEGER NOT NULL,
    difficulty   INTEGER NOT NULL,
    faces        TEXT    NOT NULL,
    result       INTEGER NOT NULL,
    outcome      INTEGER NOT NULL,
    success      INTEGER NOT NULL CHECK (success IN (0, 1)),
    ones         INTEGER NOT NULL,
    twos         INTEGER NOT NULL,
    threes       INTEGER NOT NULL,
    fours        INTEGER NOT NULL,
    fives        INTEGER NOT NULL,
    sixes        INTEGER NOT NULL
);
CREATE INDEX roll_log_by_guild ON roll_log (guild_id, id);
CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id, id);
