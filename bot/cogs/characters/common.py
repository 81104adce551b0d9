"""What the character commands share: the sheet's load → check → change → save path
(``bot.inputs.sheet_changes``, shared with the other cogs that change a sheet) and a few words."""

from bot.inputs.sheet_changes import (
    NAME_TO_CHANGE,
    NAME_TO_READ,
    change,
    load_to_change,
    load_to_read,
    save,
)
from rules.character import Character, Power

NOT_A_BOT = "A character belongs to a person, not a bot: pick a member who plays."

__all__ = [
    "NAME_TO_CHANGE",
    "NAME_TO_READ",
    "NOT_A_BOT",
    "change",
    "load_to_change",
    "load_to_read",
    "save",
    "with_power",
]


def with_power(character: Character, index: int, power: Power) -> tuple[Power, ...]:
    return tuple(power if i == index else p for i, p in enumerate(character.powers))
