-- 14: the Narrator's web view: its signing secret and the links already swapped for a cookie
-- (storage.web).

CREATE TABLE web_secrets (
    name   TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
CREATE TABLE web_link_uses (
    nonce       TEXT PRIMARY KEY,
    expires_at  TEXT NOT NULL
);
