"""``/setup``: who the Narrators are and where secret rolls go.

Each change is one statement that edits the stored settings in place (``storage.settings``),
so two admins changing the setup at the same moment both get their change; the reply shows
the settings as that statement left them.
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import guild_id_of
from bot.checks import narrator_only
from bot.client import Interaction, MistbornClient
from bot.render.common import INFO, plain
from storage import GuildSettings


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ServerSetup(
    commands.GroupCog,
    group_name="setup",
    group_description="Who the Narrators are, and where secret rolls go",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def _show(self, interaction: Interaction, note: str, settings: GuildSettings | None = None) -> None:
        if settings is None:
            settings = await self.bot.storage.settings.get(guild_id_of(interaction))
        roles = (
            ", ".join(f"<@&{r}>" for r in settings.narrator_role_ids) or "none (members with Manage Server)"
        )
        channel = (
            f"<#{settings.gm_channel_id}>" if settings.gm_channel_id else "none (secret rolls stay private)"
        )
        embed = discord.Embed(title="Server setup", colour=INFO, description=plain(note))
        embed.add_field(name="Narrator roles", value=roles, inline=False)
        embed.add_field(name="GM channel", value=channel, inline=False)
        embed.set_footer(text="Members with Manage Server are always Narrators.")
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="show", description="Show the Narrator roles and the GM channel")
    async def show(self, interaction: Interaction) -> None:
        await self._show(interaction, "Current settings.")

    @app_commands.command(name="narrator-add", description="Let members with this role act as Narrators")
    @app_commands.describe(role="The role to add")
    @narrator_only("change the server setup")
    async def narrator_add(self, interaction: Interaction, role: discord.Role) -> None:
        settings = await self.bot.storage.settings.add_narrator_role(guild_id_of(interaction), role.id)
        await self._show(interaction, f"Added the role {role.name} as Narrators.", settings)

    @app_commands.command(name="narrator-remove", description="Stop treating this role as Narrators")
    @app_commands.describe(role="The role to remove")
    @narrator_only("change the server setup")
    async def narrator_remove(self, interaction: Interaction, role: discord.Role) -> None:
        settings = await self.bot.storage.settings.remove_narrator_role(guild_id_of(interaction), role.id)
        await self._show(interaction, f"Removed the role {role.name}.", settings)

    @app_commands.command(
        name="gm-channel", description="Copy secret rolls to this channel (leave empty to stop)"
    )
    @app_commands.describe(channel="The GM channel; omit to clear it")
    @narrator_only("change the server setup")
    async def gm_channel(self, interaction: Interaction, channel: discord.TextChannel | None = None) -> None:
        guild_id = guild_id_of(interaction)
        settings = await self.bot.storage.settings.set_gm_channel(guild_id, channel.id if channel else None)
        note = f"Secret rolls now go to #{channel.name}." if channel else "GM channel cleared."
        await self._show(interaction, note, settings)
