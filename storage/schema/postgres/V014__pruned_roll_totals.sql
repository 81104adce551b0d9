-- 14 (SQLite 26): no trigger on the roll log. The fairness report sums the rolls still in the
-- log, plus the totals of the rolls pruned from it (pruned_roll_totals), which the prune adds in
-- the statement that deletes them (storage.rolls); so logging a roll, which every roll and every
-- Conflict move does before it answers, writes one table instead of two. The totals kept until
-- now counted every roll ever logged; taking away the rolls still in the log leaves exactly
-- those pruned.
DROP TRIGGER roll_log_totals ON roll_log;
DROP FUNCTION roll_log_totals();
CREATE TABLE pruned_roll_totals (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    secret     INTEGER NOT NULL,
    rolls      INTEGER NOT NULL,
    successes  INTEGER NOT NULL,
    ones       INTEGER NOT NULL,
    twos       INTEGER NOT NULL,
    threes     INTEGER NOT NULL,
    fours      INTEGER NOT NULL,
    fives      INTEGER NOT NULL,
    sixes      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, secret)
);
INSERT INTO pruned_roll_totals
    SELECT t.guild_id, t.user_id, t.secret, t.rolls - COALESCE(l.rolls, 0),
           t.successes - COALESCE(l.successes, 0), t.ones - COALESCE(l.ones, 0),
           t.twos - COALESCE(l.twos, 0), t.threes - COALESCE(l.threes, 0),
           t.fours - COALESCE(l.fours, 0), t.fives - COALESCE(l.fives, 0),
           t.sixes - COALESCE(l.sixes, 0)
    FROM roll_totals AS t LEFT JOIN (
        SELECT guild_id, user_id, secret, COUNT(*) AS rolls, SUM(success) AS successes,
               SUM(ones) AS ones, SUM(twos) AS twos, SUM(threes) AS threes, SUM(fours) AS fours,
               SUM(fives) AS fives, SUM(sixes) AS sixes
        FROM roll_log GROUP BY guild_id, user_id, secret) AS l
    ON l.guild_id = t.guild_id AND l.user_id = t.user_id AND l.secret = t.secret
    WHERE t.rolls > COALESCE(l.rolls, 0);
DROP TABLE roll_totals;
