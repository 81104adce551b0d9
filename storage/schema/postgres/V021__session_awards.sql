-- 21 (SQLite 33): the night's awards given from the panel, one row per session and Hero
-- (docs/rulings.md §10.1, storage.advancements). The panel's button writes the row in the
-- same transaction as the Hero's ledger and journal entry; the key makes a second click (or two
-- at once) find it there and give nothing, so an award is given once a night.
CREATE TABLE session_awards (
    session_id    BIGINT  NOT NULL REFERENCES table_sessions (id) ON DELETE CASCADE,
    guild_id      BIGINT  NOT NULL,
    character_id  BIGINT  NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount > 0),
    PRIMARY KEY (session_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
