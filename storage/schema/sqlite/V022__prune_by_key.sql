-- 22: the time indexes of the tables every roll writes go. They served only the prune of old
-- rows, and each was one more B-tree every roll, journal entry and claim wrote; the prune now
-- walks the primary key, which orders these tables by time already (storage.pruning).
DROP INDEX roll_log_by_time;
DROP INDEX journal_by_time;
DROP INDEX handled_interactions_by_time;
