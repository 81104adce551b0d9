-- The shape a fresh SQLite database reaches after every numbered migration beside this
-- file, as its catalogue says it. For reading only, never applied: rewritten by
-- `python -m tests.storage.schema_shape`, checked by tests/storage/test_schema.py.

CREATE TABLE active_characters (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, character_id)
        REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE INDEX active_characters_by_character ON active_characters (guild_id, character_id);

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

CREATE TABLE award_proposals (
    session_id    INTEGER NOT NULL REFERENCES table_sessions (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (session_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE breather_calls (
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    resting       INTEGER NOT NULL,
    called_by     INTEGER NOT NULL, call_id INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, character_id)
);

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

CREATE TABLE characters (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    owner_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL, search_key TEXT NOT NULL DEFAULT '', sort_key TEXT NOT NULL DEFAULT '', revealed INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1)), format_version INTEGER NOT NULL DEFAULT 1,
    UNIQUE (guild_id, name_key),
    UNIQUE (guild_id, id)
);

CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, sort_key, search_key);

CREATE INDEX characters_by_sort_key ON characters (guild_id, sort_key, search_key);

CREATE TABLE conflict_boards (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER NOT NULL, conflict_id INTEGER, rendered_version INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, channel_id)
);

CREATE TABLE conflict_participants (
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id, channel_id),
    FOREIGN KEY (guild_id, channel_id)
        REFERENCES conflicts (guild_id, channel_id) ON DELETE CASCADE
);

CREATE INDEX conflict_participants_by_channel ON conflict_participants (guild_id, channel_id);

CREATE TABLE conflicts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL, undo TEXT,
    UNIQUE (guild_id, channel_id)
);

CREATE TABLE guild_settings (
    guild_id           INTEGER PRIMARY KEY,
    narrator_role_ids  TEXT    NOT NULL,
    gm_channel_id      INTEGER
, table_dice INTEGER NOT NULL DEFAULT 0 CHECK (table_dice IN (0, 1)), conflict_threads INTEGER NOT NULL DEFAULT 0 CHECK (conflict_threads IN (0, 1)), players_spend INTEGER NOT NULL DEFAULT 0 CHECK (players_spend IN (0, 1)));

CREATE TABLE handled_interactions (
    interaction_id INTEGER PRIMARY KEY,
    handled_at TEXT NOT NULL
);

CREATE TABLE hero_drafts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    updated_at  TEXT    NOT NULL,
    document    TEXT    NOT NULL,
    UNIQUE (guild_id, user_id)
);

CREATE INDEX hero_drafts_by_age ON hero_drafts (updated_at);

CREATE TABLE identify_buckets (
    bucket      INTEGER PRIMARY KEY,
    identified  REAL    NOT NULL
);

CREATE TABLE journal (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    at            TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    character_id  INTEGER,
    document      TEXT    NOT NULL
, private_thread_id INTEGER, actor_id INTEGER);

CREATE INDEX journal_by_channel ON journal (guild_id, channel_id, at);

CREATE INDEX journal_by_character ON journal (guild_id, character_id, id) WHERE character_id IS NOT NULL;

CREATE INDEX journal_private_threads ON journal (guild_id, actor_id, private_thread_id)
    WHERE private_thread_id IS NOT NULL;

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

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    conflict_id     INTEGER,
    action_id       INTEGER,
    kind            TEXT    NOT NULL CHECK (kind IN ('outcome', 'prompt', 'notice')),
    payload         TEXT    NOT NULL,
    interaction_id  INTEGER,
    created_at      TEXT    NOT NULL,
    attempted_at    TEXT,
    delivered_at    TEXT,
    message_id      INTEGER,
    failure         TEXT
, prompt_key TEXT);

CREATE UNIQUE INDEX outbox_answering ON outbox (interaction_id) WHERE interaction_id IS NOT NULL;

CREATE INDEX outbox_asking ON outbox (conflict_id, prompt_key, id) WHERE prompt_key IS NOT NULL;

CREATE INDEX outbox_by_message ON outbox (message_id) WHERE message_id IS NOT NULL;

CREATE INDEX outbox_prompts ON outbox (conflict_id, action_id, id) WHERE action_id IS NOT NULL;

CREATE INDEX outbox_waiting ON outbox (guild_id, channel_id, id) WHERE delivered_at IS NULL;

CREATE TABLE pruned_roll_totals (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    secret     INTEGER NOT NULL,
    rolls      INTEGER NOT NULL,
    successes  INTEGER NOT NULL,
    ones       INTEGER NOT NULL,
    twos       INTEGER NOT NULL,
    threes     INTEGER NOT NULL,
    fours      INTEGER NOT NULL,
    fives      INTEGER NOT NULL,
    sixes      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, secret)
);

CREATE TABLE refused_channels (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    refused_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);

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
, secret INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1)), channel_id INTEGER, private_thread_id INTEGER);

CREATE INDEX roll_log_by_guild ON roll_log (guild_id, id);

CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id, id);

CREATE TABLE roll_request_rollers (
    request_id    INTEGER NOT NULL REFERENCES roll_requests (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    side          TEXT    NOT NULL CHECK (side IN ('acting', 'opposing')),
    character_id  INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    reading       TEXT,
    rolled_by     INTEGER,
    PRIMARY KEY (request_id, position)
);

CREATE TABLE roll_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    narrator_id  INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('roll', 'contest')),
    spec         TEXT    NOT NULL,
    outbox_id    INTEGER,
    closed       INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
    created_at   TEXT    NOT NULL
);

CREATE INDEX roll_requests_by_age ON roll_requests (created_at);

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

CREATE TABLE scene_circumstances (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    net         INTEGER NOT NULL CHECK (net BETWEEN -1 AND 1),
    note        TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
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

CREATE INDEX secret_reveals_by_character ON secret_reveals (guild_id, character_id) WHERE character_id IS NOT NULL;

CREATE INDEX secret_reveals_by_secret ON secret_reveals (guild_id, secret_id);

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

CREATE TABLE session_awards (
    session_id    INTEGER NOT NULL REFERENCES table_sessions (id) ON DELETE CASCADE,
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    amount        INTEGER NOT NULL CHECK (amount > 0),
    PRIMARY KEY (session_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE table_sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    title       TEXT    NOT NULL,
    started_by  INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    ended_at    TEXT,
    ended_how   TEXT CHECK (ended_how IN ('narrator', 'quiet'))
);

CREATE INDEX table_sessions_by_age ON table_sessions (started_at);

CREATE INDEX table_sessions_by_channel ON table_sessions (guild_id, channel_id, started_at);

CREATE UNIQUE INDEX table_sessions_open ON table_sessions (guild_id, channel_id) WHERE ended_at IS NULL;

CREATE TABLE time_polls (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER NOT NULL,
    title        TEXT    NOT NULL,
    starts       TEXT    NOT NULL,
    zone         TEXT    NOT NULL,
    closes_at    TEXT    NOT NULL,
    state        TEXT    NOT NULL CHECK (state IN ('open', 'closing', 'tied', 'done')),
    UNIQUE (guild_id, message_id)
);

CREATE INDEX time_polls_open ON time_polls (state, closes_at);

CREATE TABLE true_destinies (
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    text          TEXT    NOT NULL,
    set_by        INTEGER NOT NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, character_id),
    FOREIGN KEY (guild_id, character_id) REFERENCES characters (guild_id, id) ON DELETE CASCADE
);

CREATE TABLE web_link_uses (
    nonce       TEXT NOT NULL PRIMARY KEY,
    expires_at  TEXT NOT NULL
);

CREATE TABLE web_members (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    generation  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE web_secrets (
    name   TEXT NOT NULL PRIMARY KEY,
    value  TEXT NOT NULL
);
