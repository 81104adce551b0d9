-- 19: a character's portrait (storage.portraits): the bot's own small re-encoding of an uploaded
-- image, apart from the sheet so a sheet's row (read on every roll and turn) stays small. The
-- token names the image in its web address (bot.web): random, so the address is unguessable,
-- and new with every portrait, so the address of one image never changes (cached for good).
-- generation counts replacements, for the web view's change mark (storage.web).

CREATE TABLE character_portraits (
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    token         TEXT    NOT NULL,
    media_type    TEXT    NOT NULL,
    image         BLOB    NOT NULL,
    generation    INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id)
        REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
