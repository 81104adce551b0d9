"""``/character``: show, list, reveal, rename, delete, choose and export sheets, and the "View
sheet" member menu; making and importing them is ``create`` (a mixin of this cog).

Rulings (docs/rulings.md §6.9, §7.1):

* Anyone in the server may read a Hero's sheet (show, list, export, the menu); a Villain's or an
  Extra's only a Narrator, until a Narrator reveals it (``/character reveal``). The Narrator's
  look at a secret sheet, and a list that names one, are private unless they say otherwise.
* Only a Hero's owner or a Narrator may change, delete or choose it; a Villain or Extra, only a
  Narrator. Making a Villain, an Extra or a character for someone else needs a Narrator.
"""

import io
import re
import unicodedata

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.access import require_read_of
from bot.checks import caller, cooldown
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.common import NAME_TO_READ, load_to_change, load_to_read
from bot.cogs.characters.create import MakeCommands
from bot.cogs.characters.portrait import FORM_ID as PORTRAIT_FORM
from bot.cogs.characters.portrait import PortraitButton, PortraitCommands, send_sheet
from bot.cogs.characters.views import BUTTONS as DELETE_BUTTONS
from bot.cogs.characters.views import DeleteView
from bot.errors import BotError
from bot.inputs.characters import AnyCharacter, NewName, OwnCharacter
from bot.render.common import plain
from bot.render.sheet import change_embed, roster_embed
from bot.secrecy import is_secret
from bot.served import guild_id_of
from rules.character import (
    CharacterKind,
    export_character,
)
from rules.words import is_group, verb

NO_PINGS = discord.AllowedMentions.none()
PAGE_SIZE = 25
"""Names per page of ``/character list``: one screen, and a query that stays cheap at any size."""


def file_name(name: str) -> str:
    """A safe ASCII file name for a character's export."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_name).strip("-")[:40]
    return f"{slug or 'character'}.json"


@app_commands.guild_only()
class CharacterCommands(
    PortraitCommands,
    MakeCommands,
    commands.GroupCog,
    group_name="character",
    group_description=(
        "Character sheets: make, show, list, reveal, choose, rename, delete, portrait, import, export"
    ),
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        self.menu = app_commands.ContextMenu(name="View sheet", callback=self.view_sheet)
        self.menu.guild_only = True
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)
        self.bot.add_dynamic_items(*DELETE_BUTTONS, PortraitButton)
        self.bot.forms.add(PORTRAIT_FORM, self.portrait_submitted)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)
        self.bot.remove_dynamic_items(*DELETE_BUTTONS, PortraitButton)
        self.bot.forms.remove(PORTRAIT_FORM)

    async def view_sheet(self, interaction: Interaction, member: discord.Member) -> None:
        """User menu: the member's active character, privately (if the caller may read it)."""
        stored = await self.bot.storage.active.get(guild_id_of(interaction), member.id)
        if stored is None:
            raise BotError(
                f"{plain(member.display_name)} has no active character in this server; "
                "they choose one with `/character use`."
            )
        await require_read_of(interaction, self.bot.storage, stored.character, stored.revealed)
        await send_sheet(interaction, stored, ephemeral=True)

    @app_commands.command(name="show", description="Show a character sheet")
    @app_commands.describe(
        name=NAME_TO_READ,
        private="Show it only to you (default: yes for the Narrator's secret sheets, else no)",
    )
    async def show(
        self, interaction: Interaction, name: AnyCharacter | None = None, private: bool | None = None
    ) -> None:
        stored = await load_to_read(interaction, name)
        secret = is_secret(stored.character.kind, stored.revealed)
        await send_sheet(interaction, stored, ephemeral=secret if private is None else private)

    @cooldown()
    @app_commands.command(name="list", description="List the characters in this server")
    @app_commands.describe(
        member="Only this member's characters",
        private="Show the list only to you (default: yes when it names the Narrator's secret ones)",
        page=f"Which page of {PAGE_SIZE} names, in name order (default 1)",
    )
    async def list_characters(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        private: bool | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        guild_id = guild_id_of(interaction)
        who = await caller(interaction)
        total, found = await self.bot.storage.characters.page(
            guild_id,
            member.id if member else None,
            public_only=not who.reads_secret_sheets,
            limit=PAGE_SIZE,
            offset=(page - 1) * PAGE_SIZE,
        )
        active = await self.bot.storage.active.get(guild_id, interaction.user.id)
        title = f"Characters of {plain(member.display_name)}" if member else "Characters in this server"
        hidden = [c.id for c in found if is_secret(c.kind, c.revealed)]
        embed = roster_embed(
            found,
            title=title,
            active_id=active.id if active else None,
            hidden=hidden,
            total=total,
            page=page,
            pages=max(1, -(-total // PAGE_SIZE)),
        )
        await replies.send(interaction, embed=embed, ephemeral=bool(hidden) if private is None else private)

    @app_commands.command(
        name="reveal", description="Narrators: open a Villain's or Extra's sheet to the players, or hide it"
    )
    @app_commands.describe(name="The Villain or Extra", revealed="Open to the players (false: secret again)")
    async def reveal(self, interaction: Interaction, name: AnyCharacter, revealed: bool = True) -> None:
        (await caller(interaction)).require_narrator("reveal a character's sheet")
        if name.character.kind is CharacterKind.HERO:
            raise BotError(
                f"{plain(name.name)} is a Hero: every Hero's sheet is open to the table already. "
                "Reveal a Villain or an Extra."
            )
        guild_id = guild_id_of(interaction)
        await self.bot.storage.characters.set_revealed(guild_id, name.id, revealed)
        for channel_id in await self.bot.storage.conflicts.channels_of(guild_id, name.id):
            self.bot.conflicts.boards.refresh(guild_id, channel_id)
        state = "open to the players" if revealed else "secret again: only Narrators read it"
        await replies.send(
            interaction,
            f"The sheet of **{plain(name.name)}** is now {state}.",
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="rename", description="Give one of your characters a new name")
    @app_commands.describe(name="The character to rename", new_name="The new name, unique in this server")
    async def rename(self, interaction: Interaction, name: OwnCharacter, new_name: NewName) -> None:
        stored = await load_to_change(interaction, name, "rename them")
        guild_id = guild_id_of(interaction)
        saved = await self.bot.storage.characters.rename(guild_id, stored, new_name)
        for channel_id in await self.bot.storage.conflicts.channels_of(guild_id, stored.id):
            self.bot.conflicts.boards.refresh(guild_id, channel_id)  # the board shows the new name
        summary = f"Renamed **{plain(stored.name)}** to **{plain(saved.name)}**."
        await replies.send(interaction, embed=change_embed(saved.character, summary), ephemeral=True)

    @app_commands.command(name="delete", description="Delete one of your characters (asks first)")
    @app_commands.describe(name="The character to delete")
    async def delete(self, interaction: Interaction, name: OwnCharacter) -> None:
        stored = await load_to_change(interaction, name, "delete them")
        channels = await self.bot.storage.conflicts.channels_of(guild_id_of(interaction), stored.id)
        if channels:  # a combatant's sheet is what its turns are played from
            raise BotError(
                f"{plain(stored.name)} {verb('is', is_group(stored.character.size))} in the Conflict in "
                f"<#{channels[0]}>: take them out with "
                "`/conflict remove` (or end it) first, then delete."
            )
        view = DeleteView(stored, interaction.user.id)
        message_id = await replies.send(
            interaction,
            f"Delete **{plain(stored.name)}** for good? This cannot be undone.",
            view=view,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
        view.asked(interaction, message_id)

    @app_commands.command(name="use", description="Choose the character your rolls and commands use")
    @app_commands.describe(name="Your character to make active")
    async def use(self, interaction: Interaction, name: OwnCharacter) -> None:
        stored = await load_to_change(interaction, name, "make them your active character")
        await self.bot.storage.active.set(guild_id_of(interaction), interaction.user.id, stored.id)
        summary = f"**{plain(stored.name)}** is now your active character."
        await replies.send(
            interaction,
            embed=change_embed(stored.character, summary, sections=["resiliences"]),
            ephemeral=True,
        )

    @app_commands.command(
        name="export", description="Download a character sheet as a file to import elsewhere"
    )
    @app_commands.describe(name=NAME_TO_READ)
    async def export(self, interaction: Interaction, name: AnyCharacter | None = None) -> None:
        stored = await load_to_read(interaction, name)
        portrait = await self.bot.storage.portraits.get(guild_id_of(interaction), stored.id)
        data = export_character(stored.character, portrait.image if portrait else None).encode("utf-8")
        await replies.send(
            interaction,
            f"The sheet of **{plain(stored.name)}**. Bring it back with `/character import`.",
            file=discord.File(io.BytesIO(data), filename=file_name(stored.name)),
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
