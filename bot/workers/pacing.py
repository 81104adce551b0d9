"""Pacing the bot's own REST calls (boards, queued messages, catching up) under Discord's limits.

Discord allows a bot about 50 requests a second across all routes (interaction responses
excepted) and each route bucket (one channel's messages, say) a few per second. discord.py
sleeps out a 429 and retries, but it cannot know that a restarted bot is about to edit a
thousand boards: left alone, that start would run into the global limit and make every other
request of the bot wait behind the penalty. So every call the bot makes *on its own* (not in
answer to an interaction) first takes a turn here: a token bucket caps them all together
(:data:`GLOBAL_PER_SECOND`, below Discord's 50 to leave room), and each channel gets at most
:data:`CHANNEL_PER_SECOND`. Interaction replies never wait here, so a busy start never delays
answering the table.
"""

import asyncio
import time

GLOBAL_PER_SECOND = 25.0
"""Background REST calls per second, all channels together."""
GLOBAL_BURST = 10
CHANNEL_PER_SECOND = 5.0
"""Background REST calls per second in one channel."""
_FORGET_AFTER = 10_000
"""Channels remembered before the finished ones are dropped."""


class Pacer:
    """A token bucket for the bot's background REST calls, plus a pace per channel."""

    def __init__(
        self,
        per_second: float = GLOBAL_PER_SECOND,
        burst: int = GLOBAL_BURST,
        per_channel: float = CHANNEL_PER_SECOND,
    ) -> None:
        self.per_second = per_second
        self.burst = burst
        self.interval = 1.0 / per_channel
        self._tokens = float(burst)
        self._updated = time.monotonic()
        self._global = asyncio.Lock()
        self._next: dict[int, float] = {}
        self.waited = 0.0
        """Seconds spent waiting for turns so far (for the benchmarks and tests)."""

    async def turn(self, channel_id: int) -> None:
        """Wait until one more call to ``channel_id`` keeps within both paces."""
        now = time.monotonic()
        slot = max(now, self._next.get(channel_id, 0.0))
        self._next[channel_id] = slot + self.interval
        if len(self._next) > _FORGET_AFTER:
            self._next = {key: when for key, when in self._next.items() if when > now}
        if slot > now:
            self.waited += slot - now
            await asyncio.sleep(slot - now)
        async with self._global:  # first come, first served
            self._refill()
            if self._tokens < 1.0:
                wait = (1.0 - self._tokens) / self.per_second
                self.waited += wait
                await asyncio.sleep(wait)
                self._refill()
            self._tokens -= 1.0

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(float(self.burst), self._tokens + (now - self._updated) * self.per_second)
        self._updated = now
