"""Answers Discord gave, kept until they expire: what the web view asks of Discord about a member
(``standing``, ``reach``) is asked again only once its answer is old."""

from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Remembered(Generic[K, V]):
    """Each key's answer with the moment it expires; at most ``limit`` kept (the expired go first)."""

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._known: dict[K, tuple[float, V]] = {}

    async def get(self, key: K, now: float, ask: Callable[[], Awaitable[tuple[float, V]]]) -> V:
        """The answer for ``key``, asked (``ask`` gives it and when it expires) when none holds at ``now``."""
        known = self._known.get(key)
        if known is None or known[0] <= now:
            known = await ask()
            if len(self._known) >= self.limit:
                self._known = {k: v for k, v in self._known.items() if v[0] > now}
            self._known[key] = known
        return known[1]
