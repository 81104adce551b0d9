-- 15: when each identify bucket last connected to Discord (storage.identify), so the processes
-- of a cluster pace their IDENTIFYs through the database, not their memory.

CREATE TABLE identify_buckets (
    bucket      INTEGER PRIMARY KEY,
    identified  REAL    NOT NULL
);
