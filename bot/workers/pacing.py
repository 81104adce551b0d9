"""Pacing the bot's own REST calls (boards, queued messages, catching up) under Discord's limits.

Discord allows a bot 50 requests a second across all routes and *all its processes*
(interaction answers aside), and each route bucket (one channel's messages, say) a few per
second. discord.py sleeps out a 429 and retries, but it cannot know that a restarted bot is
about to edit a thousand boards: left alone, that start would run into the global limit and make
every other request of the bot wait behind the penalty. So every call the bot makes *on its
own* (not in answer to an interaction) first takes a turn here: a token bucket caps them all
together, and each channel gets at most :data:`CHANNEL_PER_SECOND`. Interaction replies never
wait here, so a busy start never delays answering the table.

**A cluster shares one budget.** The bot's background calls may take :data:`BOT_PER_SECOND`
(below Discord's 50, leaving room for the calls interactions make outside their answers: a
thread made, a board reposted), and each process takes the share of it that its shards are of
all shards (:attr:`bot.config.ShardPlan.share`): two processes holding 4 of 8 shards each pace
at 20 a second, a lone process at 40. The shares of a cluster's processes add up to the whole
however the shards are cut, and each process knows its share from its own settings, with no
call to the database or to another process. A token bucket shared through PostgreSQL would
also lend an idle process's share to a busy one, but would cost a database round trip per few
calls and a second design for SQLite; the static share holds the limit, and a process catching
up alone only takes longer. During a redeploy's overlap, two processes holding one shard may
each take its share for a while: the margin under 50 is for that too, and beyond it Discord's
global 429 stops the process that hit it (:meth:`Pacer.pause`).

**A global 429 pauses the pacer.** discord.py already obeys a 429 with ``X-RateLimit-Global``:
it holds every request of the process until ``retry_after`` has passed, then retries. But turns
handed out meanwhile would pile up behind that hold and leave together the moment it lifts; so
the bot's watch on Discord's answers (``bot.rest_watch``) also pauses the pacer for as long, and
the background work waits here, at its pace, instead.
"""

import asyncio
import time

BOT_PER_SECOND = 40.0
"""Background REST calls per second, all channels and every process of the bot together."""
BOT_BURST = 5.0
"""Calls the whole bot may make at once after a quiet spell (shared out as the rate is)."""
CHANNEL_PER_SECOND = 5.0
"""Background REST calls per second in one channel."""
_FORGET_AFTER = 10_000
"""Channels remembered before the finished ones are dropped."""


class Pacer:
    """A token bucket for this process's share of the bot's background REST calls, plus a pace
    per channel; ``share``: the part of the bot's budget this process may use (0 < share ≤ 1)."""

    def __init__(self, share: float = 1.0, *, per_channel: float = CHANNEL_PER_SECOND) -> None:
        if not 0.0 < share <= 1.0:
            raise ValueError(f"A process's share of the budget is in (0, 1], not {share}")
        self.per_second = BOT_PER_SECOND * share
        self.burst = max(1.0, BOT_BURST * share)
        self.interval = 1.0 / per_channel
        self._tokens = self.burst
        self._updated = time.monotonic()
        self._paused_until = 0.0
        self._global = asyncio.Lock()
        self._next: dict[int, float] = {}
        self.waited = 0.0
        """Seconds spent waiting for turns so far (for the benchmarks and tests)."""
        self.pauses = 0
        """Global 429s that paused the pacer so far."""

    async def turn(self, channel_id: int) -> None:
        """Wait until one more call to ``channel_id`` keeps within both paces."""
        now = time.monotonic()
        slot = max(now, self._next.get(channel_id, 0.0))
        self._next[channel_id] = slot + self.interval
        if len(self._next) > _FORGET_AFTER:
            self._next = {key: when for key, when in self._next.items() if when > now}
        if slot > now:
            await self._sleep(slot - now)
        async with self._global:  # first come, first served
            while (paused := self._paused_until - time.monotonic()) > 0:
                await self._sleep(paused)
            self._refill()
            if self._tokens < 1.0:
                await self._sleep((1.0 - self._tokens) / self.per_second)
                self._refill()
            self._tokens -= 1.0

    def pause(self, seconds: float) -> None:
        """Hand out no turn for ``seconds`` (Discord's global limit was hit), and start again
        from an empty bucket: no burst when the pause ends."""
        self.pauses += 1
        self._paused_until = max(self._paused_until, time.monotonic() + seconds)
        self._tokens = 0.0
        self._updated = self._paused_until

    @property
    def paused(self) -> bool:
        return time.monotonic() < self._paused_until

    async def _sleep(self, seconds: float) -> None:
        self.waited += seconds
        await asyncio.sleep(seconds)

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + max(0.0, now - self._updated) * self.per_second)
        self._updated = max(self._updated, now)
