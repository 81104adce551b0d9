"""Sessions and the journal (``storage.journal``) on both databases: one open session per channel,
a session's story by channel and time, a Conflict move's entries kept with it or not at all, the
quiet closing a forgotten session, and pruning with the roll log."""

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from rules.journal import EntryKind, JournalEntry
from storage import Storage
from storage.errors import AlreadyExistsError, StaleWriteError
from storage.journal import TableSession
from storage.places import Origin, Reach
from storage.sql import utc_now
from tests.bot.cogs.conflict.moves.crash_conflict import GUILD
from tests.bot.cogs.conflict.moves.test_transaction import DECLARED, keep_hasting
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
    await storage.journal.add(
        1, Origin(channel_id=10), [entry(-5, "before"), entry(10, "first"), entry(20, "second")]
    )
    await storage.journal.add(1, Origin(channel_id=11), [entry(15, "elsewhere")])
    await storage.journal.add(2, Origin(channel_id=10), [entry(15, "another server")])
    session = await storage.journal.start(1, 10, "Night", 7, T0)
    assert [e.text for e in await storage.journal.entries(session)] == ["first", "second"]
    ended = await storage.journal.end(session, T0 + timedelta(minutes=15))
    assert ended is not None
    assert [e.text for e in await storage.journal.entries(ended)] == ["first"]


async def test_the_quiet_closes_a_forgotten_session_at_its_last_event(storage: Storage) -> None:
    quiet = await storage.journal.start(1, 10, "Forgotten", 7, T0)
    busy = await storage.journal.start(1, 11, "Still playing", 7, T0)
    await storage.journal.add(1, Origin(channel_id=10), [entry(30, "last thing")])
    await storage.journal.add(1, Origin(channel_id=11), [entry(60 * 13, "late roll")])
    closed = await storage.journal.close_quiet(T0 + timedelta(hours=12, minutes=31))
    assert [s.id for s in closed] == [quiet.id]
    assert closed[0].ended_at == T0 + timedelta(minutes=30) and closed[0].ended_how == "quiet"
    assert await storage.journal.open_in(1, 11) == busy
    assert await storage.journal.close_quiet(T0 + timedelta(hours=12, minutes=31)) == []


async def test_pruning_drops_old_entries_and_closed_sessions_only(storage: Storage) -> None:
    old = await storage.journal.start(1, 10, "Long ago", 7, T0)
    await storage.journal.add(1, Origin(channel_id=10), [entry(1, "old"), entry(2, "old too")])
    await storage.journal.end(old, T0 + timedelta(hours=1))
    now = utc_now()
    await storage.journal.add(
        1, Origin(channel_id=10), [JournalEntry(at=now, kind=EntryKind.ROLL, text="new", public="new")]
    )
    assert await storage.journal.prune(now - timedelta(days=1), batch=1) == 2
    assert await storage.journal.get(1, old.id) is None
    assert [s.entry.text for s in await storage.journal.of_character(1, 0)] == []


async def test_a_moves_entries_are_kept_with_it_or_not_at_all(storage: Storage) -> None:
    await keep_hasting(storage, DECLARED)
    session = await storage.journal.start(GUILD, CHANNEL, "Keep", 7, T0)
    told = entry(0, "a blow", EntryKind.DAMAGE).model_copy(update={"at": utc_now()})
    stale = await move_from(storage, CASES["the Conflict changed"][0])
    with pytest.raises(StaleWriteError):
        await storage.moves.write(stale.__class__(**{**stale.__dict__, "journal": [told]}))
    began = [e.kind for e in await storage.journal.entries(session) if e.kind is not EntryKind.JOINED]
    assert began == [EntryKind.CONFLICT_BEGAN]  # from the Conflict's start, not the refused move
    fresh = await move_from(storage, lambda c, s: (c, s))
    await storage.moves.write(fresh.__class__(**{**fresh.__dict__, "journal": [told]}))
    kept = [e.text for e in await storage.journal.entries(session) if e.kind is not EntryKind.JOINED]
    assert kept[1:] == ["a blow"]


async def test_the_whole_story_is_read_page_by_page_even_with_ties(storage: Storage) -> None:
    """``all_entries`` reads every entry in order, a page at a time (keyset on (at, id)), so a
    night longer than a recap reads is never cut; ``count`` says how long it was."""
    session = await storage.journal.start(GUILD, 77, "Long", 7, T0)
    same = [entry(1, f"tie {n}") for n in range(5)]  # five entries at the very same moment
    await storage.journal.add(
        GUILD, Origin(channel_id=77), [entry(0, "first"), *same, entry(2, "last"), entry(500, "after")]
    )
    ended = await storage.journal.end(session, T0 + timedelta(minutes=3))
    assert ended is not None
    texts = [e.text for e in await storage.journal.all_entries(ended, page=2)]
    assert texts == ["first", *(f"tie {n}" for n in range(5)), "last"]
    assert await storage.journal.count(ended) == 7
    assert [e.text for e in await storage.journal.entries(ended, limit=3)] == texts[:3]


async def test_where_each_entry_was_said_is_kept_and_read_by_reach(storage: Storage) -> None:
    """docs/rulings.md §7.6 on both databases (the rule's row-by-row agreement is
    tests/bot/test_access.py's): a reach reads its channels, and of their private threads only
    those it took part in; snowflakes as large as Discord's read back whole."""
    table, ooc, thread, player = BIG - 2, BIG - 1, BIG, BIG - 3
    session = await storage.journal.start(1, table, "Night", 7, T0)
    await storage.journal.add(1, Origin(channel_id=table, actor_id=8), [entry(1, "open")])
    await storage.journal.add(
        1, Origin(channel_id=table, private_thread_id=thread, actor_id=player), [entry(2, "hush")]
    )
    await storage.journal.add(1, Origin(channel_id=ooc, actor_id=player), [entry(3, "aside")])
    await storage.journal.start(1, ooc, "Aside", 7, T0)
    assert await storage.journal.threads_of(1, player) == {thread}
    assert await storage.journal.threads_of(1, 8) == frozenset()
    everywhere = Reach(channels=frozenset({table, ooc}), threads=frozenset({thread}))
    table_only = Reach(channels=frozenset({table}))
    for reach, texts in ((None, ["open", "hush"]), (everywhere, ["open", "hush"]), (table_only, ["open"])):
        assert [e.text for e in await storage.journal.entries(session, reach=reach)] == texts
        assert [e.text for e in await storage.journal.all_entries(session, page=1, reach=reach)] == texts
        assert await storage.journal.count(session, reach=reach) == len(texts)
    assert [s.title for s in await storage.journal.sessions(1, reach=table_only)] == ["Night"]
    assert [s.title for s in await storage.journal.sessions(1, reach=Reach())] == []
    assert [s.title for s in await storage.journal.sessions(1, reach=None)] == ["Aside", "Night"]


async def test_a_characters_story_says_which_session_each_entry_belongs_to(storage: Storage) -> None:
    first = await storage.journal.start(1, 10, "First", 7, T0)
    await storage.journal.add(
        1, Origin(channel_id=10), [entry(1, "in the first").model_copy(update={"character_id": 5})]
    )
    await storage.journal.end(first, T0 + timedelta(minutes=30))
    await storage.journal.add(
        1, Origin(channel_id=10), [entry(40, "between").model_copy(update={"character_id": 5})]
    )
    second = await storage.journal.start(1, 10, "Second", 7, T0 + timedelta(minutes=50))
    await storage.journal.add(
        1, Origin(channel_id=11), [entry(55, "elsewhere").model_copy(update={"character_id": 5})]
    )
    await storage.journal.add(
        1, Origin(channel_id=10), [entry(60, "in the second").model_copy(update={"character_id": 5})]
    )
    story = await storage.journal.of_character(1, 5)
    assert [(s.entry.text, s.session_id, s.session_title) for s in story] == [
        ("in the first", first.id, "First"),
        ("between", None, None),
        ("elsewhere", None, None),
        ("in the second", second.id, "Second"),
    ]
    assert [s.entry.text for s in await storage.journal.of_character(1, 5, limit=2)] == [
        "elsewhere",
        "in the second",
    ]


async def test_a_moves_rolls_and_entries_keep_where_it_was_made(storage: Storage) -> None:
    """On PostgreSQL through ``apply_move`` (migration 11) and the journal's JSON rows."""
    await keep_hasting(storage, DECLARED)
    said = Origin(channel_id=CHANNEL, private_thread_id=CHANNEL + 1, actor_id=42)
    move = await move_from(storage, lambda c, s: (c, s))
    rolls = [
        r.model_copy(update={"channel_id": CHANNEL, "private_thread_id": CHANNEL + 1}) for r in move.rolls
    ]
    told = entry(0, "a blow", EntryKind.DAMAGE).model_copy(update={"at": utc_now(), "character_id": 9})
    await storage.moves.write(replace(move, rolls=rolls, journal=[told], said=said))
    [logged] = await storage.rolls.recent(GUILD)
    assert (logged.channel_id, logged.private_thread_id) == (CHANNEL, CHANNEL + 1)
    assert await storage.journal.threads_of(GUILD, 42) == {CHANNEL + 1}
    assert await storage.journal.of_character(GUILD, 9, reach=Reach(channels=frozenset({CHANNEL}))) == []
    assert len(await storage.journal.of_character(GUILD, 9)) == 1


async def test_a_move_taken_back_takes_its_entries_with_it(storage: Storage) -> None:
    """``void_move`` drops one Conflict's entries from the move's time on, and nothing else: the
    Conflict's earlier entries, another Conflict's and a roll at the same moment stay (§4.24)."""
    at = T0 + timedelta(minutes=10)
    mine = [
        JournalEntry(at=T0, kind=EntryKind.ROUND, text="round 2", conflict_id=5),
        JournalEntry(at=at, kind=EntryKind.DAMAGE, text="undone blow", conflict_id=5, amount=3),
    ]
    others = [
        JournalEntry(at=at, kind=EntryKind.DAMAGE, text="other fight", conflict_id=6),
        entry(10, "a roll meanwhile"),
    ]
    await storage.journal.add(1, Origin(channel_id=10), [*mine, *others])
    await storage.journal.add(2, Origin(channel_id=10), [mine[1]])  # another server's Conflict 5
    session = await storage.journal.start(1, 10, "Night", 7, T0 - timedelta(minutes=1))
    assert await storage.journal.void_move(1, 5, at) == 1
    kept = [e.text for e in await storage.journal.entries(session)]
    assert kept == ["round 2", "other fight", "a roll meanwhile"]
