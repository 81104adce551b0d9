"""Autocomplete for Conflict options: participants of this channel's Conflict, and their stats.

Suggestions only: every callback re-checks what it is given. A suggestion list never fails the
interaction, so lookups that go wrong simply suggest nothing.
"""

from typing import TYPE_CHECKING, TypeAlias

import discord
from discord import app_commands

from rules.character.stats import rollable_names
from storage.conflict_runner import current_conflict
from storage.errors import StorageError

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
Choices = list[app_commands.Choice[str]]


async def participant_choices(interaction: Interaction, current: str) -> Choices:
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    conflict = await current_conflict(
        interaction.client.storage, interaction.guild_id, interaction.channel_id
    )
    if conflict is None:
        return []
    key = current.strip().casefold()
    names = [p.name for p in conflict.participants if key in p.name.casefold()]
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


async def stat_choices(interaction: Interaction, current: str) -> Choices:
    """Stats and Powers of ``who`` (or of the caller's own participant)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    storage = interaction.client.storage
    conflict = await current_conflict(storage, interaction.guild_id, interaction.channel_id)
    if conflict is None:
        return []
    who = getattr(interaction.namespace, "who", None)
    key = who.strip().casefold() if isinstance(who, str) and who.strip() else None
    for participant in conflict.participants:
        if key is not None and participant.name.casefold() != key:
            continue
        try:
            stored = await storage.characters.get(interaction.guild_id, participant.id)
        except StorageError:
            continue
        if key is None and stored.character.owner_id != interaction.user.id:
            continue
        typed = current.strip().casefold()
        names = [n for n in rollable_names(stored.character) if typed in n.casefold()]
        return [app_commands.Choice(name=n, value=n) for n in names[:25]]
    return []
