"""The schema, as numbered migrations applied in order at start-up.

``PRAGMA user_version`` holds the number of the last migration applied. Each migration runs in
one ``BEGIN IMMEDIATE`` transaction together with the bump of ``user_version``, so a crash
leaves the file at the previous version, never half-migrated, and two processes starting at
once apply each migration exactly once (the second re-reads the version under the write lock).

Ids that other rows or in-memory copies refer to (characters, conflicts) are AUTOINCREMENT so
they are never reused: a stale copy of a deleted row must not match a new row that took its id.

A migration is SQL text, a Python step (an async function given the connection, for changes
SQL cannot express, such as recomputing a column with the rules' own functions), or a tuple
of both run in order. Every step of one migration runs in the same transaction as the bump.

Never edit a migration that has shipped: append a new one. A migration that rebuilds a table
must not rely on ``PRAGMA foreign_keys`` (it cannot change inside a transaction).
"""

import sqlite3
from collections.abc import Awaitable, Callable

import aiosqlite

from storage.draft_schema import SCHEMA as DRAFTS_SCHEMA
from storage.errors import SchemaVersionError
from storage.name_keys import rekey_characters
from storage.request_schema import SCHEMA as REQUESTS_SCHEMA
from storage.roll_outcomes import reread_failed_rolls
from storage.scene_schema import SCHEMA as SCENES_SCHEMA
from storage.secrecy_schema import SCHEMA as SECRECY_SCHEMA
from storage.secrecy_schema import index_live_conflicts
from storage.sql import rollback
from storage.web_schema import MEMBERS_SCHEMA as WEB_MEMBERS_SCHEMA
from storage.web_schema import SCHEMA as WEB_SCHEMA

PythonStep = Callable[[aiosqlite.Connection], Awaitable[None]]
"""A migration step in Python: it runs inside the migration's transaction and must not commit."""
Step = str | PythonStep
Migration = Step | tuple[Step, ...]

MIGRATIONS: tuple[Migration, ...] = (
    # 1: characters, guild settings, active characters, roll log.
    """
    CREATE TABLE characters (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        name_key    TEXT    NOT NULL,
        owner_id    INTEGER NOT NULL,
        kind        TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        updated_at  TEXT    NOT NULL,
        document    TEXT    NOT NULL,
        UNIQUE (guild_id, name_key),
        UNIQUE (guild_id, id)
    );
    CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, name_key);

    CREATE TABLE guild_settings (
        guild_id           INTEGER PRIMARY KEY,
        narrator_role_ids  TEXT    NOT NULL,
        gm_channel_id      INTEGER
    );

    CREATE TABLE active_characters (
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        character_id  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id),
        FOREIGN KEY (guild_id, character_id)
            REFERENCES characters (guild_id, id) ON DELETE CASCADE
    );
    CREATE INDEX active_characters_by_character ON active_characters (guild_id, character_id);

    CREATE TABLE roll_log (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        at           TEXT    NOT NULL,
        label        TEXT    NOT NULL,
        dice         INTEGER NOT NULL,
        free_nudges  INTEGER NOT NULL,
        underflow    INTEGER NOT NULL,
        difficulty   INTEGER NOT NULL,
        faces        TEXT    NOT NULL,
        result       INTEGER NOT NULL,
        outcome      INTEGER NOT NULL,
        success      INTEGER NOT NULL CHECK (success IN (0, 1)),
        ones         INTEGER NOT NULL,
        twos         INTEGER NOT NULL,
        threes       INTEGER NOT NULL,
        fours        INTEGER NOT NULL,
        fives        INTEGER NOT NULL,
        sixes        INTEGER NOT NULL
    );
    CREATE INDEX roll_log_by_guild ON roll_log (guild_id, id);
    CREATE INDEX roll_log_by_user ON roll_log (guild_id, user_id, id);
    """,
    # 2: one live Conflict per channel, as an opaque JSON document with a version.
    """
    CREATE TABLE conflicts (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        version     INTEGER NOT NULL,
        updated_at  TEXT    NOT NULL,
        document    TEXT    NOT NULL,
        UNIQUE (guild_id, channel_id)
    );
    """,
    # 3: the message that shows each channel's Conflict board, so a restart edits it again.
    """
    CREATE TABLE conflict_boards (
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, channel_id)
    );
    """,
    # 4: names compared by rules.naming: a search key and a sort key beside name_key, every
    # key recomputed (names that now clash are numbered), and indexes for the new order. The
    # indexes carry search_key so a search can test each row it walks without reading it
    # (about three times faster for a rare query over 10,000 names).
    (
        """
        ALTER TABLE characters ADD COLUMN search_key TEXT NOT NULL DEFAULT '';
        ALTER TABLE characters ADD COLUMN sort_key TEXT NOT NULL DEFAULT '';
        """,
        rekey_characters,
        """
        CREATE INDEX characters_by_sort_key ON characters (guild_id, sort_key, search_key);
        DROP INDEX characters_by_owner;
        CREATE INDEX characters_by_owner ON characters (guild_id, owner_id, sort_key, search_key);
        """,
    ),
    # 5: a failed roll counts its Result as 0 (docs/rulings.md §2.5): the Outcome logged for
    # each failure with a matching set is reread by the rules (storage.roll_outcomes).
    reread_failed_rolls,
    # 6: secrecy (docs/rulings.md §7): secret rolls, revealed sheets, the table-dice setting,
    # and an index of who is in which live Conflict (storage.secrecy_schema).
    (SECRECY_SCHEMA, index_live_conflicts),
    # 7: the outbox (storage.outbox): every message a Conflict move must show, written in the
    # move's own transaction and marked once Discord has it; and which Conflict, at which
    # version, each board last showed, so a restarted bot knows which boards are behind.
    """
    CREATE TABLE outbox (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        conflict_id     INTEGER,
        action_id       INTEGER,
        kind            TEXT    NOT NULL CHECK (kind IN ('outcome', 'prompt', 'notice')),
        payload         TEXT    NOT NULL,
        interaction_id  INTEGER,
        created_at      TEXT    NOT NULL,
        attempted_at    TEXT,
        delivered_at    TEXT,
        message_id      INTEGER,
        failure         TEXT
    );
    CREATE INDEX outbox_waiting ON outbox (guild_id, channel_id, id) WHERE delivered_at IS NULL;
    CREATE INDEX outbox_prompts ON outbox (conflict_id, action_id, id) WHERE action_id IS NOT NULL;
    CREATE INDEX outbox_by_message ON outbox (message_id) WHERE message_id IS NOT NULL;
    ALTER TABLE conflict_boards ADD COLUMN conflict_id INTEGER;
    ALTER TABLE conflict_boards ADD COLUMN rendered_version INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: the roll log is pruned after MISTBORN_ROLL_LOG_DAYS (storage.rolls); the fairness
    # report reads totals per member, apart for secret and public rolls, that a trigger keeps
    # in the very statement that logs a roll, so pruning never changes it. The totals start
    # from every roll logged so far.
    """
    CREATE TABLE roll_totals (
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        secret     INTEGER NOT NULL,
        rolls      INTEGER NOT NULL,
        successes  INTEGER NOT NULL,
        ones       INTEGER NOT NULL,
        twos       INTEGER NOT NULL,
        threes     INTEGER NOT NULL,
        fours      INTEGER NOT NULL,
        fives      INTEGER NOT NULL,
        sixes      INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id, secret)
    );
    INSERT INTO roll_totals
        SELECT guild_id, user_id, secret, COUNT(*), SUM(success), SUM(ones), SUM(twos),
               SUM(threes), SUM(fours), SUM(fives), SUM(sixes)
        FROM roll_log GROUP BY guild_id, user_id, secret;
    CREATE TRIGGER roll_log_totals AFTER INSERT ON roll_log BEGIN
        INSERT INTO roll_totals
            VALUES (NEW.guild_id, NEW.user_id, NEW.secret, 1, NEW.success, NEW.ones, NEW.twos, NEW.threes,
                    NEW.fours, NEW.fives, NEW.sixes)
        ON CONFLICT (guild_id, user_id, secret) DO UPDATE SET
            rolls = rolls + 1, successes = successes + excluded.successes,
            ones = ones + excluded.ones, twos = twos + excluded.twos,
            threes = threes + excluded.threes, fours = fours + excluded.fours,
            fives = fives + excluded.fives, sixes = sixes + excluded.sixes;
    END;
    CREATE INDEX roll_log_by_time ON roll_log (at);
    """,
    # 9: the format of each stored sheet, so a later incompatible change to the sheet's JSON
    # can upgrade old documents on read and at start (storage.sheet_format). Every sheet
    # stored so far is format 1.
    """
    ALTER TABLE characters ADD COLUMN format_version INTEGER NOT NULL DEFAULT 1;
    """,
    # 10: Heroes in the making (docs/rulings.md §6.10), one per member per server, kept apart
    # from the characters so no list or Conflict finds them (storage.drafts).
    DRAFTS_SCHEMA,
    # 11: the Narrator's requests for rolls and who has rolled (docs/rulings.md §6.13,
    # storage.requests).
    REQUESTS_SCHEMA,
    # 12: the interactions whose change is saved, so a retried or replayed interaction never
    # applies twice (storage.handled); pruned after a day.
    """
    CREATE TABLE handled_interactions (
        interaction_id INTEGER PRIMARY KEY,
        handled_at TEXT NOT NULL
    );
    CREATE INDEX handled_interactions_by_time ON handled_interactions (handled_at);
    """,
    # 13: which question an outbox row's buttons ask (storage.outbox): besides a defence or
    # Nudges, a turn to declare or act, so a restarted bot can ask a turn again.
    """
    ALTER TABLE outbox ADD COLUMN prompt_key TEXT;
    CREATE INDEX outbox_asking ON outbox (conflict_id, prompt_key, id) WHERE prompt_key IS NOT NULL;
    """,
    # 14: the Narrator's web view: its signing secret and the links already swapped for a
    # cookie (storage.web).
    WEB_SCHEMA,
    # 15: when each identify bucket last connected to Discord (storage.identify), so the
    # processes of a cluster pace their IDENTIFYs through the database, not their memory.
    """
    CREATE TABLE identify_buckets (
        bucket      INTEGER PRIMARY KEY,
        identified  REAL    NOT NULL
    );
    """,
    # 16: a channel's Circumstances and the Breathers called but not yet taken, both the
    # Narrator's (docs/rulings.md §1.6, §5.12; storage.scenes).
    SCENES_SCHEMA,
    # 17: each member's web session generation, raised by /web and /web logout so a new link
    # ends the older sessions (storage.web).
    WEB_MEMBERS_SCHEMA,
)

LATEST_VERSION = len(MIGRATIONS)


def split_statements(script: str) -> list[str]:
    """Cut a migration into single statements, so they can run inside our own transaction.

    ``executescript`` would commit any open transaction first, which would break the
    one-transaction-per-migration guarantee. ``sqlite3.complete_statement`` knows where a
    statement ends (including ``CREATE TRIGGER ... END;``).
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"Migration ends with an incomplete statement: {pending.strip()[:60]!r}")
    return statements


def steps(migration: Migration) -> tuple[Step, ...]:
    """The steps of one migration, in the order they run."""
    return migration if isinstance(migration, tuple) else (migration,)


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    for step in steps(migration):
        if isinstance(step, str):
            for statement in split_statements(step):
                await conn.execute(statement)
        else:
            await step(conn)


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of the last migration applied to the file behind ``conn``."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(conn: aiosqlite.Connection, target: int = LATEST_VERSION) -> int:
    """Apply every migration after the file's version up to ``target``; return the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no open transaction.
    ``target`` below the latest exists for tests that build an old file to upgrade.
    """
    if not 0 <= target <= LATEST_VERSION:
        raise ValueError(f"Migration target {target} is outside 0..{LATEST_VERSION}.")
    current = await schema_version(conn)
    if current > LATEST_VERSION:
        raise SchemaVersionError(
            f"The database is at schema version {current}, newer than this bot knows "
            f"({LATEST_VERSION}); update the bot before opening it."
        )
    for number in range(current + 1, target + 1):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if await schema_version(conn) < number:
                await _apply(conn, MIGRATIONS[number - 1])
                # PRAGMA takes no parameters; ``number`` is our own int, never user input.
                await conn.execute(f"PRAGMA user_version = {int(number)}")
            await conn.execute("COMMIT")
        except BaseException:
            await rollback(conn)
            raise
    return max(current, target)
