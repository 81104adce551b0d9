-- 4: names compared by rules.naming: a search key and a sort key beside name_key, and indexes
-- for the new order. The indexes carry search_key so a search can test each row it walks without
-- reading it. Then the Python step storage.name_keys.rekey_characters recomputes every key
-- (names that now clash are numbered).

ALTER TABLE characters ADD COLUMN search_key TEXT NOT NULL DEFAULT '';
ALTER TABLE characters ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
CREATE INDEX characters_by_sort_key ON characters (guild_id, sort_key, search_key);
DROP INDEX characters_by_owner;
CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, sort_key, search_key);
