"""Two processes on one PostgreSQL database: moves on one Conflict never lose an update.

Each :class:`Storage` here has its own pool of connections, as each process of a cluster does,
so nothing in one process's memory (no lock, no cache) orders the moves: only the row locks
``ConflictRepository.lock`` takes, and the version checks, do.
"""

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.cogs.conflict.transaction import run_transition
from rules.character import Character, CharacterKind
from rules.conflict import Act, AdjustDice, Pass
from rules.errors import RulesError
from storage import Storage
from storage.character_rows import SheetLimits
from storage.conflict_moves import current_conflict
from testbed.pg_server import PgServer
from tests.bot.cogs.conflict.moves.crash_conflict import GUILD
from tests.bot.cogs.conflict.moves.test_transaction import DECLARED, keep_hasting
from tests.rules.conflict.keep_hasting import CHANNEL, THORROW


@pytest.fixture
async def two(pg_server: PgServer) -> AsyncIterator[tuple[Storage, Storage]]:
    url = await pg_server.create_database()
    try:
        async with await Storage.open(url=url) as first, await Storage.open(url=url) as second:
            yield first, second
    finally:
        await pg_server.drop_database(url)


async def test_adjustments_from_two_processes_are_all_counted(two: tuple[Storage, Storage]) -> None:
    first, second = two
    await keep_hasting(first, DECLARED)
    results = await asyncio.gather(
        *(
            run_transition(side, GUILD, CHANNEL, AdjustDice(participant=THORROW, delta=1))
            for _ in range(20)
            for side in (first, second)
        )
    )
    versions = sorted(r.stored.version for r in results if r.stored)
    assert versions == list(range(DECLARED + 2, DECLARED + 42))
    for side in two:
        final = await current_conflict(side, GUILD, CHANNEL)
        assert final is not None and final.participant(THORROW).round.action_dice == 12 + 40


async def test_one_attack_from_two_processes_is_applied_once(two: tuple[Storage, Storage]) -> None:
    first, second = two
    await keep_hasting(first, DECLARED)
    outcomes = await asyncio.gather(
        *(run_transition(first, GUILD, CHANNEL, Act(participant=THORROW, pool=2)) for _ in range(10)),
        *(run_transition(second, GUILD, CHANNEL, Pass(participant=THORROW)) for _ in range(10)),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and all(isinstance(o, RulesError) for o in refused)


async def test_sheet_limits_hold_across_processes(two: tuple[Storage, Storage]) -> None:
    """Counting and creating happen under one lock per server, whichever process asks."""
    limits = SheetLimits(per_server=5, per_member=50)
    outcomes = await asyncio.gather(
        *(
            side.characters.create(
                GUILD, Character(name=f"Guard {n}-{i}", kind=CharacterKind.EXTRA, owner_id=1), limits
            )
            for n, side in enumerate(two)
            for i in range(6)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 5
    assert len(await two[0].characters.list_by_guild(GUILD)) == 5
