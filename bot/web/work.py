"""The web view's own workers for its heavy pure work: a page's Conflicts, a journal's HTML.

Not ``asyncio.to_thread``: that is the loop's default pool, shared with portrait decoding and
whatever else the bot hands to a thread, so pages loaded by the dozen would queue in front of a
member's portrait (and take every thread of it). Here the view has :data:`WORKERS` threads of
its own and at most :data:`WAITING` jobs given to them at once; past that a page is refused
(:class:`Busy`, said as 503 with ``Retry-After``) rather than queued without end. The routes
bound each member and each server first (``limits``), so only a crowd reaches this bound.
"""

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
WORKERS = 2
"""Threads of the view's own; the machine's cores are shared with the bot anyway."""
WAITING = 16
"""Jobs given to the workers at once, running or queued, in all."""


class Busy(Exception):
    """Every place for the view's work is taken; try again shortly."""


class WebWork:
    """A bounded pool of threads for the view, closed with it."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING) -> None:
        self.waiting = waiting
        self.taken = 0
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="web-view")

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on one of the view's threads; :class:`Busy` when all places are taken."""
        if self.taken >= self.waiting:
            raise Busy
        self.taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
        finally:
            self.taken -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
