"""``/story``: Destiny and Tragedy as subplots (docs/rulings.md §10.2).

A Narrator moves a character's subplot to a stage: the table is told (a hidden Villain's only
to the Narrator), the journal keeps it, and the Narrator is offered an award for a Hero who
engaged it. The *true* Destiny is set and read here only, by Narrators and privately: it lives
apart from the sheet (``storage.story``), so no card, board, recap, journal, web page, export or
suggestion that reads a sheet can carry it.
"""

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.inputs.characters import AnyCharacter
from bot.inputs.choices import EnumChoice, SubplotChoice
from bot.reach import origin_of
from bot.render.common import plain
from bot.secrecy import is_secret
from bot.served import guild_id_of
from rules.campaign.subplots import set_stage, stage_line, true_destiny
from rules.character import CharacterKind
from rules.character.story import Stage, Subplot
from rules.journal import TEXT_MAX, EntryKind, JournalEntry
from storage import StoredCharacter
from storage.sql import utc_now

StageName = app_commands.Transform[Stage, EnumChoice(Stage, "stage")]
TrueText = app_commands.Range[str, 1, 300]


def subplot_entry(stored: StoredCharacter, line: str, hidden: bool) -> JournalEntry:
    text = line[:TEXT_MAX]
    return JournalEntry(
        at=stored.updated_at,
        kind=EntryKind.SUBPLOT,
        text=text,
        public=None if hidden else text,
        character_id=stored.id,
        hero=stored.name,
        character_kind=stored.character.kind,
    )


def stage_title(stored: StoredCharacter, subplot: Subplot) -> str:
    stage = stored.character.story.stage(subplot)
    return f"{subplot.label} ({subplot.stage_label(stage)})"


@app_commands.guild_only()
class StoryCommands(
    commands.GroupCog,
    group_name="story",
    group_description="Narrators: Destiny and Tragedy as subplots, and the true Destiny",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="stage", description="Narrator: move a Destiny or Tragedy to a stage")
    @app_commands.describe(name="Whose subplot", subplot="Destiny or Tragedy", stage="Its new stage")
    async def stage(
        self, interaction: Interaction, name: AnyCharacter, subplot: SubplotChoice, stage: StageName
    ) -> None:
        (await caller(interaction)).require_narrator("move a subplot on")
        which, where = subplot, stage
        after = set_stage(name.character, which, where)
        line = stage_line(after, which)
        hidden = is_secret(after.kind, name.revealed)
        guild_id = guild_id_of(interaction)
        async with self.bot.storage.transaction() as tx:
            await tx.handled.claim(interaction.id)
            saved = await tx.characters.update(guild_id, name, after)
            await tx.journal.add(guild_id, origin_of(interaction), [subplot_entry(saved, line, hidden)])
        await replies.send(interaction, plain(line), ephemeral=hidden)
        if after.kind is CharacterKind.HERO:
            await replies.send(
                interaction,
                f"Engaging a subplot earns Advancements: `/advancement award name:{plain(after.name)} "
                "amount:1`, or give them with tonight's awards (`/advancement night`).",
                ephemeral=True,
            )

    @app_commands.command(
        name="true-destiny", description="Narrator: set a character's true Destiny (secret)"
    )
    @app_commands.describe(name="Whose Destiny", text="The true Destiny: only Narrators ever read it")
    async def set_true(self, interaction: Interaction, name: AnyCharacter, text: TrueText) -> None:
        (await caller(interaction)).require_narrator("set a true Destiny")
        if name.character.kind is CharacterKind.EXTRA:
            raise BotError("Extras have no Destiny.")
        checked = true_destiny(text)
        await self.bot.storage.true_destinies.set(
            guild_id_of(interaction), name.id, checked, interaction.user.id, utc_now()
        )
        await replies.send(
            interaction,
            f"The true Destiny of {plain(name.name)} is kept for Narrators only: {plain(checked)}",
            ephemeral=True,
        )

    @app_commands.command(name="show", description="Narrator: a character's subplots and true Destiny")
    @app_commands.describe(name="Whose story")
    async def show(self, interaction: Interaction, name: AnyCharacter) -> None:
        (await caller(interaction)).require_narrator("read a true Destiny")
        found = await self.bot.storage.true_destinies.get(guild_id_of(interaction), name.id)
        c = name.character
        lines: list[Any] = [f"**{plain(name.name)}**"]
        if c.kind is not CharacterKind.EXTRA:
            lines.append(f"{stage_title(name, Subplot.DESTINY)}: {plain(c.destiny) or '(none written)'}")
            lines.append(f"{stage_title(name, Subplot.TRAGEDY)}: {plain(c.tragedy) or '(none written)'}")
            lines.append(f"True Destiny: {plain(found) if found else '(none set: `/story true-destiny`)'}")
        await replies.send(
            interaction, "\n".join(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
