-- 2 (SQLite 15): when each identify bucket last identified to Discord, shared by every process
-- of a cluster (storage.identify).

CREATE TABLE identify_buckets (
    bucket       INTEGER PRIMARY KEY,
    identified   DOUBLE PRECISION NOT NULL
);
