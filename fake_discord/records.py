"""What the fake remembers about each interaction, and how to wait until the bot is done with one.

A record stays live: the server keeps appending to it, so a test can hold one and wait for a
late followup, while `settle()` gives the console and harness a bounded "the bot has finished
answering" that does not depend on guessing a sleep.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fake_discord.payloads import EPHEMERAL, LOADING
from fake_discord.render import render_record

JSON = dict[str, Any]

# Tasks discord.py names when it runs app command, view, modal and dynamic item callbacks.
HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-modal-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_interaction",
)
POLL = 0.002
"""How often `settle` looks for the bot's callback task before one has started."""
CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = (
    4,
    5,
    6,
    7,
    8,
    9,
)


@dataclass(frozen=True)
class Violation:
    """A payload real Discord would reject (`rejected`) or that breaks a house rule (recorded only)."""

    route: str
    problem: str
    rejected: bool


class InteractionRecord:
    """One interaction sent to the bot and everything the bot answered to it."""

    def __init__(self, payload: JSON, sent_at: float) -> None:
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.sent_at = sent_at
        self.responded_at: float | None = None
        """:func:`clock` time the initial callback arrived (set with `response`); `None` until then."""
        self._response: JSON | None = None
        self.original: JSON | None = None
        self.followups: list[JSON] = []
        self.errors: list[JSON] = []
        self.version = 0
        self._pulse = asyncio.Event()

    @property
    def response(self) -> JSON | None:
        """The initial callback body (`{type, data}`), once the bot has sent one."""
        return self._response

    @response.setter
    def response(self, body: JSON | None) -> None:
        if body is not None and self.responded_at is None:
            self.responded_at = clock()
        self._response = body

    @property
    def ack_latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE leaving the fake to the initial callback reaching it."""
        return None if self.responded_at is None else self.responded_at - self.sent_at

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} response={self.response_type}>"

    def touch(self) -> None:
        """Wake everyone waiting on this record; called by the server after each change."""
        self.version += 1
        self._pulse.set()
        self._pulse = asyncio.Event()

    async def wait_for(self, predicate: Callable[[InteractionRecord], bool], timeout: float) -> bool:
        """Wait (at most `timeout` s) until `predicate(self)` holds; return whether it does."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    pulse = self._pulse
                    if predicate(self):
                        return True
                    await pulse.wait()
        except TimeoutError:
            return predicate(self)

    async def wait_response(self, timeout: float = 3.5) -> bool:
        """Wait for the initial callback (Discord's window is 3 s); True once it has arrived."""
        return await self.wait_for(lambda record: record.response is not None, timeout)

    @property
    def response_type(self) -> int | None:
        return None if self.response is None else int(self.response["type"])

    @property
    def data(self) -> JSON:
        return (self.response or {}).get("data") or {}

    @property
    def choices(self) -> list[JSON]:
        """Autocomplete suggestions (response type 8)."""
        return list(self.data.get("choices") or []) if self.response_type == AUTOCOMPLETE_RESULT else []

    @property
    def modal(self) -> JSON | None:
        return self.data if self.response_type == MODAL else None

    @property
    def messages(self) -> list[JSON]:
        """The original response (unless still "thinking") followed by the followups."""
        first = [self.original] if self.original and not self.original["flags"] & LOADING else []
        return first + self.followups

    @property
    def message(self) -> JSON | None:
        return self.original if self.original is not None else next(iter(self.followups), None)

    @property
    def content(self) -> str:
        return str((self.message or {}).get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return list((self.message or {}).get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return list((self.message or {}).get("components") or [])

    @property
    def ephemeral(self) -> bool:
        return bool(int((self.message or {}).get("flags") or 0) & EPHEMERAL)

    @property
    def deferred(self) -> bool:
        return self.response_type in (DEFERRED_MESSAGE, DEFERRED_UPDATE)

    @property
    def text(self) -> str:
        """Everything answered so far, rendered as the console shows it."""
        return render_record(self)


def clock() -> float:
    """The fake's clock for `sent_at` and `responded_at`: monotonic seconds, which is what
    asyncio's own loop.time() reads, to the microsecond under any loop (uvloop's loop.time()
    counts whole milliseconds, cached once per turn of the loop)."""
    return time.monotonic()


def _changed_since(version: int) -> Callable[[InteractionRecord], bool]:
    return lambda record: record.version != version


def handler_tasks() -> set[asyncio.Task[Any]]:
    """discord.py callback tasks still running in this loop (only meaningful for an in-process bot)."""
    return {
        task
        for task in asyncio.all_tasks()
        if not task.done() and task.get_name().startswith(HANDLER_TASK_PREFIXES)
    }


async def settle(
    record: InteractionRecord, *, ack_timeout: float = 3.5, total: float = 15.0, idle: float = 0.0
) -> None:
    """Return once the bot has stopped working on `record`, bounded by `total` seconds.

    Done means: no discord.py callback task is running and nothing changed for `idle` seconds
    (by default one pass of the event loop), after either a response arrived or a callback ran
    and ended without one. With no response and no callback at all, give up after `ack_timeout`
    (Discord's "did not respond"). Callback tasks are awaited, not polled, so a command costs
    its own time and no more.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + total
    start = loop.time()
    seen_busy = False
    while (left := deadline - loop.time()) > 0:
        busy = handler_tasks()
        if busy:
            seen_busy = True
            await asyncio.wait(busy, timeout=left)
            continue
        if record.response is not None or seen_busy:
            version = record.version
            await asyncio.sleep(idle)
            if not handler_tasks() and record.version == version:
                return
            continue
        if loop.time() - start > ack_timeout:
            return
        # Nothing to await yet: the bot has not read the event from its socket. Look again soon.
        await record.wait_for(_changed_since(record.version), min(POLL, left))
