"""The bot owner's commands: ``/sync``, the deliberate command sync (never done on an ordinary
start), and ``/status``, which process answered and which shards it holds (in a cluster, each
process answers for its own shards only, so this is how an owner finds which one is which)."""

import os
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.client import Interaction, MistbornClient
from bot.errors import BotError, NotAllowed
from bot.served import guild_id_of


class Admin(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    @app_commands.command(
        name="sync", description="Bot owner: publish the slash commands (global takes up to an hour)"
    )
    @app_commands.describe(scope="global: every server; here: this server only, at once")
    @app_commands.default_permissions(administrator=True)
    @app_commands.guild_only()
    async def sync(self, interaction: Interaction, scope: Literal["global", "here"] = "here") -> None:
        if not await self.bot.is_owner(interaction.user):
            raise NotAllowed("Only the bot's owner can sync its commands; ask whoever runs the bot.")
        if scope not in ("global", "here"):  # Discord enforces the choices; a raw payload need not
            raise BotError("Choose the scope `global` or `here`.")
        await replies.defer(interaction, ephemeral=True)
        if scope == "global":
            synced = await self.bot.tree.sync()
        else:
            guild = discord.Object(guild_id_of(interaction))
            self.bot.tree.copy_global_to(guild=guild)
            synced = await self.bot.tree.sync(guild=guild)
        await replies.send(interaction, f"Synced {len(synced)} commands ({scope}).", ephemeral=True)

    @app_commands.command(
        name="status", description="Bot owner: which shards this process holds, and its servers"
    )
    @app_commands.default_permissions(administrator=True)
    async def status(self, interaction: Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            raise NotAllowed("Only the bot's owner can see the bot's status; ask whoever runs the bot.")
        shards = self.bot.shard_plan
        here = interaction.guild_id
        lines = [
            f"This process (pid {os.getpid()}) holds {shards.describe()}.",
            f"It serves {len(self.bot.guilds)} servers; the database is {self.bot.storage.backend}.",
        ]
        if here is not None:
            lines.append(f"This server is on shard {shards.shard_of(here)}.")
        await replies.send_private(interaction, "\n".join(lines))
