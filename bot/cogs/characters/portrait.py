"""``/character portrait``: give a character a portrait, or remove it; and the sheet card that shows it.

A mixin of :class:`bot.cogs.characters.manage.CharacterCommands`. Whoever may change the sheet
may change its portrait (``load_to_change``, docs/rulings.md §6.9): a Hero's owner or a
Narrator; a Villain's or an Extra's, a Narrator. The image is downloaded, decoded with limits
and re-encoded small in a child process (``bot.render.portrait_reader``), a few at a time and
a few a minute for each member; a refused one stores nothing and is answered privately with
what to send instead. Only the re-encoding is stored; asking to remove a portrait there is not
is refused the same way, and writes nothing.

The picture comes as the command's ``image`` option, or in a form with a file upload: the
command without one opens it, and so does the "Add a portrait" button the Hero builder shows
once the Hero is made. The form is sent stopped (discord.py keeps nothing), so its submission
reaches :meth:`PortraitCommands.portrait_submitted` before or after a restart, where the
character is loaded and its control checked again.
"""

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands.namespace import Namespace
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.common import NAME_TO_CHANGE, load_to_change
from bot.errors import BotError
from bot.forms import SentForm
from bot.inputs.characters import OwnCharacter
from bot.inputs.sheet_changes import refresh_boards
from bot.render.common import plain
from bot.render.portraits import MAX_UPLOAD_BYTES, MEDIA_TYPE
from bot.render.sheet_card import portrait_file, sheet_card
from bot.served import guild_id_of
from storage import StoredCharacter

NO_PINGS = discord.AllowedMentions.none()
DOING = "change their portrait"
BOTH = "Give a picture in `image` or `remove:True`, not both."
FORM_ID = re.compile(r"portrait:(?P<character>\d+)")
BUTTON = r"mab:portrait:(?P<character>\d+)"
UPLOAD = "image"
NO_PORTRAIT = "**{name}** has no portrait to remove."
NOTHING_SENT = "No picture came with the form: attach one and send it again."


def portrait_form(stored: StoredCharacter) -> discord.ui.Modal:
    """The form with one file upload, for ``stored``'s portrait."""
    modal = discord.ui.Modal(
        title=f"Portrait of {stored.name}"[:45], custom_id=f"portrait:{stored.id}", timeout=None
    )
    upload: discord.ui.FileUpload[discord.ui.Modal] = discord.ui.FileUpload(
        custom_id=UPLOAD, min_values=1, max_values=1, required=True
    )
    modal.add_item(
        discord.ui.Label(
            text="Picture: PNG, JPEG, GIF or WebP",
            description=f"Up to {MAX_UPLOAD_BYTES // 2**20} MiB; shrunk to a 256-pixel thumbnail.",
            component=upload,
        )
    )
    modal.stop()
    return modal


def uploaded(interaction: Interaction) -> list[discord.Attachment]:
    """The files sent in the form's upload, as Discord resolved them."""
    data: dict[str, Any] = dict(interaction.data or {})
    ids: list[str] = []
    for top in data.get("components") or []:
        inner = top.get("component") if isinstance(top, dict) else None
        if isinstance(inner, dict) and inner.get("custom_id") == UPLOAD:
            ids += [str(value) for value in inner.get("values") or []]
    found = Namespace._get_resolved_items(interaction, data.get("resolved") or {})  # type: ignore[arg-type]
    return [v for k, v in found.items() if isinstance(v, discord.Attachment) and k.id in ids]


class PortraitButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON):
    """ "Add a portrait": opens the upload form for one character (the Hero builder's last step)."""

    def __init__(self, character_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Add a portrait", emoji="🖼️", custom_id=f"mab:portrait:{character_id}")
        )
        self.character_id = character_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "PortraitButton":
        return cls(int(match["character"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        stored = await interaction.client.storage.characters.get(guild_id_of(interaction), self.character_id)
        (await caller(interaction)).require_control(stored.character, DOING)
        await replies.send_modal(interaction, portrait_form(stored))


def portrait_view(character_id: int) -> discord.ui.View:
    """The button that opens the upload form, sent stopped (clicks reach :class:`PortraitButton`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PortraitButton(character_id))
    view.stop()
    return view


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


class PortraitCommands(commands.Cog):
    bot: MistbornClient

    @app_commands.command(
        name="portrait", description="Give a character a portrait (a picture), or remove it"
    )
    @app_commands.describe(
        image=f"A PNG, JPEG, GIF or WebP picture, up to {MAX_UPLOAD_BYTES // 2**20} MiB (shrunk to 256 px)",
        name=NAME_TO_CHANGE,
        remove="Remove the portrait instead (without either: a form to upload one)",
    )
    async def portrait(
        self,
        interaction: Interaction,
        image: discord.Attachment | None = None,
        name: OwnCharacter | None = None,
        remove: bool = False,
    ) -> None:
        if image is not None and remove:
            raise BotError(BOTH)
        stored = await load_to_change(interaction, name, DOING)
        if image is None and not remove:
            await replies.send_modal(interaction, portrait_form(stored))
            return
        if image is None:
            async with self.bot.storage.transaction() as tx:
                await tx.handled.claim(interaction.id)
                if not await tx.portraits.remove(guild_id_of(interaction), stored.id):
                    raise BotError(NO_PORTRAIT.format(name=plain(stored.name)))  # nothing kept
            await refresh_boards(interaction, stored)
            await replies.send(
                interaction,
                f"Removed the portrait of **{plain(stored.name)}**.",
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            return
        # Downloading and decoding take a moment: answer within Discord's 3 s first, privately so
        # a refusal that follows stays private too.
        await replies.defer(interaction, ephemeral=True)
        picture = await self.bot.portrait_reader.read_upload(image, interaction.user.id)
        await save_portrait(interaction, stored, picture)
        note = f"New portrait for **{plain(stored.name)}**."
        await send_sheet(interaction, stored, ephemeral=True, notes=(note,))

    async def portrait_submitted(self, interaction: Interaction, sent: SentForm) -> None:
        """A sent upload form: load → check control again (the form may have stayed open while a
        Narrator gave the Hero away) → decode → save once → the sheet card, privately."""
        found = sent.found
        stored = await self.bot.storage.characters.get(guild_id_of(interaction), int(found["character"]))
        (await caller(interaction)).require_control(stored.character, DOING)
        files = uploaded(interaction)
        if not files:
            raise BotError(NOTHING_SENT)
        await replies.defer(interaction, ephemeral=True)
        picture = await self.bot.portrait_reader.read_upload(files[0], interaction.user.id)
        await save_portrait(interaction, stored, picture)
        note = f"New portrait for **{plain(stored.name)}**."
        await send_sheet(interaction, stored, ephemeral=True, notes=(note,))
