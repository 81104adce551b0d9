-- 11: the Narrator's requests for rolls and who has rolled (docs/rulings.md §6.13,
-- storage.requests). outbox_id is the outbox row that shows the request, so the message's id comes
-- from wherever that row was delivered. A roller's reading is set once, by the one statement that
-- claims the roll. AUTOINCREMENT: a button of a pruned request must never reach a newer one.

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
