-- 19: reserved for another change merged beside this one (a Conflict's own thread is 20).
-- Placeholder so the numbers stay 1..N; the lead drops it when the real 19 merges.
SELECT 1;
