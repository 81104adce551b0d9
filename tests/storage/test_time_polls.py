"""Polls of times for the next night in both databases: kept with their times in order, found by
their message, due once Discord has closed them, and moved from one state only once however
many processes try (docs/rulings.md §6.15)."""

import asyncio
from datetime import UTC, datetime, timedelta

from storage import Storage

NOW = datetime(2026, 12, 2, 8, 0, tzinfo=UTC)
STARTS = (NOW + timedelta(days=2), NOW + timedelta(days=3, hours=1))


async def test_a_poll_is_kept_found_and_due_once_closed(storage: Storage) -> None:
    polls = storage.time_polls
    made = await polls.add(1, 10, 100, title="The Keep", starts=STARTS, zone="UTC+01:00", closes_at=NOW)
    later = await polls.add(
        1, 10, 101, title="Later", starts=STARTS, zone="UTC", closes_at=NOW + timedelta(hours=1)
    )
    assert await polls.get(1, made.id) == made
    assert await polls.by_message(1, 100) == made and await polls.by_message(2, 100) is None
    assert await polls.get(2, made.id) is None  # another server's id is no poll here
    assert [p.id for p in await polls.due(NOW)] == [made.id]
    assert [p.id for p in await polls.due(NOW + timedelta(hours=2))] == [made.id, later.id]


async def test_a_state_moves_once_however_many_try(storage: Storage) -> None:
    polls = storage.time_polls
    made = await polls.add(1, 10, 100, title="The Keep", starts=STARTS, zone="UTC", closes_at=NOW)
    tries = await asyncio.gather(*(polls.claim(1, made.id, "open", "closing") for _ in range(5)))
    assert sorted(tries) == [False] * 4 + [True]
    assert await polls.due(NOW) == []
    assert await polls.claim(1, made.id, "closing", "tied")
    assert not await polls.claim(1, made.id, "open", "done")
    found = await polls.get(1, made.id)
    assert found is not None and found.state == "tied"
