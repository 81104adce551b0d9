"""Per-channel bookkeeping that forgets, so a long-running bot's memory stays flat.

A bot in many servers meets an endless stream of channels and attacks; a plain dict keyed by
them grows for as long as the process lives. Locks are kept only while someone holds or waits
for them, tasks only while they run, and caches only for the most recently used keys.
"""

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class KeyedLocks(Generic[K]):
    """One lock per key, dropped once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


class Recent(OrderedDict[K, V]):
    """A dict that keeps only its `size` most recently written or read keys."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


def forget_when_done(tasks: dict[K, "asyncio.Task[None]"], key: K, task: "asyncio.Task[None]") -> None:
    """Keep `task` under `key` while it runs only."""
    tasks[key] = task

    def drop(done: "asyncio.Task[None]") -> None:
        if tasks.get(key) is done:
            del tasks[key]

    task.add_done_callback(drop)
