-- 18: the web view's keys refuse NULL, as on PostgreSQL (tests/storage/test_schema.py found it):
-- SQLite lets a PRIMARY KEY other than INTEGER hold NULL, a legacy of its own that PostgreSQL
-- does not share. ALTER TABLE cannot add NOT NULL, so both tables are rebuilt, keeping every row
-- (the bot always wrote a key; a row without one could never be read by it, and is dropped).

ALTER TABLE web_secrets RENAME TO web_secrets_before_18;
CREATE TABLE web_secrets (
    name   TEXT NOT NULL PRIMARY KEY,
    value  TEXT NOT NULL
);
INSERT INTO web_secrets (name, value) SELECT name, value FROM web_secrets_before_18 WHERE name IS NOT NULL;
DROP TABLE web_secrets_before_18;

ALTER TABLE web_link_uses RENAME TO web_link_uses_before_18;
CREATE TABLE web_link_uses (
    nonce       TEXT NOT NULL PRIMARY KEY,
    expires_at  TEXT NOT NULL
);
INSERT INTO web_link_uses (nonce, expires_at)
    SELECT nonce, expires_at FROM web_link_uses_before_18 WHERE nonce IS NOT NULL;
DROP TABLE web_link_uses_before_18;
