"""A pass the bot runs in the background now and then (``bot.workers.upkeep``'s pruning, the
polls for the next night in ``bot.cogs.sessions.polls``): once when started, then every
``every`` seconds, one task however often it is started, cancelled by :meth:`close`."""

import asyncio
from abc import ABC, abstractmethod


class Repeating(ABC):
    """Runs :meth:`once` now and then every :attr:`every` seconds; ``once`` handles its own
    failures (what it cannot handle ends the task, as any task's error would)."""

    name = "repeating"

    def __init__(self, every: float) -> None:
        self.every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name=self.name)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @abstractmethod
    async def once(self) -> None:
        """One pass; each kind of background work says what it does."""

    async def _loop(self) -> None:
        while True:
            await self.once()
            await asyncio.sleep(self.every)
