"""Migration 7: Heroes in the making (docs/rulings.md §6.10), read and written by ``storage.drafts``.

One draft per member per server (``UNIQUE (guild_id, user_id)``), in a table of its own so that
no list, search or Conflict finds it; ``updated_at`` is indexed for removing the drafts left
unused for a week. Kept apart from ``storage.drafts`` so the migrations need no repository.
"""

SCHEMA = """
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
"""
"""AUTOINCREMENT: a button of a cancelled draft must never reach a newer one."""
