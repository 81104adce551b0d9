"""When each identify bucket last connected to Discord, shared by every process of a cluster.

Discord lets each ``max_concurrency`` bucket (``shard_id % max_concurrency``) IDENTIFY once per
5 seconds. discord.py's default hook sleeps 5 s before *every* re-identify, in memory, so two
processes could still identify in one bucket together, and a lone reconnect waits for nothing
while interactions miss their 3-second deadline. Here a bucket's turn is ONE statement on the
shared database: it takes the turn only if the last one is ``interval`` old, so two processes
can never both take it, and a reconnect whose bucket is free goes at once.

Times are wall-clock seconds (``time.time()``): the processes compare them with each other.
"""

from storage.session import Session
from storage.sql import fetch_all, fetch_one

_CLAIM = (
    "INSERT INTO identify_buckets (bucket, identified) VALUES (?, ?)"
    " ON CONFLICT (bucket) DO UPDATE SET identified = excluded.identified"
    " WHERE identify_buckets.identified <= ? RETURNING identified"
)


class IdentifyRepository:
    def __init__(self, session: Session) -> None:
        self._session = session

    async def claim(self, bucket: int, now: float, interval: float) -> float:
        """Take the bucket's turn at ``now`` if its last was ``interval`` ago or more, and return
        0; else change nothing and return how many seconds to wait before asking again."""
        async with self._session.writing() as conn:
            taken = await fetch_all(conn, _CLAIM, (bucket, now, now - interval))
        if taken:
            return 0.0
        row = await fetch_one(
            self._session.reader, "SELECT identified FROM identify_buckets WHERE bucket = ?", (bucket,)
        )
        last = now if row is None else float(row["identified"])
        return max(0.01, last + interval - now)
