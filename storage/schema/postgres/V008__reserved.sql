-- 8: reserved for another change merged beside this one (the sessions' journal is 9).
-- Placeholder so the numbers stay 1..N; the lead drops it when the real 8 merges.
SELECT 1;
