"""A Conflict move on PostgreSQL costs at most 3 network round trips (issue 31).

Every statement is a trip to the server there, and a move took 16 (with a roll, a damaged sheet
and an outbox row) before ``storage.moves``; it takes 2 now. Counted at
asyncpg's connection, under the repositories: every query, every BEGIN and COMMIT, and the
pool's reset of a connection it takes back.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from bot.cogs.conflict.transaction import run_transition
from rules.conflict import SpendNudges
from storage import Storage
from storage.errors import AlreadyHandledError
from storage.outbox import MessageKind, NewMessage
from storage.rolls import RollRecord
from storage.sql import fetch_one
from tests.bot.cogs.conflict.moves.crash_conflict import GUILD
from tests.bot.cogs.conflict.moves.test_transaction import DECLARED, keep_hasting
from tests.rules.conflict.keep_hasting import CARROW, CHANNEL, THORROW, round_one

CALLS = ("execute", "executemany", "fetch", "fetchrow", "fetchval")


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the asyncpg calls made inside the block, one per round trip."""
    made: list[str] = []

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            made.append(f"{name} {str(args[0])[:60] if args else ''}")
            return await original(self, *args, **kwargs)

        return call

    with monkeypatch.context() as patch:
        for name in CALLS:
            patch.setattr(asyncpg.connection.Connection, name, wrap(name, getattr(asyncpg.Connection, name)))
        yield made


OUTCOME = NewMessage(kind=MessageKind.OUTCOME, payload={"content": "the outcome"})


def a_roll() -> RollRecord:
    return RollRecord(
        guild_id=GUILD,
        user_id=7,
        at=datetime.now(UTC),
        label="damage",
        dice=2,
        free_nudges=0,
        underflow=0,
        difficulty=0,
        faces=(3, 5),
        result=0,
        outcome=0,
        success=False,
    )


@pytest.mark.parametrize("storage", ["postgres"], indirect=True)
async def test_a_move_takes_at_most_three_round_trips(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await keep_hasting(storage, DECLARED + 2)
    move = SpendNudges(participant=THORROW, story=2, damage=2)
    with counted(monkeypatch) as trips:
        applied = await run_transition(
            storage, GUILD, CHANNEL, move, messages=[OUTCOME], rolls=[a_roll()], interaction_id=4242
        )
    assert len(trips) <= 3, trips
    # ... and every write of the move is there: the sheet, the Conflict, the roll, the outbox row.
    assert (await storage.characters.get(GUILD, CARROW)).character.damage.health == 5
    assert applied.stored == await storage.conflicts.get(GUILD, CHANNEL)
    assert [roll.faces for roll in await storage.rolls.recent(GUILD)] == [(3, 5)]
    [message] = applied.messages
    assert await storage.outbox.get(message.id) == message
    # The claim is in the one statement too: the same interaction again changes nothing.
    with pytest.raises(AlreadyHandledError):
        await run_transition(
            storage,
            GUILD,
            CHANNEL,
            round_one()[DECLARED + 3],
            messages=[OUTCOME],
            rolls=[a_roll()],
            interaction_id=4242,
        )
    assert applied.stored == await storage.conflicts.get(GUILD, CHANNEL)
    row = await fetch_one(storage.database.reader, "SELECT COUNT(*) AS n FROM roll_log")
    assert row is not None and row["n"] == 1
