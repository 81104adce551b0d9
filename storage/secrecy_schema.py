"""Migration 6: what the secrecy rules need stored (docs/rulings.md §7).

* ``roll_log.secret``: a ``/gmroll`` is seen by Narrators and its roller only; every roll
  logged before is public, as it was shown in the channel.
* ``characters.revealed``: a Narrator may open a Villain's or Extra's sheet to the players; a
  column beside the sheet, not part of its JSON, since it is the table's choice, not the
  character's (an exported sheet does not carry it).
* ``guild_settings.table_dice``: whether players may type faces from dice rolled at a physical
  table (off by default).
* ``conflict_participants``: which characters are in which channel's live Conflict, so a sheet
  command can ask "is Koel in a Conflict, and where" without reading every Conflict. The
  conflict repository keeps it in step with each save, in the same transaction; deleting the
  Conflict deletes its rows (``ON DELETE CASCADE``). Conflicts running when the bot is updated
  are indexed from their documents here, by the engine's own reader.
"""

import aiosqlite

from rules.conflict import load_conflict
from rules.errors import RulesError
from storage.sql import fetch_all

SCHEMA = """
ALTER TABLE roll_log ADD COLUMN secret INTEGER NOT NULL DEFAULT 0 CHECK (secret IN (0, 1));
ALTER TABLE characters ADD COLUMN revealed INTEGER NOT NULL DEFAULT 0 CHECK (revealed IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN table_dice INTEGER NOT NULL DEFAULT 0 CHECK (table_dice IN (0, 1));
CREATE TABLE conflict_participants (
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    character_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, character_id, channel_id),
    FOREIGN KEY (guild_id, channel_id)
        REFERENCES conflicts (guild_id, channel_id) ON DELETE CASCADE
);
CREATE INDEX conflict_participants_by_channel ON conflict_participants (guild_id, channel_id);
"""


async def index_live_conflicts(conn: aiosqlite.Connection) -> None:
    """Fill ``conflict_participants`` from the Conflicts already running.

    A document the engine cannot read is left unindexed: the bot cannot play it either, and the
    Narrator ends it with ``/conflict end``.
    """
    rows = await fetch_all(conn, "SELECT guild_id, channel_id, document FROM conflicts")
    found: list[tuple[int, int, int]] = []
    for guild_id, channel_id, document in rows:
        try:
            conflict = load_conflict(document)
        except RulesError:
            continue
        found += [(guild_id, channel_id, p.id) for p in conflict.participants]
    await conn.executemany(
        "INSERT OR IGNORE INTO conflict_participants (guild_id, channel_id, character_id) VALUES (?, ?, ?)",
        found,
    )
