"""App-command checks as named decorators (RoboDanny's ``checks.py``), on top of :mod:`bot.access`.

The checks run when the command is used, not only when Discord decides whom to show it to: a
Narrator by role alone sees every Narrator command (none is hidden behind Manage Server) and a
player who calls one is told plainly that it needs a Narrator.
"""

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from bot.access import Caller, caller_of
from bot.client import Interaction
from bot.served import guild_id_of

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


def manager_only(doing: str) -> Callable[[T], T]:
    """``@manager_only("change the server setup")``: Manage Server, checked when it is used."""

    async def predicate(interaction: Interaction) -> bool:
        (await caller(interaction)).require_manager(doing)
        return True

    return app_commands.check(predicate)


async def table_dice(interaction: Interaction) -> bool:
    """Whether this server lets players type faces from dice rolled at the table (§7.2)."""
    return (await interaction.client.storage.settings.get(guild_id_of(interaction))).table_dice


def costly(interaction: Interaction) -> app_commands.Cooldown | None:
    """The per-member cooldown of a costly command (``MISTBORN_COSTLY_PER_MINUTE``; 0: none),
    whichever servers the member calls it from.

    A member calling a heavy command in a loop would hold the event loop and the database from
    every other server; the error handler answers "Slow down: try again in N s." privately.
    """
    per_minute = interaction.client.settings.costly_per_minute
    return app_commands.Cooldown(per_minute, 60.0) if per_minute > 0 else None


def member_key(interaction: Interaction) -> int:
    """The member across every server: one process serves them all, so a member spreading calls
    over several servers must not get round the limit (counted per server, ten servers gave ten
    times the calls)."""
    return interaction.user.id


def cooldown() -> Callable[[T], T]:
    """``@cooldown()``: a costly command's per-member limit (``costly``), counted per command
    and per member across all servers (``member_key``)."""
    return app_commands.checks.dynamic_cooldown(costly, key=member_key)


THREAD_PERMISSIONS = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)
"""The bot's permissions a Conflict's own thread needs (``bot.cogs.conflict.threads``), as
Discord's settings name them."""


def missing_thread_permissions(interaction: Interaction) -> list[str]:
    """Which of :data:`THREAD_PERMISSIONS` the bot lacks where ``interaction`` was used."""
    held = interaction.app_permissions
    return [name for flag, name in THREAD_PERMISSIONS if not getattr(held, flag)]


def permission_names(missing: list[str]) -> str:
    """ "**Create Public Threads** and **Send Messages in Threads**"."""
    return " and ".join(f"**{name}**" for name in missing)
