"""Bot processes of a cluster against one PostgreSQL database and the fake Discord, as deployed:
each ``python -m fake_discord.remote`` child holds its shards (``MISTBORN_SHARD_IDS``), and the
fake routes each server's events to the process holding its shard, ``(guild_id >> 22) % count``.
Shared by the cluster's fault tests (``tests/faults/test_cluster.py``, ``test_cluster_budget.py``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from fake_discord.process import BotProcess
from fake_discord.server import FakeDiscord
from fake_discord.world import DISCORD_EPOCH_MS, FakeGuild, Snowflakes

SHARDS = 2


class ShardedSnowflakes(Snowflakes):
    """Ids of the test's start, one millisecond later after each :meth:`bump`: the servers made
    between two bumps fall on the next shard (``(id >> 22) % 2`` is the millisecond's parity)."""

    def __init__(self) -> None:
        super().__init__()
        self._ms = int(time.time() * 1000) - DISCORD_EPOCH_MS

    def bump(self) -> None:
        self._ms += 1

    def next(self) -> int:
        return (self._ms << 22) | (next(self._counter) & 0x3FFFFF)


def shard_of(guild: FakeGuild, count: int = SHARDS) -> int:
    return (guild.id >> 22) % count


class Cluster:
    """Starts the cluster's processes, each on the shards it is given, all on one database."""

    def __init__(self, fake: FakeDiscord, url: str, tmp_path: Path, count: int = SHARDS) -> None:
        self.fake, self.url, self.tmp_path, self.count = fake, url, tmp_path, count
        self.processes: list[BotProcess] = []

    def process(self, name: str, shards: list[int]) -> BotProcess:
        env = {
            "DATABASE_URL": self.url,
            "MISTBORN_SHARD_COUNT": str(self.count),
            "MISTBORN_SHARD_IDS": json.dumps(shards),
            "MISTBORN_IDENTIFY_CONCURRENCY": str(self.count),  # one bucket per shard
        }
        made = BotProcess(
            self.fake,
            self.tmp_path / "unused.sqlite3",
            log_path=self.tmp_path / f"{name}.log",
            seed=7,
            env=env,
        )
        self.processes.append(made)
        return made
