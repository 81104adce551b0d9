"""App-command checks as named decorators (RoboDanny's ``checks.py``), on top of :mod:`bot.access`."""

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from bot.access import Caller, caller_of
from bot.client import Interaction

T = TypeVar("T")


async def caller(interaction: Interaction) -> Caller:
    """Who is asking, and whether they are a Narrator here (one settings read)."""
    return await caller_of(interaction, interaction.client.storage)


def narrator_only(doing: str) -> Callable[[T], T]:
    """``@narrator_only("make secret rolls")``: an app-command check with a clear refusal."""

    async def predicate(interaction: Interaction) -> bool:
        (await caller(interaction)).require_narrator(doing)
        return True

    return app_commands.check(predicate)
