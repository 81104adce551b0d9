-- 10: Heroes in the making (docs/rulings.md §6.10), one per member per server, kept apart from
-- the characters so no list, search or Conflict finds them (storage.drafts). updated_at is indexed
-- for removing drafts left unused for a week. AUTOINCREMENT: a button of a cancelled draft must
-- never reach a newer one.

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
