-- 29 (PostgreSQL 17): a campaign across nights (docs/rulings.md §10). A Hero's ledger and subplots'
-- stages live in the sheet's document; these tables hold what is not the sheet's:
-- * guild_settings.players_spend: players spend Advancements without a Narrator's approval;
-- * award_proposals: the awards a Narrator sets on /session end's panel, until the session ends;
-- * advancement_spends: a player's spend waiting for a Narrator's approval;
-- * true_destinies: the Narrator's true Destiny of a character, never part of the sheet;
-- * secrets and secret_reveals: the Narrator's Secrets, and whom each was told (a Hero, or the
--   table when character_id is NULL);
-- * opposition_templates: the Narrator's own Villains and Extras, saved to make again.

ALTER TABLE guild_settings ADD COLUMN players_spend INTEGER NOT NULL DEFAULT 0 CHECK (players_spend IN (0, 1));

CREATE TABLE award_proposals (
    session_id    INTEGER NOT NULL REFERENCES table_sessions (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (session_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE advancement_spends (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    requested_by  INTEGER NOT NULL,
    purchase      TEXT    NOT NULL,
    created_at    TEXT    NOT NULL,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
CREATE INDEX advancement_spends_by_character ON advancement_spends (guild_id, character_id);

CREATE TABLE true_destinies (
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    text          TEXT    NOT NULL,
    set_by        INTEGER NOT NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE secrets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    title_key   TEXT    NOT NULL,
    document    TEXT    NOT NULL,
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, title_key),
    UNIQUE (guild_id, id)
);

CREATE TABLE secret_reveals (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    secret_id     INTEGER NOT NULL,
    character_id  INTEGER,
    channel_id    INTEGER NOT NULL,
    revealed_by   INTEGER NOT NULL,
    revealed_at   TEXT    NOT NULL,
    FOREIGN KEY (guild_id, secret_id) REFERENCES secrets (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);
CREATE INDEX secret_reveals_by_secret ON secret_reveals (guild_id, secret_id);
CREATE INDEX secret_reveals_by_character ON secret_reveals (guild_id, character_id) WHERE character_id IS NOT NULL;

CREATE TABLE opposition_templates (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    name_key        TEXT    NOT NULL,
    document        TEXT    NOT NULL,
    format_version  INTEGER NOT NULL,
    portrait        BLOB,
    media_type      TEXT,
    saved_by        INTEGER NOT NULL,
    updated_at      TEXT    NOT NULL,
    UNIQUE (guild_id, name_key)
);
