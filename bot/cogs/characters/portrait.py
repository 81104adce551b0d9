"""``/character portrait``: give a character a portrait, or remove it; and the sheet card that shows it.

A mixin of :class:`bot.cogs.characters.manage.CharacterCommands`. Whoever may change the sheet
may change its portrait (``load_to_change``, docs/rulings.md §6.9): a Hero's owner or a
Narrator; a Villain's or an Extra's, a Narrator. The image is downloaded, decoded with limits
and re-encoded small in a worker thread (``bot.render.portraits``); a refused one stores
nothing and is answered privately with what to send instead. Only the re-encoding is stored.
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.access import guild_id_of
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.common import NAME_TO_CHANGE, load_to_change
from bot.errors import BotError
from bot.inputs.characters import OwnCharacter
from bot.render.common import plain
from bot.render.portraits import MAX_UPLOAD_BYTES, MEDIA_TYPE, read_upload
from bot.render.sheet_card import portrait_file, sheet_card
from storage import StoredCharacter

NO_PINGS = discord.AllowedMentions.none()
DOING = "change their portrait"
SAY_WHICH = "Attach a picture in `image` to set the portrait, or give `remove:True` to remove it (not both)."


async def send_sheet(
    interaction: Interaction, stored: StoredCharacter, *, ephemeral: bool, notes: tuple[str, ...] = ()
) -> None:
    """The sheet card, with the portrait attached as its thumbnail when there is one."""
    portrait = await interaction.client.storage.portraits.get(guild_id_of(interaction), stored.id)
    await replies.send(
        interaction,
        view=sheet_card(stored.character, portrait=portrait is not None, notes=notes),
        file=portrait_file(portrait.image) if portrait is not None else None,
        ephemeral=ephemeral,
        allowed_mentions=NO_PINGS,
    )


async def save_portrait(interaction: Interaction, stored: StoredCharacter, image: bytes) -> None:
    """Store the re-encoded ``image`` as the character's portrait, once per interaction, and
    redraw the boards that show the character."""
    guild_id = guild_id_of(interaction)
    async with interaction.client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        await tx.portraits.set(guild_id, stored.id, image, MEDIA_TYPE)
    await refresh_boards(interaction, stored)


async def refresh_boards(interaction: Interaction, stored: StoredCharacter) -> None:
    guild_id = guild_id_of(interaction)
    for channel_id in await interaction.client.storage.conflicts.channels_of(guild_id, stored.id):
        interaction.client.conflicts.boards.refresh(guild_id, channel_id)


class PortraitCommands(commands.Cog):
    bot: MistbornClient

    @app_commands.command(
        name="portrait", description="Give a character a portrait (a picture), or remove it"
    )
    @app_commands.describe(
        image=f"A PNG, JPEG, GIF or WebP picture, up to {MAX_UPLOAD_BYTES // 2**20} MiB (shrunk to 256 px)",
        name=NAME_TO_CHANGE,
        remove="Remove the portrait instead",
    )
    async def portrait(
        self,
        interaction: Interaction,
        image: discord.Attachment | None = None,
        name: OwnCharacter | None = None,
        remove: bool = False,
    ) -> None:
        if (image is None) == (not remove):
            raise BotError(SAY_WHICH)
        stored = await load_to_change(interaction, name, DOING)
        if image is None:
            async with self.bot.storage.transaction() as tx:
                await tx.handled.claim(interaction.id)
                had = await tx.portraits.remove(guild_id_of(interaction), stored.id)
            if had:
                await refresh_boards(interaction, stored)
            done = "Removed the portrait of" if had else "There was no portrait to remove for"
            await replies.send(
                interaction, f"{done} **{plain(stored.name)}**.", ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        # Downloading and decoding take a moment: answer within Discord's 3 s first, privately so
        # a refusal that follows stays private too.
        await replies.defer(interaction, ephemeral=True)
        await save_portrait(interaction, stored, await read_upload(image))
        note = f"New portrait for **{plain(stored.name)}**."
        await send_sheet(interaction, stored, ephemeral=True, notes=(note,))
