"""Issue 43's fight played from the prompts: typed commands, interactions per round, the
Narrator's share.

Run by hand: ``python -m bench.prompt_fight`` (a few seconds). Plays ``testbed.prompt_fight``
(four rounds, five fighters, every move a button, menu or form) through the real discord.py
dispatch on the fake Discord with seeded dice, and prints the counts.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from testbed.bot_env import running_bot_env, table_world
from testbed.prompt_fight import Count, PromptFight

SEED = 17


async def measure(folder: Path, seed: int = SEED) -> Count:
    async with running_bot_env(folder / "prompts.sqlite3", table_world(), seed=seed) as env:
        return await PromptFight(env).fight()


def run() -> None:
    with tempfile.TemporaryDirectory() as folder:
        count = asyncio.run(measure(Path(folder)))
    for line in count.lines():
        print(line)


if __name__ == "__main__":
    run()
