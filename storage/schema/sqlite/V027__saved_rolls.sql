-- 27 (PostgreSQL 15): the rolls a player saved for a character, to throw again from
-- `/roll saved:` or the roll panel (docs/rulings.md §6.14, storage.saved_rolls); deleted with
-- their character.

CREATE TABLE saved_rolls (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL,
    stat          TEXT    NOT NULL,
    traits        INTEGER NOT NULL,
    tool          INTEGER NOT NULL,
    modifier      INTEGER NOT NULL,
    difficulty    INTEGER NOT NULL,
    label         TEXT,
    UNIQUE (guild_id, character_id, name_key),
    FOREIGN KEY (guild_id, character_id)
        REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
