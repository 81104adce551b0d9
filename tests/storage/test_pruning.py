"""Old rows go a batch at a time (``storage.pruning``): no single DELETE holds the writer, which on
SQLite answers on the event loop's thread, for as long as a whole table's worth of rows takes."""

from datetime import timedelta
from typing import Any

import pytest

from rules.contest import Side
from rules.request import NewRoller, RequestKind, RequestSpec
from storage import MessageKind, NewMessage, Storage, pruning, sql
from storage.sql import utc_now

GUILD, CHANNEL = 1, 10


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rows each pruning statement deleted, in order."""
    deleted: list[int] = []
    execute = sql.execute

    async def counted(*args: Any) -> int:
        count = await execute(*args)
        deleted.append(count)
        return count

    monkeypatch.setattr(pruning, "execute", counted)
    return deleted


async def test_handled_interactions_are_forgotten_a_batch_at_a_time(
    storage: Storage, statements: list[int]
) -> None:
    for interaction_id in range(1, 8):
        await storage.handled.claim(interaction_id)
    assert await storage.handled.prune(utc_now() - timedelta(days=1), batch=3) == 0
    assert await storage.handled.prune(utc_now() + timedelta(seconds=1), batch=3) == 7
    assert statements == [0, 3, 3, 1]
    await storage.handled.claim(1)  # forgotten: it may be handled again


async def test_delivered_outbox_rows_are_pruned_a_batch_at_a_time(
    storage: Storage, statements: list[int]
) -> None:
    said = NewMessage(
        kind=MessageKind.OUTCOME, payload={"content": "said", "allowed_mentions": {"parse": []}}
    )
    rows = await storage.outbox.add(GUILD, CHANNEL, None, [said] * 5)
    for row in rows[:4]:
        await storage.outbox.delivered(row.id, row.id + 1000)
    assert await storage.outbox.prune(utc_now() + timedelta(seconds=1), batch=2) == 4
    assert statements == [2, 2, 0]
    assert [await storage.outbox.get(row.id) is not None for row in rows] == [False] * 4 + [True]


async def test_old_requests_are_pruned_a_batch_at_a_time(storage: Storage, statements: list[int]) -> None:
    roller = NewRoller(side=Side.ACTING, character_id=0, user_id=5, name="Vin")
    made = [
        await storage.requests.create(GUILD, CHANNEL, 5, RequestKind.ROLL, RequestSpec(stat="Wits"), [roller])
        for _ in range(3)
    ]
    assert await storage.requests.prune(utc_now() + timedelta(seconds=1), batch=2) == 3
    assert statements == [2, 1]
    assert [await storage.requests.get(GUILD, request.id) for request in made] == [None] * 3
