-- 5 (SQLite 17): each member's web session generation (storage.web).

CREATE TABLE web_members (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    generation  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
