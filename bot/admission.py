"""Admission control: past capacity, say "busy" at once rather than nothing three seconds later.

An interaction that cannot be answered in time is worse than one refused in plain words: the
user sees "did not respond" and may retry a move that was in fact saved. So before a command, a
click or a form runs, the tree (``bot.client``) or the door clicks and forms come through
(``bot.door``) asks :meth:`Admission.overloaded`: the event loop is far behind (its timers fire
late: everything queued before this interaction runs first) with many interactions in progress,
or too many writes wait for the database. Then the user gets :data:`BUSY` privately and nothing is
changed; an autocomplete gets no suggestions, at once (``bot.client``), since an unanswered one
fails in the member's client after 3 s just the same.

The loop's lag is measured, not guessed from an interaction's age: a delivery Discord replays
after a reconnect is old but finds an idle bot, and deserves a real answer.
"""

import asyncio
import contextlib
from collections.abc import Iterator

from bot import metrics

BUSY = "The bot is busy right now; try again in a few seconds."
LAG_LIMIT = 0.25
"""Seconds the event loop may run late before new commands are refused: past it, work queued
ahead of a new command already eats much of the 3 s it has."""
BACKLOG = 16
"""Commands in progress below which none is refused for lag: one hiccup of the loop (a start,
a garbage collection, a busy machine) must not turn a quiet bot's few users away."""
TICK = 0.05


class Admission:
    """Measures the event loop's lag in the background and says when to refuse new work."""

    def __init__(self, max_waiting_writes: int) -> None:
        self.max_waiting_writes = max_waiting_writes
        self.in_flight = 0
        """Commands, autocompletes, clicks and forms being handled right now."""
        self.lag = 0.0
        """The loop's recent lag in seconds, decaying by half each tick once it is on time."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch(), name="admission-lag")

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @contextlib.contextmanager
    def serving(self) -> Iterator[None]:
        """Count one interaction in flight while its handler runs (the tree's and the door's)."""
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1

    def overloaded(self, waiting_writes: int) -> bool:
        """Refuse while the loop is late with a backlog of interactions, or writes pile up."""
        late = self.lag > LAG_LIMIT and self.in_flight > BACKLOG
        refused = late or waiting_writes > self.max_waiting_writes
        if refused:
            metrics.OVERLOADED.inc()
        return refused

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                started = loop.time()
                await asyncio.sleep(TICK)
                late = loop.time() - started - TICK
                self.lag = max(late, self.lag / 2)
