-- 8: the roll log is pruned after MISTBORN_ROLL_LOG_DAYS (storage.rolls); the fairness report
-- reads totals per member, apart for secret and public rolls, that a trigger keeps in the very
-- statement that logs a roll, so pruning never changes it. The totals start from every roll
-- logged so far.

CREATE TABLE roll_totals (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
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
INSERT INTO roll_totals
    SELECT guild_id, user_id, secret, COUNT(*), SUM(success), SUM(ones), SUM(twos),
           SUM(threes), SUM(fours), SUM(fives), SUM(sixes)
    FROM roll_log GROUP BY guild_id, user_id, secret;
CREATE TRIGGER roll_log_totals AFTER INSERT ON roll_log BEGIN
    INSERT INTO roll_totals
        VALUES (NEW.guild_id, NEW.user_id, NEW.secret, 1, NEW.success, NEW.ones, NEW.twos, NEW.threes,
                NEW.fours, NEW.fives, NEW.sixes)
    ON CONFLICT (guild_id, user_id, secret) DO UPDATE SET
        rolls = rolls + 1, successes = successes + excluded.successes,
        ones = ones + excluded.ones, twos = twos + excluded.twos,
        threes = threes + excluded.threes, fours = fours + excluded.fours,
        fives = fives + excluded.fives, sixes = sixes + excluded.sixes;
END;
CREATE INDEX roll_log_by_time ON roll_log (at);
