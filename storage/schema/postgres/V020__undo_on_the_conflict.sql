-- 20 (SQLite 32): a Conflict's record for an undo (docs/rulings.md §4.24,
-- storage.conflict_undo) is a column of its own row, written by the very UPDATE that saves the
-- move, as on SQLite; the records of migration 19 move there as they are. apply_move (migration
-- 12) is the same function but for that UPDATE, which also writes the move's ``undo`` (NULL: a
-- move nobody may take back), in place of the WITH beside it that wrote migration 19's table.

ALTER TABLE conflicts ADD COLUMN undo text;
UPDATE conflicts AS c SET undo = json_build_object(
        'conflict_id', u.conflict_id, 'version', u.version, 'mover_id', u.mover_id,
        'made_at', u.made_at, 'what', u.what, 'document', u.document, 'sheets', u.sheets)::text
    FROM conflict_undo AS u WHERE u.conflict_id = c.id;
DROP TABLE conflict_undo;

CREATE OR REPLACE FUNCTION apply_move(move jsonb) RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
    g bigint := (move->>'guild_id')::bigint;
    cid bigint := (move->>'conflict_id')::bigint;
    ch bigint := (move->>'channel_id')::bigint;
    found_version integer;
    wanted bigint[];
    written bigint[];
    missed bigint;
    ids bigint[];
BEGIN
    PERFORM 1 FROM conflicts WHERE guild_id = g AND channel_id = ch FOR UPDATE;
    SELECT array_agg(s.id) INTO wanted FROM (
        SELECT (j->>'id')::bigint AS id FROM jsonb_array_elements(move->'sheets') AS j) AS s;
    PERFORM 1 FROM characters WHERE guild_id = g AND (id = ANY(COALESCE(wanted, '{}'))
        OR id IN (SELECT character_id FROM conflict_participants WHERE guild_id = g AND channel_id = ch))
        ORDER BY id FOR UPDATE;
    IF move->>'interaction_id' IS NOT NULL THEN
        INSERT INTO handled_interactions (interaction_id, handled_at)
            VALUES ((move->>'interaction_id')::bigint, move->>'now') ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'apply_move:handled';
        END IF;
    END IF;
    SELECT version INTO found_version FROM conflicts WHERE guild_id = g AND id = cid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'apply_move:ended';
    ELSIF found_version <> (move->>'version')::integer THEN
        RAISE EXCEPTION 'apply_move:stale';
    END IF;
    INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow, difficulty, faces,
                          result, outcome, success, ones, twos, threes, fours, fives, sixes, secret,
                          channel_id, private_thread_id)
        SELECT (r->>'guild_id')::bigint, (r->>'user_id')::bigint, r->>'at', r->>'label',
               (r->>'dice')::integer, (r->>'free_nudges')::integer, (r->>'underflow')::integer,
               (r->>'difficulty')::integer, r->>'faces', (r->>'result')::integer,
               (r->>'outcome')::integer, (r->>'success')::integer, (r->>'ones')::integer,
               (r->>'twos')::integer, (r->>'threes')::integer, (r->>'fours')::integer,
               (r->>'fives')::integer, (r->>'sixes')::integer, (r->>'secret')::integer,
               (r->>'channel_id')::bigint, (r->>'private_thread_id')::bigint
        FROM jsonb_array_elements(move->'rolls') WITH ORDINALITY AS e(r, n) ORDER BY n;
    WITH changed AS (
        UPDATE characters AS c SET name = s.name, name_key = s.name_key, search_key = s.search_key,
            sort_key = s.sort_key, owner_id = s.owner_id, kind = s.kind, document = s.document,
            format_version = s.format_version, version = c.version + 1, updated_at = move->>'now'
        FROM jsonb_to_recordset(move->'sheets') AS s(
            id bigint, version integer, name text, name_key text, search_key text, sort_key text,
            owner_id bigint, kind text, document text, format_version integer)
        WHERE c.guild_id = g AND c.id = s.id AND c.version = s.version
        RETURNING c.id)
    SELECT array_agg(id) INTO written FROM changed;
    SELECT w INTO missed FROM unnest(COALESCE(wanted, '{}')) AS w
        WHERE w <> ALL(COALESCE(written, '{}')) ORDER BY w LIMIT 1;
    IF missed IS NOT NULL THEN
        IF EXISTS (SELECT 1 FROM characters WHERE guild_id = g AND id = missed) THEN
            RAISE EXCEPTION 'apply_move:sheet_stale:%', missed;
        END IF;
        RAISE EXCEPTION 'apply_move:sheet_missing:%', missed;
    END IF;
    IF move->>'document' IS NULL THEN
        DELETE FROM conflicts WHERE guild_id = g AND id = cid;
    ELSE
        UPDATE conflicts SET document = move->>'document', version = version + 1, updated_at = move->>'now',
                             undo = move->>'undo'
            WHERE guild_id = g AND id = cid;
        DELETE FROM conflict_participants WHERE guild_id = g AND channel_id = ch;
        INSERT INTO conflict_participants (guild_id, channel_id, character_id)
            SELECT DISTINCT g, ch, p::bigint FROM jsonb_array_elements_text(move->'participants') AS p;
    END IF;
    WITH added AS (
        INSERT INTO outbox (guild_id, channel_id, conflict_id, action_id, kind, payload, interaction_id,
                            created_at, prompt_key)
            SELECT g, ch, cid, (o->>'action_id')::integer, o->>'kind', o->>'payload',
                   (o->>'interaction_id')::bigint, move->>'now', o->>'prompt_key'
            FROM jsonb_array_elements(move->'outbox') WITH ORDINALITY AS e(o, n)
            ORDER BY n
            RETURNING id)
    SELECT array_agg(id ORDER BY id) INTO ids FROM added;
    RETURN COALESCE(ids, '{}');
END $$;
