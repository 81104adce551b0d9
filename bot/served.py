"""Where an interaction comes from: the server the bot serves it in (or none), its channel, and the
table it belongs to (docs/architecture.md, "Dice anywhere"; where what it says was said, for the
journal and the roll log, is ``bot.reach``).

Every command, button and form asks these rather than the interaction's raw ids, so one place
refuses what the bot cannot serve: a server command in a direct message, a channel-less
interaction.
"""

import discord

from bot.errors import DM_REFUSAL, BotError, NotAllowed


def served_guild_id(interaction: discord.Interaction[discord.Client]) -> int | None:
    """The server the bot serves this interaction in, or None: a direct message, a group DM, or
    a server the bot is not in, where a member used a command of the app they installed for
    themselves (docs/architecture.md, "Dice anywhere"). Discord says a server installed the app
    for the interaction (``authorizing_integration_owners``), or the bot holds the server."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return None
    if interaction.is_guild_integration() or interaction.client.get_guild(guild_id) is not None:
        return guild_id
    return None


def guild_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The server the interaction came from; refused anywhere the bot serves no server."""
    guild_id = served_guild_id(interaction)
    if guild_id is None:
        raise NotAllowed(DM_REFUSAL)
    return guild_id


def usable_anywhere(command: object) -> bool:
    """Whether a command also works where the bot serves no server: those a member may install
    for themselves (``allowed_installs(users=True)``: ``/roll``, ``/read``, ``/odds``)."""
    root = getattr(command, "root_parent", None) or command
    installs = getattr(root, "allowed_installs", None)
    return bool(installs is not None and installs.user)


def channel_id_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The channel the interaction came from (Conflicts and boards live in one)."""
    if interaction.channel_id is None:
        raise BotError("This works in a server channel: run it in one of its text channels.")
    return interaction.channel_id


def table_channel_of(interaction: discord.Interaction[discord.Client]) -> int:
    """The table an interaction belongs to, for the session's journal: a thread's parent channel
    (a Conflict in its own thread is still that channel's night), else the channel itself."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    return channel_id_of(interaction)
