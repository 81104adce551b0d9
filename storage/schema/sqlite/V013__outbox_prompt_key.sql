-- 13: which question an outbox row's buttons ask (storage.outbox): besides a defence or Nudges,
-- a turn to declare or act, so a restarted bot can ask a turn again.

ALTER TABLE outbox ADD COLUMN prompt_key TEXT;
CREATE INDEX outbox_asking ON outbox (conflict_id, prompt_key, id) WHERE prompt_key IS NOT NULL;
