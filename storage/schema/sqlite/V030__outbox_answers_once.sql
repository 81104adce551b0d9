-- 30 (PostgreSQL 18): an interaction is answered by at most one outbox row. A Conflict move's
-- reply row carries its interaction's id, so the row is also the move's claim (storage.moves):
-- a replayed interaction's insert fails and its move writes nothing, without a claim of its
-- own to write. Rows that already repeat an id (an answer long delivered) keep the newest.
UPDATE outbox SET interaction_id = NULL
WHERE interaction_id IS NOT NULL AND delivered_at IS NOT NULL
  AND id NOT IN (SELECT MAX(id) FROM outbox WHERE interaction_id IS NOT NULL GROUP BY interaction_id);
CREATE UNIQUE INDEX outbox_answering ON outbox (interaction_id) WHERE interaction_id IS NOT NULL;
