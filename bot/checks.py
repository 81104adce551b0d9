"""Who may do what, as named checks (RoboDanny's ``checks.py``).

A Narrator is anyone with Manage Server, plus members holding one of the server's Narrator roles
(``/setup narrator-role``). Manage Server always counts so a server can never lock itself out.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot.errors import NotAllowed

if TYPE_CHECKING:
    from bot.app import MistbornBot


def guild_id_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise NotAllowed("This command works in a server, not in direct messages.")
    return interaction.guild_id


async def is_narrator(interaction: discord.Interaction["MistbornBot"]) -> bool:
    guild_id = guild_id_of(interaction)
    if interaction.permissions.manage_guild:
        return True
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    settings = await interaction.client.storage.settings.get(guild_id)
    held = {role.id for role in member.roles}
    return any(role_id in held for role_id in settings.narrator_role_ids)


async def require_narrator(interaction: discord.Interaction["MistbornBot"], doing: str) -> None:
    """Refuse with a message that says what needed a Narrator."""
    if not await is_narrator(interaction):
        raise NotAllowed(f"Only a Narrator can {doing}. Ask one, or a server admin for the Narrator role.")


T = TypeVar("T")


def narrator_only(doing: str) -> Callable[[T], T]:
    """``@narrator_only("make secret rolls")``: an app-command check with a clear refusal."""

    async def predicate(interaction: discord.Interaction["MistbornBot"]) -> bool:
        await require_narrator(interaction, doing)
        return True

    return discord.app_commands.check(predicate)
