"""Writes rolls to a database forever (within a bound), printing each id once committed.

Run by ``test_crash.py`` as a separate process and killed with SIGKILL mid-write: every id it
printed must still be in the file afterwards.
"""

import asyncio
import sys
from datetime import UTC, datetime

from storage import RollRecord, Storage

MAX_BATCHES = 100_000


async def main(path: str) -> None:
    storage = await Storage.open(path)
    for batch in range(MAX_BATCHES):
        async with storage.transaction() as tx:
            ids = [
                await tx.rolls.append(
                    RollRecord(
                        guild_id=1,
                        user_id=batch,
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
                )
                for _ in range(5)
            ]
        print(" ".join(map(str, ids)), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
