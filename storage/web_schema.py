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
