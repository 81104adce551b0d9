"""``/rolls``: a character's saved rolls (docs/rulings.md §6.14): save, list, rename, delete, and
post the roll panel.

Each command reads the named sheet (else the caller's active one) and checks that the caller
controls it: a player manages their Heroes' rolls, a Narrator everyone's. What is said about a
saved roll is private, since it tells what a sheet holds; the panel is posted in the open,
except a hidden character's (``bot.cogs.dice.panel``).
"""

from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.dice.panel import BUTTONS, post_panel
from bot.errors import BotError, invalid_option
from bot.inputs.characters import AnyCharacter, named_or_active
from bot.inputs.choices import Net
from bot.inputs.options import DIFFICULTY, TOOL, TRAITS, Difficulty, RollLabel, StatName, Traits
from bot.inputs.saved_rolls import SavedName, saved_roll_choices, saved_roll_named
from bot.inputs.sheet_parts import stat_choices
from bot.render.cards import card_view
from bot.render.common import plain
from bot.render.saved_rolls import list_card, roll_words
from bot.served import guild_id_of
from rules.saved_roll import MAX_SAVED_ROLLS, NAME_MAX, SavedRoll, save_roll, saved_roll_name
from storage import StoredCharacter

Name = app_commands.Range[str, 1, NAME_MAX]
CHARACTER = "Whose saved rolls (default: your active character)"


async def controlled(
    interaction: Interaction, character: StoredCharacter | None, doing: str
) -> StoredCharacter:
    """The named sheet (else the active one), checked to be the caller's to manage."""
    stored = await named_or_active(interaction, character)
    (await caller(interaction)).require_control(stored.character, doing)
    return stored


class SavedRolls(
    commands.GroupCog,
    group_name="rolls",
    group_description="Saved rolls: save, list, rename, delete, and a panel of buttons to roll them",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*BUTTONS)

    @app_commands.command(name="save", description="Save a roll of a character's, to roll with one tap")
    @app_commands.describe(
        name="What to call it, e.g. Sneak (its button on the panel)",
        stat="The stat or Power it rolls",
        character=CHARACTER,
        traits=TRAITS,
        tool=TOOL,
        modifier="Any other dice to add or remove",
        difficulty=DIFFICULTY,
        label="Its title on the roll's card (default: its name)",
    )
    @app_commands.autocomplete(stat=stat_choices)
    @app_commands.guild_only()
    async def save(
        self,
        interaction: Interaction,
        name: Name,
        stat: StatName,
        character: AnyCharacter | None = None,
        traits: Traits = 0,
        tool: Net = 0,
        modifier: app_commands.Range[int, -10, 10] = 0,
        difficulty: Difficulty = 1,
        label: RollLabel | None = None,
    ) -> None:
        stored = await controlled(interaction, character, "save rolls for them")
        try:  # Discord's client keeps options in range; a raw payload may not
            asked = SavedRoll(
                name=saved_roll_name(name),
                stat=stat,
                traits=traits,
                tool=tool,
                modifier=modifier,
                difficulty=difficulty,
                label=label,
            )
        except ValidationError as error:
            raise BotError(invalid_option(error)) from None
        roll = save_roll(stored.character, asked)
        await self.bot.storage.saved_rolls.save(
            guild_id_of(interaction), stored.id, roll, limit=MAX_SAVED_ROLLS
        )
        await replies.send(
            interaction,
            f"Saved **{plain(roll.name)}** for {plain(stored.character.name)}: {roll_words(roll)}. "
            f"Roll it with `/roll saved:{plain(roll.name)}`, or tap it on `/rolls panel`.",
            ephemeral=True,
        )

    @app_commands.command(name="list", description="A character's saved rolls")
    @app_commands.describe(character=CHARACTER)
    @app_commands.guild_only()
    async def list_rolls(self, interaction: Interaction, character: AnyCharacter | None = None) -> None:
        stored = await controlled(interaction, character, "see their saved rolls")
        rolls = await self.bot.storage.saved_rolls.of(guild_id_of(interaction), stored.id)
        view = card_view(list_card(stored.character.name, rolls, MAX_SAVED_ROLLS))
        await replies.send(interaction, view=view, ephemeral=True)

    @app_commands.command(name="rename", description="Give a saved roll a new name")
    @app_commands.describe(name="The saved roll", new_name="Its new name", character=CHARACTER)
    @app_commands.autocomplete(name=saved_roll_choices)
    @app_commands.guild_only()
    async def rename(
        self, interaction: Interaction, name: SavedName, new_name: Name, character: AnyCharacter | None = None
    ) -> None:
        stored = await controlled(interaction, character, "rename their saved rolls")
        found = await saved_roll_named(interaction, stored, name)
        renamed = saved_roll_name(new_name)
        await self.bot.storage.saved_rolls.rename(guild_id_of(interaction), found.id, renamed)
        await replies.send(
            interaction,
            f"**{plain(found.roll.name)}** is now **{plain(renamed)}**. A panel posted before shows "
            "the old name and still rolls it; `/rolls panel` posts one with the new.",
            ephemeral=True,
        )

    @app_commands.command(name="delete", description="Delete a saved roll")
    @app_commands.describe(name="The saved roll", character=CHARACTER)
    @app_commands.autocomplete(name=saved_roll_choices)
    @app_commands.guild_only()
    async def delete(
        self, interaction: Interaction, name: SavedName, character: AnyCharacter | None = None
    ) -> None:
        stored = await controlled(interaction, character, "delete their saved rolls")
        found = await saved_roll_named(interaction, stored, name)
        await self.bot.storage.saved_rolls.delete(guild_id_of(interaction), found.id)
        await replies.send(
            interaction,
            f"Deleted **{plain(found.roll.name)}** from {plain(stored.character.name)}'s saved rolls.",
            ephemeral=True,
        )

    @app_commands.command(name="panel", description="Post a panel of buttons: each saved roll and Attribute")
    @app_commands.describe(character=CHARACTER)
    @app_commands.guild_only()
    async def panel(self, interaction: Interaction, character: AnyCharacter | None = None) -> None:
        stored = await controlled(interaction, character, "post their roll panel")
        await post_panel(interaction, stored)
