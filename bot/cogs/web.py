"""``/web``: a private link to this server's live Conflicts and sheets in a browser (``bot.web``).

The link carries a signed token bound to the server, the member and their role now, valid 15
minutes and swapped once for a session cookie (``bot.web.tokens``). A Narrator's page shows
every number; a player's shows their own Heroes, and the Conflicts they are in or of the
channel they asked from, as the table sees them (docs/rulings.md §7.1). The answer is private,
so nobody else can open someone's link. Each ``/web`` ends the member's older sessions, and
``/web logout:True`` ends them without a new link (``storage.web``, the session generation).
"""

import time

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.access import caller_of, member_role_ids
from bot.client import Interaction, MistbornClient
from bot.web.server import link_url
from bot.web.tokens import LINK_LIFE, link_grant, sign, signing_key

LOGGED_OUT = "Every page of the web view you had open here has ended. `/web` gives you a new link."
NOT_ENABLED = (
    "The web view is not enabled on this bot. Its host enables it by setting `MISTBORN_WEB_PORT` "
    "(the bot then serves it), or `MISTBORN_WEB_PUBLIC_URL` when it runs on its own "
    "(`python -m bot web`); see docs/web-view.md in the bot's repository."
)


def link_view(url: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label="Open the view", url=url))
    return view


class WebCommands(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    @app_commands.command(
        name="web",
        description="Open this server's live Conflicts and sheets in a browser",
        extras={"private": True},  # a late answer stays private: its link is the caller's alone
    )
    @app_commands.describe(logout="True: end every page of the view you have open, without a new link")
    async def web(self, interaction: Interaction, logout: bool = False) -> None:
        base = self.bot.web_url
        storage = self.bot.storage
        if logout:
            caller = await caller_of(interaction, storage)
            await storage.web.renew(caller.guild_id, caller.user_id)
            await replies.send(interaction, LOGGED_OUT, ephemeral=True)
            return
        if base is None:
            await replies.send(interaction, NOT_ENABLED, ephemeral=True)
            return
        caller = await caller_of(interaction, storage)
        server = await storage.settings.get(caller.guild_id)
        grant = link_grant(
            caller.guild_id,
            caller.user_id,
            narrator=caller.narrator,
            manages_server=caller.manages_server,
            narrator_roles=member_role_ids(interaction) & set(server.narrator_role_ids),
            now=time.time(),
            generation=await storage.web.renew(caller.guild_id, caller.user_id),
            channel_id=interaction.channel_id,
        )
        token = sign(grant, await signing_key(self.bot.settings, storage))
        minutes = int(LINK_LIFE.total_seconds() // 60)
        shows = (
            "every live Conflict with all its numbers, and every sheet of this server"
            if caller.narrator
            else "your Heroes, and the Conflicts they are in or of this channel, as the table sees them"
        )
        await replies.send(
            interaction,
            f"Your view in a browser: {shows}. The link is yours alone: it works once, within "
            f"{minutes} minutes, and the page then updates by itself. It ends the pages you "
            "opened before; `/web logout:True` ends them all.",
            view=link_view(link_url(base, token)),
            ephemeral=True,
        )
