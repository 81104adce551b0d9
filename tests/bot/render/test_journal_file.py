"""The journal as a Markdown file (``bot.render.recap.journal_markdown``): every entry the reader
may read, in order, and a night too long for one upload cut where it must, saying where the rest is."""

from datetime import UTC, datetime, timedelta

from bot.render.recap import journal_markdown
from rules.journal import NARRATOR, TABLE, EntryKind, JournalEntry

START = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


def night(count: int) -> list[JournalEntry]:
    """``count`` rolls, every third a secret the table never saw."""
    return [
        JournalEntry(
            at=START + timedelta(minutes=n),
            kind=EntryKind.ROLL,
            text=f"roll number {n}",
            public=None if n % 3 == 0 else f"roll number {n}",
            owner_id=1,
        )
        for n in range(count)
    ]


def test_every_entry_the_reader_may_read_in_order() -> None:
    full = journal_markdown("The Keep", "tonight", night(30), NARRATOR)
    table = journal_markdown("The Keep", "tonight", night(30), TABLE)
    assert [f"roll number {n}" in full for n in range(30)] == [True] * 30
    assert [f"roll number {n}" in table for n in range(30)] == [n % 3 != 0 for n in range(30)]
    assert full.index("roll number 9") < full.index("roll number 10") and "more entries" not in full


def test_a_night_too_long_for_one_upload_stops_within_the_limit_and_says_where_the_rest_is() -> None:
    limit = 4_000
    text = journal_markdown("The Keep", "tonight", night(1_000), NARRATOR, max_bytes=limit)
    assert len(text.encode()) <= limit
    shown = sum(f"roll number {n}\n" in text for n in range(1_000))
    assert 0 < shown < 1_000
    assert f"…and {1_000 - shown} more entries" in text and "web view" in text
