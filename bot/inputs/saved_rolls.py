"""A saved roll named in an option (docs/rulings.md §6.14): found among the character's own by
the one naming rule, and offered as the user types.

Suggestions read the sheet the command is about (its ``character`` option, else the caller's
active character) and offer its saved rolls only to someone who may roll for it: a player's
names for their rolls are nobody else's business, and nobody else could roll them.
"""

from discord import app_commands

from bot.access import caller_of
from bot.client import Interaction
from bot.inputs.sheet_parts import find_one, matching, stored_in_option
from bot.served import guild_id_of
from storage import StoredCharacter
from storage.saved_rolls import StoredRoll

Choice = app_commands.Choice
SavedName = app_commands.Range[str, 1, 100]
"""A saved roll's name as typed (the search folds case and spacing, so a little room is kept)."""


async def saved_roll_named(interaction: Interaction, stored: StoredCharacter, typed: str) -> StoredRoll:
    """The saved roll of ``stored`` that ``typed`` names, or a refusal listing its saved rolls."""
    rolls = await interaction.client.storage.saved_rolls.of(guild_id_of(interaction), stored.id)
    return rolls[find_one(rolls, typed, lambda r: r.roll.name, "saved roll", stored.character.name)]


async def saved_roll_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The saved rolls of the sheet in ``character`` (or the active one) containing what was typed."""
    stored = await stored_in_option(interaction, "character")
    if stored is None:
        return []
    caller = await caller_of(interaction, interaction.client.storage)
    if not caller.controls(stored.character):
        return []
    rolls = await interaction.client.storage.saved_rolls.of(guild_id_of(interaction), stored.id)
    return matching((r.roll.name for r in rolls), current)
