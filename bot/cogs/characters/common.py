"""What the character commands share: the one load → check → change → save path.

Every change runs the same way: find the sheet (the option's, else the caller's active one),
check the caller controls it (``bot.access``), make a pure change with ``rules.character``, then
save once with the version that was loaded, so an edit made meanwhile by someone else raises
``StaleWriteError`` instead of being overwritten.
"""

from collections.abc import Callable

from bot.access import guild_id_of
from bot.checks import caller
from bot.client import Interaction
from bot.inputs.characters import named_or_active
from rules.character import Character, Power
from storage import StoredCharacter

NAME_TO_READ = "The character (default: your active character)"
NAME_TO_CHANGE = "Your character to change (default: your active character)"


async def load_to_change(
    interaction: Interaction, given: StoredCharacter | None, doing: str
) -> StoredCharacter:
    """The named (or active) character, if the user owns it or is a Narrator."""
    stored = await named_or_active(interaction, given)
    (await caller(interaction)).require_control(stored.character, doing)
    return stored


async def save(interaction: Interaction, stored: StoredCharacter, new: Character) -> StoredCharacter:
    """Save once, quoting the loaded version (a sheet changed meanwhile is never overwritten)."""
    return await interaction.client.storage.characters.update(guild_id_of(interaction), stored, new)


async def change(
    interaction: Interaction,
    given: StoredCharacter | None,
    doing: str,
    edit: Callable[[Character], Character],
) -> StoredCharacter:
    """Load → check control → pure change → save once; returns the saved sheet."""
    stored = await load_to_change(interaction, given, doing)
    return await save(interaction, stored, edit(stored.character))


def with_power(character: Character, index: int, power: Power) -> tuple[Power, ...]:
    return tuple(power if i == index else p for i, p in enumerate(character.powers))
