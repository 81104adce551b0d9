"""Migration 6's Python step: index the Conflicts already running in ``conflict_participants``.

``conflict_participants`` (``storage/schema/sqlite/V006__secrecy.sql``, docs/rulings.md §7) says
which characters are in which channel's live Conflict, so a sheet command can ask "is Koel in a
Conflict, and where" without reading every Conflict. The conflict repository keeps it in step
with each save; Conflicts running when the bot was updated are indexed here, from their documents,
by the engine's own reader.
"""

import aiosqlite

from rules.conflict import load_conflict
from rules.errors import RulesError
from storage.sql import fetch_all


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
