"""What waits for the one writer (``storage.writer``), and which of it goes next.

Three kinds wait in one queue, oldest first: a *body* (a ``Storage.transaction()`` block, or
one repository call's statements), which runs in its caller's task once given its turn on the
connection; a *shared write* (one ``storage.sql.Statement``), which waits as data for the writer
to send it with others and their commit (``storage.shared_run``); and a *prepared unit*
(``storage.prepared``), statements and a check the writer runs itself.
"""

import asyncio
from collections import deque
from typing import Any

from storage.prepared import Prepared
from storage.sql import Statement


class Body:
    """One caller's body: its turn on the connection, how the body ended, its commit."""

    __slots__ = ("committed", "done", "savepoint", "task", "turn")

    def __init__(
        self, loop: asyncio.AbstractEventLoop, task: "asyncio.Task[Any] | None", savepoint: bool
    ) -> None:
        self.task = task
        self.savepoint = savepoint
        """A transaction body runs in a savepoint; a lone statement is atomic by itself."""
        self.turn: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[BaseException | None] = loop.create_future()
        """What the body raised (or what kept it from running), None when it ended normally."""
        self.committed: asyncio.Future[None] = loop.create_future()


class QueuedWrite:
    """One shared write waiting for the writer, and what it came to once committed."""

    __slots__ = ("committed", "write")

    def __init__(self, loop: asyncio.AbstractEventLoop, write: Statement) -> None:
        self.write = write
        self.committed: asyncio.Future[int] = loop.create_future()


class QueuedUnit:
    """One prepared unit waiting for the writer, and its result once committed."""

    __slots__ = ("committed", "prepared")

    def __init__(self, loop: asyncio.AbstractEventLoop, prepared: Prepared[Any]) -> None:
        self.prepared = prepared
        self.committed: asyncio.Future[Any] = loop.create_future()


Queued = Body | QueuedWrite | QueuedUnit
Queue = deque[Queued]
Held = tuple["asyncio.Future[Any]", Any]
"""A unit of the open batch that will be kept: its caller's future, and what it gets once the
batch commits."""


def next_in_batch(queue: Queue) -> Queued:
    """The next unit of a batch already begun: shared writes first, wherever they wait.

    Their callers (rolls, as a rule) are waiting to answer, and they cost the writer no turn of
    their own; a transaction body ahead of them would hold the connection for several turns.
    They end the batch, and the next batch starts with the oldest unit, so a shared write waits
    for one body at most, and a body for one run of shared writes at most. Moving them forward
    is safe for the reason :func:`take_writes` gives.
    """
    for index, unit in enumerate(queue):
        if isinstance(unit, QueuedWrite):
            del queue[index]
            return unit
    return queue.popleft()


def take_writes(queue: Queue, limit: int) -> list[QueuedWrite]:
    """Up to ``limit`` shared writes out of the queue, ahead of the bodies and prepared units.

    Safe to move forward: a shared write depends on nothing it read, and whatever its caller
    depends on was committed before it asked (the units it passes are not visible to anyone yet).
    """
    taken = [unit for unit in queue if isinstance(unit, QueuedWrite)][: max(0, limit)]
    if taken:
        chosen = set(map(id, taken))
        kept = [unit for unit in queue if id(unit) not in chosen]
        queue.clear()
        queue.extend(kept)
    return taken


def retrieved(future: "asyncio.Future[Any]") -> None:
    """A done-callback for a future nobody awaits any more: its error is not worth a warning."""
    if not future.cancelled():
        future.exception()
