-- 17: each member's web session generation, raised by /web and /web logout so a new link ends
-- the older sessions of that member at their next request (storage.web).

CREATE TABLE web_members (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    generation  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
