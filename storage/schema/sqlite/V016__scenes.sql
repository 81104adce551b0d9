-- 16: a channel's Circumstances (docs/rulings.md §1.6; no row, none) and the Breathers a
-- Narrator called and a Hero has not taken yet (§5.12; one per Hero, gone once taken),
-- storage.scenes.

CREATE TABLE scene_circumstances (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    net         INTEGER NOT NULL CHECK (net BETWEEN -1 AND 1),
    note        TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
CREATE TABLE breather_calls (
    guild_id      INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    kind          TEXT    NOT NULL,
    resting       INTEGER NOT NULL,
    called_by     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id)
);
