"""Writes rolls to a database forever (within a bound), printing each id once committed.

Run by ``test_crash.py`` as a separate process and killed with SIGKILL mid-write: every id it
printed must still be in the file afterwards.
"""

import asyncio
import sys

from storage import Storage
from tests.storage.group_crash_writer import record

MAX_BATCHES = 100_000


async def main(path: str) -> None:
    storage = await Storage.open(path)
    for batch in range(MAX_BATCHES):
        async with storage.transaction() as tx:
            ids = [await tx.rolls.append(record(batch)) for _ in range(5)]
        print(" ".join(map(str, ids)), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
