"""Sessions and the journal (``storage.journal``) on both databases: one open session per channel,
a session's story by channel and time, a Conflict move's entries kept with it or not at all, the
quiet closing a forgotten session, and pruning with the roll log."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from rules.journal import EntryKind, JournalEntry
from storage import Storage
from storage.errors import AlreadyExistsError, StaleWriteError
from storage.journal import TableSession
from storage.sql import utc_now
from tests.bot.moves.crash_conflict import GUILD
from tests.bot.moves.test_transaction import DECLARED, keep_hasting
from tests.rules.conflict.keep_hasting import CHANNEL
from tests.storage.test_moves import CASES, move_from

BIG = 2**63 - 1
T0 = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)


def entry(minutes: float, text: str, kind: EntryKind = EntryKind.ROLL) -> JournalEntry:
    return JournalEntry(at=T0 + timedelta(minutes=minutes), kind=kind, text=text, public=text)


async def test_one_open_session_per_channel_even_started_at_once(storage: Storage) -> None:
    async def start() -> TableSession | None:
        try:
            return await storage.journal.start(BIG, BIG, "The Keep", 7, T0)
        except AlreadyExistsError:
            return None

    started = [s for s in await asyncio.gather(start(), start(), start()) if s is not None]
    assert len(started) == 1
    assert await storage.journal.open_in(BIG, BIG) == started[0]
    assert await storage.journal.open_in(BIG, 1) is None
    ended = await storage.journal.end(started[0], T0 + timedelta(hours=3))
    assert ended is not None and not ended.open and ended.ended_how == "narrator"
    assert await storage.journal.end(started[0], T0 + timedelta(hours=4)) is None  # once only
    assert await storage.journal.open_in(BIG, BIG) is None
    assert await storage.journal.get(BIG, started[0].id) == ended
    again = await storage.journal.start(BIG, BIG, "Next week", 7, T0 + timedelta(days=7))
    assert [s.id for s in await storage.journal.sessions(BIG, BIG)] == [again.id, started[0].id]


async def test_a_sessions_story_is_its_channels_entries_between_start_and_end(storage: Storage) -> None:
    await storage.journal.add(1, 10, [entry(-5, "before"), entry(10, "first"), entry(20, "second")])
    await storage.journal.add(1, 11, [entry(15, "elsewhere")])
    await storage.journal.add(2, 10, [entry(15, "another server")])
    session = await storage.journal.start(1, 10, "Night", 7, T0)
    assert [e.text for e in await storage.journal.entries(session)] == ["first", "second"]
    ended = await storage.journal.end(session, T0 + timedelta(minutes=15))
    assert ended is not None
    assert [e.text for e in await storage.journal.entries(ended)] == ["first"]


async def test_the_quiet_closes_a_forgotten_session_at_its_last_event(storage: Storage) -> None:
    quiet = await storage.journal.start(1, 10, "Forgotten", 7, T0)
    busy = await storage.journal.start(1, 11, "Still playing", 7, T0)
    await storage.journal.add(1, 10, [entry(30, "last thing")])
    await storage.journal.add(1, 11, [entry(60 * 13, "late roll")])
    closed = await storage.journal.close_quiet(T0 + timedelta(hours=12, minutes=31))
    assert [s.id for s in closed] == [quiet.id]
    assert closed[0].ended_at == T0 + timedelta(minutes=30) and closed[0].ended_how == "quiet"
    assert await storage.journal.open_in(1, 11) == busy
    assert await storage.journal.close_quiet(T0 + timedelta(hours=12, minutes=31)) == []


async def test_pruning_drops_old_entries_and_closed_sessions_only(storage: Storage) -> None:
    old = await storage.journal.start(1, 10, "Long ago", 7, T0)
    await storage.journal.add(1, 10, [entry(1, "old"), entry(2, "old too")])
    await storage.journal.end(old, T0 + timedelta(hours=1))
    now = utc_now()
    await storage.journal.add(1, 10, [JournalEntry(at=now, kind=EntryKind.ROLL, text="new", public="new")])
    assert await storage.journal.prune(now - timedelta(days=1), batch=1) == 2
    assert await storage.journal.get(1, old.id) is None
    assert [e.text for e in await storage.journal.of_character(1, 0)] == []


async def test_a_moves_entries_are_kept_with_it_or_not_at_all(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    session = await storage.journal.start(GUILD, CHANNEL, "Keep", 7, T0)
    told = entry(0, "a blow", EntryKind.DAMAGE).model_copy(update={"at": utc_now()})
    stale = await move_from(storage, CASES["the Conflict changed"][0])
    with pytest.raises(StaleWriteError):
        await storage.moves.write(stale.__class__(**{**stale.__dict__, "journal": [told]}))
    began = [e.kind for e in await storage.journal.entries(session)]
    assert began == [EntryKind.CONFLICT_BEGAN]  # from the Conflict's start, not the refused move
    fresh = await move_from(storage, lambda c, s: (c, s))
    await storage.moves.write(fresh.__class__(**{**fresh.__dict__, "journal": [told]}))
    assert [e.text for e in await storage.journal.entries(session)][1:] == ["a blow"]


async def test_the_whole_story_is_read_page_by_page_even_with_ties(storage: Storage) -> None:
    """``all_entries`` reads every entry in order, a page at a time (keyset on (at, id)), so a
    night longer than a recap reads is never cut; ``count`` says how long it was."""
    session = await storage.journal.start(GUILD, 77, "Long", 7, T0)
    same = [entry(1, f"tie {n}") for n in range(5)]  # five entries at the very same moment
    await storage.journal.add(GUILD, 77, [entry(0, "first"), *same, entry(2, "last"), entry(500, "after")])
    ended = await storage.journal.end(session, T0 + timedelta(minutes=3))
    assert ended is not None
    texts = [e.text for e in await storage.journal.all_entries(ended, page=2)]
    assert texts == ["first", *(f"tie {n}" for n in range(5)), "last"]
    assert await storage.journal.count(ended) == 7
    assert [e.text for e in await storage.journal.entries(ended, limit=3)] == texts[:3]
