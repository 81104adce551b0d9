"""Migration 14: the web view's signing secret and the links already swapped for a cookie,
read and written by ``storage.web``. Kept apart from it so the migrations need no repository."""

SCHEMA = """
CREATE TABLE web_secrets (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
CREATE TABLE web_link_uses (
    nonce       TEXT PRIMARY KEY,
    expires_at  TEXT NOT NULL
);
"""

MEMBERS_SCHEMA = """
CREATE TABLE web_members (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    generation  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
"""
"""Migration 16 (PostgreSQL 4): each member's session generation (``storage.web``). A session
names the generation it was made in; ``/web`` and ``/web logout`` raise it, ending the older
sessions of that member at their next request. The same text reads on both databases."""
