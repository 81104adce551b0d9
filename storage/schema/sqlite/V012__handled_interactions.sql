-- 12: the interactions whose change is saved, so a retried or replayed interaction never
-- applies twice (storage.handled); pruned after a day.

CREATE TABLE handled_interactions (
    interaction_id INTEGER PRIMARY KEY,
    handled_at TEXT NOT NULL
);
CREATE INDEX handled_interactions_by_time ON handled_interactions (handled_at);
