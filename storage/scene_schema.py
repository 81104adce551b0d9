"""Migration 16 (PostgreSQL: 4): what the Narrator set for a scene, read and written by
``storage.scenes``. Kept apart from it so the migrations need no repository.

``scene_circumstances`` holds a channel's Circumstances (docs/rulings.md §1.6); a channel
without a row has none. ``breather_calls`` holds the Breathers a Narrator called and a Hero
has not taken yet (docs/rulings.md §5.12): one per Hero, gone once taken.
"""

SCHEMA = """
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
"""

PG_SCHEMA = """
CREATE TABLE scene_circumstances (
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,
    net         INTEGER NOT NULL CHECK (net BETWEEN -1 AND 1),
    note        TEXT    NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
);
CREATE TABLE breather_calls (
    guild_id      BIGINT  NOT NULL,
    character_id  BIGINT  NOT NULL,
    kind          TEXT    NOT NULL,
    resting       INTEGER NOT NULL,
    called_by     BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, character_id)
);
"""
