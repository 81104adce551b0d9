"""Many concurrent writers, printing each unit once committed.

Run by ``test_database_group.py`` as a separate process and killed with SIGKILL while writes
are in flight: every unit it printed must be in the file afterwards, and every unit there whole.
Every seventh unit raises after writing; none of its rows may ever be kept.
"""

import asyncio
import sys
from datetime import UTC, datetime

from storage import RollRecord, Storage

WRITERS = 24
UNITS_PER_WRITER = 10_000
ROWS_PER_UNIT = 5


class Refused(Exception):
    pass


def record(unit: int) -> RollRecord:
    return RollRecord(
        guild_id=1,
        user_id=unit,
        at=datetime.now(UTC),
        label="x" * 150,
        dice=3,
        free_nudges=0,
        underflow=0,
        difficulty=1,
        faces=(1, 2, 3),
        result=0,
        outcome=-1,
        success=False,
    )


async def writer(storage: Storage, number: int) -> None:
    for step in range(UNITS_PER_WRITER):
        unit = step * WRITERS + number
        try:
            async with storage.transaction() as tx:
                for _ in range(ROWS_PER_UNIT):
                    await tx.rolls.append(record(unit))
                if unit % 7 == 0:
                    raise Refused
        except Refused:
            continue
        print(unit, flush=True)


async def main(path: str) -> None:
    storage = await Storage.open(path)
    await asyncio.gather(*(writer(storage, number) for number in range(WRITERS)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
