"""How often the web view's costly pages may be loaded: token buckets, and places per server.

Every change makes every open page fetch ``data`` again, and a Narrator's data on a large
server is megabytes; a session (a few tabs of one cookie) may burst :data:`BURST` fetches and
then :data:`PER_SECOND`, so a script replaying its cookie cannot keep the view building. The
"Sessions" pages are bounded per session, per server, and in how many of a server are built at
once (:class:`PageGate`), since they are loaded by hand, not at every change.
"""

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

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


class TooMany(Exception):
    """A load refused by its bounds; ``wait``: the seconds until one would be taken."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"try again in {wait:.1f} s")
        self.wait = wait


PAGE_BURST = 4.0
PAGE_PER_SECOND = 1.0
"""The Sessions pages one session may load: a burst, then this many a second."""
SERVER_BURST = 12.0
SERVER_PER_SECOND = 3.0
"""The Sessions pages of one server, every member together."""
AT_ONCE = 2
"""Sessions pages of one server being built at the same time."""


class PageGate:
    """The bounds of the "Sessions" pages (the list and each journal, a long night's is
    megabytes of HTML): a token bucket per session and one per server, and a few loads at
    once per server, so neither one member's script nor a crowd keeps the view building."""

    def __init__(self, clock: Clock, at_once: int = AT_ONCE) -> None:
        self.members = Buckets(clock, PAGE_BURST, PAGE_PER_SECOND)
        self.servers = Buckets(clock, SERVER_BURST, SERVER_PER_SECOND)
        self.at_once = at_once
        self.open: Counter[int] = Counter()

    @contextmanager
    def admitted(self, session: str, guild_id: int) -> Iterator[None]:
        """Hold one of the server's places while a page is built; :class:`TooMany` if none is free."""
        if self.open[guild_id] >= self.at_once:
            raise TooMany(1.0)
        wait = self.members.take(session) or self.servers.take(str(guild_id))
        if wait > 0:
            raise TooMany(wait)
        self.open[guild_id] += 1
        try:
            yield
        finally:
            self.open[guild_id] -= 1
            if self.open[guild_id] <= 0:
                del self.open[guild_id]
