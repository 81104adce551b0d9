"""Migration 5: the logged Outcome of every failed roll, reread by the rule as written.

Before it, a failed roll with a matching set logged its Result against the Difficulty (a set
of 4s against Difficulty 5 logged -1). The rule counts a failed roll's Result as 0
(docs/rulings.md §2.5), so every failure's Outcome is -Difficulty less the undersized-pool
penalty. SQL cannot call the rules, so this step rereads each logged failure with
``rules.roll.outcome_of`` — the function every new roll is read with — and rewrites only the
rows whose Outcome changes. Faces, Results and successes are left as thrown, so the fairness
report's inputs do not move.
"""

import aiosqlite

from rules.roll import outcome_of
from storage.sql import fetch_all


async def reread_failed_rolls(conn: aiosqlite.Connection) -> None:
    """Rewrite the Outcome of each logged failure that was read the old way."""
    rows = await fetch_all(
        conn, "SELECT id, result, difficulty, underflow, outcome FROM roll_log WHERE success = 0"
    )
    changed = []
    for row_id, result, difficulty, underflow, logged in rows:
        outcome = outcome_of(result, difficulty, underflow)
        if outcome != logged:
            changed.append((outcome, row_id))
    await conn.executemany("UPDATE roll_log SET outcome = ? WHERE id = ?", changed)
