"""Plays the Keep Hasting round against a database, one transition per line read on stdin.

Run by ``test_transaction.py`` as a separate process: it prints ``ready`` once the sheets and
the Conflict exist, then for each line it reads applies the next command and prints its
index once committed. The test kills it with SIGKILL between (or during) transitions.
"""

import asyncio
import sys

from bot.cogs.conflict.transaction import run_transition, start_conflict
from storage import Storage
from tests.rules.conflict.keep_hasting import CHANNEL, joins, keep_hasting_sheets, round_one

GUILD = 1
STAKES = "Keep the Bylerum Boys busy while the crew works"


async def main(path: str) -> None:
    storage = await Storage.open(path)
    for sheet in keep_hasting_sheets().values():
        await storage.characters.create(GUILD, sheet)
    await start_conflict(storage, GUILD, CHANNEL, "physical", STAKES, joins(), begin=True)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    for index, command in enumerate(round_one()):
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        await run_transition(storage, GUILD, CHANNEL, command)
        print(index, flush=True)
    await storage.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
