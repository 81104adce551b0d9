"""The one door every click and every submitted form comes through (``bot.clicks``,
``bot.forms``): what the command tree does for a command (``bot.client.MistbornTree``), done
once for them, so no handler repeats it.

* Past capacity the member is told :data:`~bot.admission.BUSY` privately and nothing runs
  (``bot.admission``, which counts the handler as in flight while it runs).
* Whatever the handler raises is answered as the tree answers a command's error
  (``bot.errors.answer_error``): a user's mistake privately in its own words, a bug with the
  apology and a log line.
* Once the interaction is answered, it is released (``bot.replies.release``), so reference
  counting frees it rather than the collector. One nothing answered (an item refusing without a
  word) is left to the deadline's deferral (``bot.replies.guard``).

Each handler runs in a task of its own, named as discord.py names the task of a ``DynamicItem``'s
or a modal's callback, which tools watching the loop (the loopback Discord's harness among them)
know as an interaction's handler.
"""

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import replies
from bot.admission import BUSY, Admission
from bot.errors import BotError, answer_error

Handler = Callable[[], Awaitable[None]]
NOT_OURS = "That button, menu or form is not one of mine."
"""The answer to a custom id whose numbers no message of ours carries (only a forged click or
form sends one)."""
INTEGER_MAX = 2**63 - 1
"""The largest number a custom id of ours carries: every id fits the database's 64-bit integers."""


def check_numbers(found: re.Match[str]) -> None:
    """Refuse a custom id one of whose numbers is past :data:`INTEGER_MAX`: its template took it
    (``\\d+``), but no message of ours carries it, and the database could not look it up."""
    numbers = [part for part in found.groupdict().values() if part and part.isdecimal()]
    if any(len(number) > len(str(INTEGER_MAX)) or int(number) > INTEGER_MAX for number in numbers):
        raise BotError(NOT_OURS)


class Door:
    """Runs the handlers of clicks and forms past admission, answering their errors."""

    def __init__(self, admission: Admission, waiting_writes: Callable[[], int]) -> None:
        self.admission = admission
        self.waiting_writes = waiting_writes
        """How many writes wait for the database now (``storage.database``), which admission weighs."""
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, interaction: discord.Interaction[Any], name: str, handle: Handler) -> None:
        """Run ``handle`` for ``interaction`` in a task named ``name`` (see the module's doc)."""
        task = asyncio.get_running_loop().create_task(self.serve(interaction, handle), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def serve(self, interaction: discord.Interaction[Any], handle: Handler) -> None:
        with self.admission.serving():
            try:
                if self.admission.overloaded(self.waiting_writes()):
                    await replies.send_private(interaction, BUSY)
                    return
                await handle()
            except Exception as error:
                await answer_error(interaction, error)
            finally:
                if interaction.response.is_done():
                    replies.release(interaction)
