-- 18 (SQLite 30): an interaction is answered by at most one outbox row. A Conflict move's
-- reply row carries its interaction's id, so on SQLite the row is also the move's claim
-- (storage.moves); apply_move still claims first here, in its one statement. Rows that already
-- repeat an id (an answer long delivered) keep the newest.
UPDATE outbox SET interaction_id = NULL
WHERE interaction_id IS NOT NULL AND delivered_at IS NOT NULL
  AND id NOT IN (SELECT MAX(id) FROM outbox WHERE interaction_id IS NOT NULL GROUP BY interaction_id);
CREATE UNIQUE INDEX outbox_answering ON outbox (interaction_id) WHERE interaction_id IS NOT NULL;
