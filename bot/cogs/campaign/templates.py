"""``/template``: the Narrator's own opposition (docs/rulings.md §10.4).

A Narrator saves any Villain or Extra as a template of the server (its Powers, Props, Traits,
texts and portrait, without the wear of play), lists, renames and deletes them, and makes new
characters from one with ``/template make``, in any channel, as ``template:`` makes the built-in
ones. Templates are the Narrator's: players are never shown their names.
"""

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.inputs.characters import AnyCharacter
from bot.render.common import plain
from bot.render.sheet_card import portrait_file, sheet_card
from bot.served import guild_id_of
from rules.campaign.opposition_templates import TEMPLATES_MAX, as_template, from_template
from rules.character.limits import NAME_MAX
from storage.errors import AlreadyExistsError, NotFoundError
from storage.sql import utc_now

TemplateName = app_commands.Range[str, 1, NAME_MAX]


async def template_names(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The server's templates, for Narrators only."""
    if interaction.guild_id is None or not (await caller(interaction)).narrator:
        return []
    names = await interaction.client.storage.templates.names(interaction.guild_id, current)
    return [app_commands.Choice(name=n, value=n) for n in names]


@app_commands.guild_only()
class TemplateCommands(
    commands.GroupCog,
    group_name="template",
    group_description="Narrators: save your own Villains and Extras as templates, and make them again",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="save", description="Narrator: save a Villain or Extra as a template of the server"
    )
    @app_commands.describe(
        name="The Villain or Extra to save",
        template="The template's name",
        replace="Save over one of that name",
    )
    async def save(
        self, interaction: Interaction, name: AnyCharacter, template: TemplateName, replace: bool = False
    ) -> None:
        (await caller(interaction)).require_narrator("save templates")
        guild_id = guild_id_of(interaction)
        sheet = as_template(name.character)
        storage = self.bot.storage
        if not replace and await storage.templates.count(guild_id) >= TEMPLATES_MAX:
            raise BotError(f"This server keeps {TEMPLATES_MAX} templates, the most: delete one first.")
        portrait = await storage.portraits.get(guild_id, name.id)
        kept = (portrait.image, portrait.media_type) if portrait is not None else None
        try:
            saved = await storage.templates.save(
                guild_id, template, sheet, kept, interaction.user.id, utc_now(), replace=replace
            )
        except AlreadyExistsError as error:
            raise BotError(str(error)) from error
        with_portrait = " with its portrait" if kept else ""
        await replies.send(
            interaction,
            f"Saved **{plain(saved.name)}**{with_portrait}: `/template make` makes it again.",
            ephemeral=True,
        )

    @app_commands.command(name="list", description="Narrator: this server's templates")
    async def list(self, interaction: Interaction) -> None:
        (await caller(interaction)).require_narrator("read the server's templates")
        found = await self.bot.storage.templates.all(guild_id_of(interaction))
        if not found:
            raise BotError("No template saved here yet: `/template save` saves a Villain or Extra.")
        lines = [
            f"• **{plain(t.name)}**: {t.character.kind.label}, {plain(t.character.concept)}"[:200]
            for t in found
        ]
        await replies.send(interaction, "\n".join(lines[:40]), ephemeral=True)

    @app_commands.command(name="rename", description="Narrator: give a template a new name")
    @app_commands.describe(template="The template", new_name="Its new name")
    @app_commands.autocomplete(template=template_names)
    async def rename(self, interaction: Interaction, template: TemplateName, new_name: TemplateName) -> None:
        (await caller(interaction)).require_narrator("change templates")
        storage = self.bot.storage
        try:
            found = await storage.templates.get(guild_id_of(interaction), template)
            renamed = await storage.templates.rename(found, new_name, found.character, utc_now())
        except (NotFoundError, AlreadyExistsError) as error:
            raise BotError(str(error)) from error
        await replies.send(interaction, f"Renamed to **{plain(renamed.name)}**.", ephemeral=True)

    @app_commands.command(
        name="delete", description="Narrator: delete a template (characters made from it stay)"
    )
    @app_commands.describe(template="The template")
    @app_commands.autocomplete(template=template_names)
    async def delete(self, interaction: Interaction, template: TemplateName) -> None:
        (await caller(interaction)).require_narrator("delete templates")
        if not await self.bot.storage.templates.delete(guild_id_of(interaction), template):
            raise BotError(
                f"There is no template called {plain(template)} here; `/template list` shows them."
            )
        await replies.send(interaction, f"Deleted the template {plain(template)}.", ephemeral=True)

    @app_commands.command(name="make", description="Narrator: a new Villain or Extra from a saved template")
    @app_commands.describe(
        template="The saved template",
        name="The new character's name",
        concept="A concept instead of the template's",
        size="Extras: the group's size instead of the template's",
    )
    @app_commands.autocomplete(template=template_names)
    async def make(
        self,
        interaction: Interaction,
        template: TemplateName,
        name: app_commands.Range[str, 1, NAME_MAX],
        concept: app_commands.Range[str, 1, 100] | None = None,
        size: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        (await caller(interaction)).require_narrator("make characters from templates")
        guild_id = guild_id_of(interaction)
        storage = self.bot.storage
        try:
            found = await storage.templates.get(guild_id, template)
        except NotFoundError as error:
            raise BotError(str(error)) from error
        character = from_template(
            found.character, name=name, owner_id=interaction.user.id, concept=concept, size=size
        )
        try:
            async with storage.transaction() as tx:
                stored = await tx.characters.create(guild_id, character, self.bot.settings.sheet_limits)
                if found.portrait is not None and found.media_type is not None:
                    await tx.portraits.set(guild_id, stored.id, found.portrait, found.media_type)
        except AlreadyExistsError as error:
            raise BotError(str(error)) from error
        note = f"Created **{plain(character.name)}** from your template {plain(found.name)}."
        card = sheet_card(character, portrait=found.portrait is not None, notes=[note])
        file = portrait_file(found.portrait) if found.portrait is not None else None
        await replies.send(interaction, view=card, file=file, ephemeral=True)
