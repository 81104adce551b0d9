-- 6: secrecy (docs/rulings.md §7): secret rolls (roll_log.secret, every older roll public),
-- revealed sheets (a column beside the sheet: the table's choice, not the character's), the
-- table-dice setting (off by default), and an index of who is in which live Conflict, kept in step
-- with each save by the conflict repository. Then the Python step
-- storage.conflict_participants.index_live_conflicts indexes the Conflicts already running.

ALTER TABLE roll_log ADD COLUMN secret INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1));
ALTER TABLE characters ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN table_dice INTEGER NOT NULL DEFAULT 0 CHECK (table_dice IN (0, 1));
CREATE TABLE conflict_participants (
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id, channel_id),
    FOREIGN KEY (guild_id, channel_id)
        REFERENCES conflicts (guild_id, channel_id) ON DELETE CASCADE
);
CREATE INDEX conflict_participants_by_channel ON conflict_participants (guild_id, channel_id);
