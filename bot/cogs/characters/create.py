"""``/character create`` and ``/character import``: making characters (docs/rulings.md §6.9–§6.12).

A mixin of :class:`bot.cogs.characters.manage.CharacterCommands` (``CogMeta`` collects commands
from every class in the MRO), kept apart so each module stays short.

* ``create`` with only a name opens the guided builder for the caller's own Hero (``builder``);
  with ratings, a concept, a size or an owner it makes the sheet at once, as typed; with a
  ``template`` (Narrators) it makes a Villain or Extra from the template, whose example numbers
  the options given replace (§6.11).
* ``import`` reads a file from ``/character export`` or a character exported from Roll20's
  Mistborn sheet, told apart by their shape; of a Roll20 sheet, whatever has no place on ours
  is listed back (§6.12). An imported sheet belongs to whoever imports it; a Narrator's import
  of one of our files keeps the file's owner, and ``owner`` (Narrators) sets it outright. A
  file of ours brings its portrait, read and re-encoded as any upload, and counted with the
  member's pictures (``bot.render.portrait_reader``); a portrait refused refuses the import,
  which stores nothing: a file of ours holds our own small WebP, so a refused one was forged.
* Creating a Hero makes it its player's active character if they have none yet (also when a
  Narrator makes it for them with ``owner``); the sheet
  of a new Villain or Extra is shown only to the Narrator (§6.9).
"""

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller, cooldown
from bot.client import Interaction, MistbornClient
from bot.cogs.characters.builder import start
from bot.cogs.characters.common import NOT_A_BOT
from bot.errors import BotError
from bot.inputs.characters import NewName
from bot.inputs.choices import KindChoice
from bot.inputs.templates import TemplateChoice
from bot.render.common import plain
from bot.render.portraits import MEDIA_TYPE
from bot.render.sheet_card import Extra, portrait_file, sheet_card
from bot.served import guild_id_of
from rules.campaign.opposition_templates import from_template
from rules.character import (
    Attribute,
    Character,
    CharacterKind,
    Standing,
    check_hero_build,
    make_character,
    revise_character,
)
from rules.character.opposition import TEMPLATES, Opposition, opposition_character
from rules.character.sheet_files import MAX_UPLOAD_BYTES, ImportedSheet, SheetSource, read_sheet_file
from rules.character.transfer import MAX_FILE_BYTES
from storage import AlreadyExistsError
from storage.templates import StoredTemplate

AttributeValue = app_commands.Range[int, 1, 10]
StandingValue = app_commands.Range[int, 2, 10]
NO_PINGS = discord.AllowedMentions.none()


def advice(character: Character) -> list[Extra]:
    """The Hero-build advice beside a new sheet, when it has any (docs/rulings.md §6.10)."""
    warnings = check_hero_build(character)
    return [("Hero build check (advice only)", [f"• {w}" for w in warnings])] if warnings else []


def left_out(found: ImportedSheet) -> list[Extra]:
    """What of a Roll20 sheet has no place on ours, one line each, so nothing is lost unsaid."""
    if not found.left_out:
        return []
    lines = [f"• {plain(line)}" for line in found.left_out]
    return [("Not imported from the Roll20 sheet", ["Add what you need with `/edit`.", *lines])]


def template_kind(template: Opposition | StoredTemplate) -> CharacterKind:
    return template.character.kind if isinstance(template, StoredTemplate) else TEMPLATES[template].kind


def template_label(template: Opposition | StoredTemplate) -> str:
    return plain(template.name) if isinstance(template, StoredTemplate) else TEMPLATES[template].label


def how_to_fill(kind: CharacterKind, name: str) -> str:
    """What a Narrator gives to make a Villain or Extra: the builder is for a player's own Hero,
    and a sheet of nothing but 2s is never what was meant (docs/rulings.md §6.10, §6.11)."""
    templates = ", ".join(t.value for t in Opposition)
    return (
        f"Nothing was made: give {plain(name)} its numbers, as a {kind.label}'s sheet has no builder. "
        f"Add its ratings (`physique`, `charm`, `wits`, `resources`, `influence`, `spirit`; the rest "
        f"start at 2) and a `concept`, or start from a `template` ({templates}) and change it with "
        f"`/edit`."
    )


class MakeCommands(commands.Cog):
    bot: MistbornClient

    @app_commands.command(
        name="create", description="Make your Hero (only a name: step by step), or a Villain or Extra"
    )
    @app_commands.describe(
        name="The character's name, unique in this server (alone: a guided Hero builder)",
        kind="Hero (a player's, the default); Villain or Extra for Narrators",
        template="Narrators: a ready Villain or Extra (example numbers; options given replace them)",
        concept="Who they are, in a few words",
        physique="Physique 1–10 (a new Hero has 2–6)",
        charm="Charm 1–10 (a new Hero has 2–6)",
        wits="Wits 1–10 (a new Hero has 2–6)",
        resources="Resources 2–10",
        influence="Influence 2–10",
        spirit="Spirit 2–10",
        size="Extras: how many are in the group (default 1, or the template's)",
        owner="Narrators: the member the character belongs to (default: you)",
    )
    async def create(
        self,
        interaction: Interaction,
        name: NewName,
        kind: KindChoice | None = None,
        template: TemplateChoice | None = None,
        concept: app_commands.Range[str, 1, 120] | None = None,
        physique: AttributeValue | None = None,
        charm: AttributeValue | None = None,
        wits: AttributeValue | None = None,
        resources: StandingValue | None = None,
        influence: StandingValue | None = None,
        spirit: StandingValue | None = None,
        size: app_commands.Range[int, 1, 100] | None = None,
        owner: discord.Member | None = None,
    ) -> None:
        ratings: dict[Attribute | Standing, int | None] = {
            Attribute.PHYSIQUE: physique,
            Attribute.CHARM: charm,
            Attribute.WITS: wits,
            Standing.RESOURCES: resources,
            Standing.INFLUENCE: influence,
            Standing.SPIRIT: spirit,
        }
        given = {stat: value for stat, value in ratings.items() if value is not None}
        only_a_name = not given and concept is None and size is None and owner is None
        if template is None and kind in (None, CharacterKind.HERO) and only_a_name:
            await start(interaction, name)
            return
        who = await caller(interaction)
        owner_id = interaction.user.id if owner is None else owner.id
        if (template_kind(template) if template else kind or CharacterKind.HERO) is not CharacterKind.HERO:
            who.require_narrator("create Villains and Extras")
        if owner is not None and owner.bot:
            raise BotError(NOT_A_BOT)
        if owner_id != interaction.user.id:
            who.require_narrator("create a character for another member")
        if template is None and only_a_name:
            raise BotError(how_to_fill(kind or CharacterKind.HERO, name))
        if template is not None:
            character = self._from_template(template, kind, name, owner_id, concept, size, given)
        else:
            character = make_character(
                name=name,
                kind=kind or CharacterKind.HERO,
                owner_id=owner_id,
                concept=concept or "",
                size=size or 1,
                attributes={a.value: given.get(a, 2) for a in Attribute},
                standings={s.value: given.get(s, 2) for s in Standing},
            )
        await self._save_new(interaction, character, template)

    @staticmethod
    def _from_template(
        template: Opposition | StoredTemplate,
        kind: CharacterKind | None,
        name: str,
        owner_id: int,
        concept: str | None,
        size: int | None,
        given: dict[Attribute | Standing, int],
    ) -> Character:
        made_kind, label = template_kind(template), template_label(template)
        if kind is not None and kind is not made_kind:
            article = "an" if made_kind is CharacterKind.EXTRA else "a"
            raise BotError(
                f"The {label} template makes {article} {made_kind.label}: leave `kind` out, "
                "or make it without a template."
            )
        if isinstance(template, StoredTemplate):
            return from_template(
                template.character, name=name, owner_id=owner_id, concept=concept, size=size, ratings=given
            )
        return opposition_character(
            template, name=name, owner_id=owner_id, concept=concept, size=size, ratings=given
        )

    async def _save_new(
        self, interaction: Interaction, character: Character, template: Opposition | StoredTemplate | None
    ) -> None:
        guild_id = guild_id_of(interaction)
        made_active = False
        async with self.bot.storage.transaction() as tx:
            stored = await tx.characters.create(guild_id, character, self.bot.settings.sheet_limits)
            if isinstance(template, StoredTemplate) and template.portrait and template.media_type:
                await tx.portraits.set(guild_id, stored.id, template.portrait, template.media_type)
            # A Hero is its player's active one if they have none, made by them or for them (owner:).
            hero = character.kind is CharacterKind.HERO
            if hero and await tx.active.get(guild_id, character.owner_id) is None:
                await tx.active.set(guild_id, character.owner_id, stored.id)
                made_active = True
        whose = "your" if character.owner_id == interaction.user.id else "its player's"
        note = f" It is now {whose} active character." if made_active else ""
        if template is not None:
            note = (
                f" From the {template_label(template)} template: example numbers, change them with `/edit`."
            )
        await replies.send(
            interaction,
            view=sheet_card(
                character, notes=[f"Created **{plain(character.name)}**.{note}"], extras=advice(character)
            ),
            ephemeral=character.kind is not CharacterKind.HERO,
            allowed_mentions=NO_PINGS,
        )

    @cooldown()
    @app_commands.command(
        name="import", description="Add a character from /character export, or exported from Roll20"
    )
    @app_commands.describe(
        file="A .json file from /character export (64 KiB) or a Roll20 Mistborn character (512 KiB)",
        name="Import under this name instead (when the name is taken)",
        owner="Narrators: the member it belongs to",
    )
    async def import_sheet(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        name: NewName | None = None,
        owner: discord.Member | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        if file.size > MAX_UPLOAD_BYTES:
            raise BotError(
                f"That file is {file.size // 1024} KiB; a sheet file is at most {MAX_FILE_BYTES // 1024} KiB "
                f"(a Roll20 export: {MAX_UPLOAD_BYTES // 1024} KiB)."
            )
        if owner is not None and owner.bot:
            raise BotError(NOT_A_BOT)
        # Downloading may take a moment; answer within Discord's 3 s first, privately so any
        # error that follows stays private too.
        await replies.defer(interaction, ephemeral=True)
        # Reading a file of up to 512 KiB is the one heavy step of any command: off the event
        # loop, so every other server's interactions keep their 3 s meanwhile.
        data = await file.read()
        found = await asyncio.to_thread(read_sheet_file, data, owner_id=interaction.user.id, name=name)
        character = found.character
        who = await caller(interaction)
        if character.kind is not CharacterKind.HERO:
            who.require_narrator("import Villains and Extras")
        if owner is not None and owner.id != interaction.user.id:
            who.require_narrator("import a character for another member")
        keeps_owner = who.narrator and found.source is SheetSource.BOT
        owner_id = owner.id if owner else character.owner_id if keeps_owner else interaction.user.id
        character = revise_character(character, owner_id=owner_id)
        # A file's portrait is an upload like any other: read and re-encoded again.
        reader = self.bot.portrait_reader
        portrait = None if found.portrait is None else await reader.read(found.portrait, interaction.user.id)
        try:
            async with self.bot.storage.transaction() as tx:
                stored = await tx.characters.create(guild_id, character, self.bot.settings.sheet_limits)
                if portrait is not None:
                    await tx.portraits.set(guild_id, stored.id, portrait, MEDIA_TYPE)
        except AlreadyExistsError:
            raise BotError(
                f"There is already a character named {plain(character.name)} here. "
                "Import it under another name with the `name` option."
            ) from None
        done = f"Imported **{plain(character.name)}** from {found.source.label}"
        done += ", with its portrait." if portrait is not None else "."
        await replies.send(
            interaction,
            view=sheet_card(
                character,
                portrait=portrait is not None,
                notes=[done],
                extras=[*advice(character), *left_out(found)],
            ),
            file=portrait_file(portrait) if portrait is not None else None,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )
