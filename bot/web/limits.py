"""How often one web session may fetch the page's data: a token bucket per session.

Every change makes every open page fetch ``data`` again, and a Narrator's data on a large
server is megabytes; a session (a few tabs of one cookie) may burst :data:`BURST` fetches and
then :data:`PER_SECOND`, so a script replaying its cookie cannot keep the view building.
"""

from collections.abc import Callable

BURST = 8.0
PER_SECOND = 2.0
MAX_REMEMBERED = 10_000
Clock = Callable[[], float]


class Buckets:
    """One token bucket per session name."""

    def __init__(self, clock: Clock, burst: float = BURST, per_second: float = PER_SECOND) -> None:
        self.clock = clock
        self.burst = burst
        self.per_second = per_second
        self._held: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """Take one fetch for ``key``: 0 if allowed, else the seconds until one is."""
        now = self.clock()
        tokens, since = self._held.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - since) * self.per_second)
        if tokens < 1:
            self._held[key] = (tokens, now)
            return (1 - tokens) / self.per_second
        if len(self._held) >= MAX_REMEMBERED and key not in self._held:
            self._forget_full(now)
        self._held[key] = (tokens - 1, now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have filled again: forgetting them changes nothing."""
        self._held = {
            k: (t, s) for k, (t, s) in self._held.items() if t + (now - s) * self.per_second < self.burst
        }
