"""Migration 5: failed rolls logged the old way, reread as the rule is written."""

from pathlib import Path

import pytest

from storage import Storage
from storage.migrations import migrate, schema_version
from tests.storage.test_migrations import STAMP, raw

BEFORE = 4
"""The schema version whose bot logged a failed set's Result in its Outcome."""

ROWS = [
    # (faces, dice, underflow, difficulty, result, logged outcome, success, outcome after)
    ("4,4,1", 3, 0, 5, 4, -1, 0, -5),  # a set of 4s short of 5: -5, not "Just shy"
    ("2,2,6", 3, 0, 3, 2, -1, 0, -3),
    ("4,4", 2, 2, 5, 4, -3, 0, -6),  # a pool of 0: -5 - 2, kept on the scale
    ("1,2,3", 3, 0, 3, 0, -3, 0, -3),  # no set: already read as 0
    ("3,3,6", 3, 0, 2, 3, 1, 1, 1),  # a success keeps its Outcome
    ("2,2", 2, 2, 1, 2, -1, 1, -1),  # so does a success from an undersized pool (§2.8)
]


async def old_file(db_path: Path) -> None:
    conn = await raw(db_path)
    await migrate(conn, target=BEFORE)
    for faces, dice, underflow, difficulty, result, outcome, success, _ in ROWS:
        counts = [faces.split(",").count(str(face)) for face in range(1, 7)]
        await conn.execute(
            "INSERT INTO roll_log (guild_id, user_id, at, label, dice, free_nudges, underflow, difficulty,"
            " faces, result, outcome, success, ones, twos, threes, fours, fives, sixes)"
            " VALUES (1, 7, ?, 'Leap', ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (STAMP, dice, underflow, difficulty, faces, result, outcome, success, *counts),
        )
    await conn.close()


@pytest.mark.parametrize("row", range(len(ROWS)))
async def test_a_logged_failure_is_reread_with_its_result_as_zero(db_path: Path, row: int) -> None:
    """docs/rulings.md §2.5: a failed roll's Outcome is −Difficulty less the undersized-pool
    penalty, whatever set it showed; the log now says so for rolls made before the fix."""
    await old_file(db_path)
    async with await Storage.open(db_path) as storage:
        assert await schema_version(storage.sqlite.reader) >= BEFORE + 1
        logged = list(reversed(await storage.rolls.recent(1, limit=len(ROWS))))
    faces, _, _, difficulty, result, _, success, outcome = ROWS[row]
    record = logged[row]
    assert record.faces == tuple(int(face) for face in faces.split(","))
    assert (record.difficulty, record.result, record.success) == (difficulty, result, bool(success))
    assert record.outcome == outcome


async def test_the_fairness_inputs_do_not_move(db_path: Path) -> None:
    """Only Outcomes are reread: face counts and successes stay as thrown."""
    await old_file(db_path)
    async with await Storage.open(db_path) as storage:
        stats = await storage.rolls.stats(1)
    assert stats.rolls == len(ROWS) and stats.successes == 2
    assert stats.face_counts == (2, 5, 3, 4, 0, 2)
