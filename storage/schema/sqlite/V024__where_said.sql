-- 24 (PostgreSQL 12): where each journal entry and each roll was said, so a player reads only
-- what was said where they can read (docs/rulings.md §7.6, storage.places). The journal's
-- channel_id was already the table's channel (a thread's parent); it gains the private thread
-- an entry was said in (NULL: the channel itself or a public thread of it) and the member
-- whose interaction made it (who took part in a private thread). The roll log had no channel:
-- it gains the same two places, NULL on the rolls logged before (said nowhere known: they stay
-- listed as they were). Only a private thread's entries enter the new index, so an entry said
-- in the open writes no more B-trees than before.

ALTER TABLE journal ADD COLUMN private_thread_id INTEGER;
ALTER TABLE journal ADD COLUMN actor_id INTEGER;
CREATE INDEX journal_private_threads ON journal (guild_id, actor_id, private_thread_id)
    WHERE private_thread_id IS NOT NULL;
ALTER TABLE roll_log ADD COLUMN channel_id INTEGER;
ALTER TABLE roll_log ADD COLUMN private_thread_id INTEGER;
