"""``python -m bot cluster --processes N --shards M``: N bot processes over one database.

Big discord.py bots run several processes, each holding a range of shards, against one shared
database server: one Python process saturates one core. The launcher splits shards
``0..M-1`` into N contiguous ranges, starts ``python -m bot`` once per range with
``MISTBORN_SHARD_COUNT`` and ``MISTBORN_SHARD_IDS`` set (every other setting, ``DATABASE_URL``
included, is inherited), forwards SIGINT/SIGTERM to them, and reports each exit. A process
that dies is not restarted here: a supervisor (systemd, Kubernetes) does that better, and the
cluster's other processes go on serving their own shards meanwhile.
"""

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from types import FrameType

log = logging.getLogger("bot.cluster")


def shard_ranges(processes: int, shards: int) -> list[tuple[int, ...]]:
    """Shards ``0..shards-1`` cut into ``processes`` contiguous ranges, as even as they go."""
    if not 1 <= processes <= shards:
        raise ValueError(f"Use between 1 and {shards} processes for {shards} shards.")
    base, extra = divmod(shards, processes)
    ranges, start = [], 0
    for index in range(processes):
        size = base + (1 if index < extra else 0)
        ranges.append(tuple(range(start, start + size)))
        start += size
    return ranges


def child_environment(
    shards: int, held: Sequence[int], *, metrics_port: int | None = None, index: int = 0
) -> dict[str, str]:
    """A child's settings: its shards, and with a metrics port, its own (``metrics_port`` +
    ``index``: the processes of one machine cannot share one; 0 stays "any free port")."""
    env = os.environ | {"MISTBORN_SHARD_COUNT": str(shards), "MISTBORN_SHARD_IDS": json.dumps(list(held))}
    if metrics_port:
        env["MISTBORN_METRICS_PORT"] = str(metrics_port + index)
    return env


def launch(
    processes: int,
    shards: int,
    command: Sequence[str] = (sys.executable, "-m", "bot"),
    *,
    metrics_port: int | None = None,
) -> int:
    """Run the cluster until every process has exited; return the worst exit code."""
    ranges = shard_ranges(processes, shards)
    children = [
        subprocess.Popen(
            list(command), env=child_environment(shards, held, metrics_port=metrics_port, index=index)
        )
        for index, held in enumerate(ranges)
    ]
    for child, held in zip(children, ranges, strict=True):
        log.info("Started process %d holding shards %s of %d", child.pid, list(held), shards)

    def forward(signum: int, frame: FrameType | None) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signum)

    previous = {signum: signal.signal(signum, forward) for signum in (signal.SIGINT, signal.SIGTERM)}
    worst, running = 0, dict(zip(children, ranges, strict=True))
    try:
        while running:
            for child, held in list(running.items()):
                code = child.poll()
                if code is None:
                    continue
                del running[child]
                worst = max(worst, abs(code))
                log.warning("Process %d holding shards %s exited with code %d", child.pid, list(held), code)
            time.sleep(0.2)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return worst
