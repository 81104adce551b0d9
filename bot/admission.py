"""Admission control: past capacity, say "busy" at once rather than nothing three seconds later.

An interaction that cannot be answered in time is worse than one refused in plain words: the
user sees "did not respond" and, worse, may retry a move that was in fact saved. So before a
command runs, the tree asks :func:`overloaded`: the event loop is already far behind (the
interaction reached us late), or too many writes wait for the database. Then the user gets
:data:`BUSY` privately and nothing is changed.
"""

from typing import Any

import discord

from bot.replies import age

BUSY = "The bot is busy right now; try again in a few seconds."
LATE_AFTER = 1.0
"""Seconds since Discord created an interaction past which it is refused: the loop is that far
behind, and the work would likely not finish before the 3-second deadline."""


def overloaded(interaction: discord.Interaction[Any], waiting_writes: int, max_waiting_writes: int) -> bool:
    """Whether to refuse `interaction` as busy (see the module's docstring)."""
    return age(interaction) > LATE_AFTER or waiting_writes > max_waiting_writes
