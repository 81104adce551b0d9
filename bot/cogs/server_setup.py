"""``/setup``: who the Narrators are, where secret rolls go, whether table dice are allowed, and
whether each Conflict runs in a thread of its own (``bot.cogs.conflict.threads``).

Each change is one statement that edits the stored settings in place (``storage.settings``),
so two admins changing the setup at the same moment both get their change; the reply shows
the settings as that statement left them.

Every Narrator, by role too, sees ``/setup`` and may read it (``/setup show``); changing it
needs Manage Server, checked when the command is used (Discord's default permissions apply to
a whole command group, so they could not keep ``show`` open to Narrators by role alone).

``/setup gm-channel`` saves the channel it is given, and warns when members who are not
Narrators can read it: secret rolls posted there would not be secret (docs/rulings.md §7.1).
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import manager_only, missing_thread_permissions, narrator_only, permission_names
from bot.client import Interaction, MistbornClient
from bot.inputs.choices import WordChoice
from bot.render.common import INFO, plain
from bot.served import guild_id_of
from storage import GuildSettings

SETUP = "change the server setup"
OnOff = app_commands.Transform[
    bool, WordChoice({"on": True, "off": False}, "setting", {"on": "On", "off": "Off"})
]


def readers(channel: discord.abc.GuildChannel, settings: GuildSettings) -> list[str]:
    """Who besides the Narrators can read ``channel``: @everyone, else the roles and members
    whose overwrites let them in (a Narrator role, Manage Server and the bot's own role count as
    Narrators or as the bot)."""
    guild = channel.guild
    if channel.permissions_for(guild.default_role).view_channel:
        return ["@everyone"]
    narrator_roles = set(settings.narrator_role_ids)
    found = [
        f"@{role.name}"
        for role in guild.roles
        if not role.is_default()
        and not role.managed
        and role.id not in narrator_roles
        and not (role.permissions.manage_guild or role.permissions.administrator)
        and channel.permissions_for(role).view_channel
    ]
    for target, overwrite in channel.overwrites.items():
        if isinstance(target, discord.Role) or not overwrite.view_channel:
            continue
        member = guild.get_member(target.id)
        narrator = member is not None and (
            member.guild_permissions.manage_guild or any(r.id in narrator_roles for r in member.roles)
        )
        if not narrator:
            found.append(member.display_name if member is not None else "a member")
    return found


@app_commands.guild_only()
class ServerSetup(
    commands.GroupCog,
    group_name="setup",
    group_description="Who the Narrators are, where secret rolls go, table dice, Conflict threads",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def _show(self, interaction: Interaction, note: str, settings: GuildSettings | None = None) -> None:
        """The settings, privately; ``note`` is already inert."""
        if settings is None:
            settings = await self.bot.storage.settings.get(guild_id_of(interaction))
        roles = (
            ", ".join(f"<@&{r}>" for r in settings.narrator_role_ids) or "none (members with Manage Server)"
        )
        channel = (
            f"<#{settings.gm_channel_id}>" if settings.gm_channel_id else "none (secret rolls stay private)"
        )
        dice = (
            "on: players may type the faces of their own table rolls"
            if settings.table_dice
            else "off: the bot rolls every die (Narrators may still type theirs)"
        )
        embed = discord.Embed(title="Server setup", colour=INFO, description=note)
        embed.add_field(name="Narrator roles", value=roles, inline=False)
        embed.add_field(name="GM channel", value=channel, inline=False)
        embed.add_field(name="Table dice", value=dice, inline=False)
        threads = (
            "on: a Conflict started in a channel runs in a thread of its own"
            if settings.conflict_threads
            else "off: a Conflict runs in the channel it was started in"
        )
        embed.add_field(name="Conflict threads", value=threads, inline=False)
        spending = (
            "alone: players spend their Heroes' Advancements without a Narrator's approval"
            if settings.players_spend
            else "approved: a Narrator approves each spend of Advancements"
        )
        embed.add_field(name="Players spend", value=spending, inline=False)
        embed.set_footer(text="Members with Manage Server are always Narrators.")
        await replies.send(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="show", description="Show the Narrator roles, the GM channel and table dice")
    @narrator_only("see the server setup")
    async def show(self, interaction: Interaction) -> None:
        await self._show(interaction, "Current settings.")

    @app_commands.command(name="narrator-add", description="Let members with this role act as Narrators")
    @app_commands.describe(role="The role to add")
    @manager_only(SETUP)
    async def narrator_add(self, interaction: Interaction, role: discord.Role) -> None:
        settings = await self.bot.storage.settings.add_narrator_role(guild_id_of(interaction), role.id)
        await self._show(interaction, f"Added the role {plain(role.name)} as Narrators.", settings)

    @app_commands.command(name="narrator-remove", description="Stop treating this role as Narrators")
    @app_commands.describe(role="The role to remove")
    @manager_only(SETUP)
    async def narrator_remove(self, interaction: Interaction, role: discord.Role) -> None:
        settings = await self.bot.storage.settings.remove_narrator_role(guild_id_of(interaction), role.id)
        await self._show(interaction, f"Removed the role {plain(role.name)}.", settings)

    @app_commands.command(
        name="gm-channel", description="Copy secret rolls to this channel (leave empty to stop)"
    )
    @app_commands.describe(channel="The GM channel, one only Narrators can read; omit to clear it")
    @manager_only(SETUP)
    async def gm_channel(self, interaction: Interaction, channel: discord.TextChannel | None = None) -> None:
        guild_id = guild_id_of(interaction)
        settings = await self.bot.storage.settings.set_gm_channel(guild_id, channel.id if channel else None)
        if channel is None:
            await self._show(interaction, "GM channel cleared.", settings)
            return
        note = f"Secret rolls now go to #{plain(channel.name)}."
        if found := readers(channel, settings):
            listed = ", ".join(plain(who) for who in found[:10])
            note += (
                f"\n⚠️ Not only Narrators can read #{plain(channel.name)} ({listed}): secret rolls "
                "posted there are not secret. Pick a channel only Narrators can see, or change its "
                "permissions."
            )
        await self._show(interaction, note, settings)

    @app_commands.command(
        name="table-dice", description="Let players type the faces of dice they roll at a physical table"
    )
    @app_commands.describe(allowed="on: players may type their own table dice; off: the bot rolls them")
    @manager_only(SETUP)
    async def table_dice(self, interaction: Interaction, allowed: OnOff) -> None:
        settings = await self.bot.storage.settings.set_table_dice(guild_id_of(interaction), allowed)
        await self._show(interaction, "Table dice are on." if allowed else "Table dice are off.", settings)

    @app_commands.command(
        name="players-spend", description="Let players spend Advancements without a Narrator's approval"
    )
    @app_commands.describe(setting="on: players spend alone; off: a Narrator approves each spend")
    @manager_only(SETUP)
    async def players_spend(self, interaction: Interaction, setting: OnOff) -> None:
        settings = await self.bot.storage.settings.set_players_spend(guild_id_of(interaction), setting)
        note = (
            "Players now spend their Heroes' Advancements alone (still one improvement a Long Breather)."
            if setting
            else "A Narrator now approves each spend of Advancements."
        )
        await self._show(interaction, note, settings)

    @app_commands.command(
        name="conflict-threads",
        description="Run each Conflict in a thread of its own, linked from the channel",
    )
    @app_commands.describe(setting="on: each new Conflict gets its own thread; off: it runs in the channel")
    @manager_only(SETUP)
    async def conflict_threads(self, interaction: Interaction, setting: OnOff) -> None:
        settings = await self.bot.storage.settings.set_conflict_threads(guild_id_of(interaction), setting)
        note = (
            "Each new Conflict now runs in a thread of its own; the channel gets a link to it, "
            "and the summary when it ends."
            if setting
            else "Conflicts now run in the channel they are started in."
        )
        missing = missing_thread_permissions(interaction)
        if setting and missing:
            note += (
                f"\n⚠️ The bot lacks {permission_names(missing)} here: give it to the bot's role, "
                "or fights run in the channel."
            )
        await self._show(interaction, note, settings)
