"""What the character commands share: option types, choices, one load-check-save path, and
autocomplete for the parts of a sheet (Burdens, Powers, Stunts, Props, extra Traits).

Every change runs the same way (STYLE.md): load the sheet, check the user controls it, make a
pure change with ``rules.character``, then save once with the version that was loaded, so an
edit made meanwhile by someone else raises ``StaleWriteError`` instead of being overwritten.
"""

from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import discord
from discord import app_commands

from bot.checks import guild_id_of
from bot.errors import BotError
from bot.render.common import plain
from bot.sheets import check_control, load_character
from rules.character import METALS, Character, Power, PowerType
from rules.character.limits import name_key
from storage import StoredCharacter

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
Choice = app_commands.Choice

CharacterName = app_commands.Range[str, 1, 64]
ItemName = app_commands.Range[str, 1, 64]
NAME_TO_READ = "The character (default: your active character)"
NAME_TO_CHANGE = "Your character to change (default: your active character)"

E = TypeVar("E", bound=Enum)


def choices_of(members: Iterable[Enum]) -> list[Choice[str]]:
    """Discord choices showing each enum member's label ("Villain") and sending its value."""
    return [Choice(name=str(getattr(m, "label", m.value)), value=str(m.value)) for m in members]


def pick(enum: type[E], value: str, what: str) -> E:
    """The enum member for a choice's value; choices are enforced by Discord, but checked again."""
    for member in enum:
        if str(member.value) == value.strip().lower():
            return member
    article = "an" if what[:1].lower() in "aeiou" else "a"
    raise BotError(f"'{plain(value[:40])}' is not {article} {what}.")


async def load_to_change(interaction: Interaction, name: str | None, doing: str) -> StoredCharacter:
    """The named (or active) character, if the user owns it or is a Narrator."""
    stored = await load_character(interaction, name)
    await check_control(interaction, stored.character, doing)
    return stored


async def save(interaction: Interaction, stored: StoredCharacter, new: Character) -> StoredCharacter:
    """Save once, quoting the loaded version (a sheet changed meanwhile is never overwritten)."""
    return await interaction.client.storage.characters.update(guild_id_of(interaction), stored, new)


async def change(
    interaction: Interaction, name: str | None, doing: str, edit: Callable[[Character], Character]
) -> StoredCharacter:
    """Load → check control → pure change → save once; returns the saved sheet."""
    stored = await load_to_change(interaction, name, doing)
    return await save(interaction, stored, edit(stored.character))


def find_power(character: Character, typed: str) -> int:
    """Index of the Power a player named: its label ("Steel (Allomancy)") or a unique name."""
    key = name_key(typed)
    exact = [i for i, p in enumerate(character.powers) if name_key(p.full_label) == key]
    by_name = exact or [i for i, p in enumerate(character.powers) if name_key(p.name) == key]
    if len(by_name) == 1:
        return by_name[0]
    if by_name:
        options = " or ".join(character.powers[i].full_label for i in by_name)
        raise BotError(f"{character.name} has more than one {typed.strip()[:30]}; pick {options}.")
    if not character.powers:
        raise BotError(f"{character.name} has no Powers yet; add one with `/edit power-add`.")
    listed = ", ".join(p.full_label for p in character.powers)
    raise BotError(f"{character.name} has no Power called '{typed.strip()[:30]}'. Powers: {listed}.")


def find_text(items: tuple[str, ...], typed: str, what: str, owner: str) -> int:
    """Index of the item (Stunt, Prop, extra Trait) matching ``typed``, ignoring case."""
    key = name_key(typed)
    for index, item in enumerate(items):
        if name_key(item) == key:
            return index
    if not items:
        raise BotError(f"{owner} has no {what}s.")
    listed = "; ".join(items)
    raise BotError(f"{owner} has no {what} '{typed.strip()[:40]}'. {what}s: {listed[:300]}.")


def with_power(character: Character, index: int, power: Power) -> tuple[Power, ...]:
    return tuple(power if i == index else p for i, p in enumerate(character.powers))


# -- Autocomplete: suggestions only, every callback checks the value again --------------------


async def _sheet(interaction: Interaction) -> Character | None:
    name = getattr(interaction.namespace, "name", None)
    try:
        stored = await load_character(interaction, name if isinstance(name, str) else None)
    except Exception:  # suggestions are best effort: a typo in another option must not fail them
        return None
    return stored.character


def _matching(values: Iterable[str], current: str) -> list[Choice[str]]:
    key = name_key(current)
    found = [v for v in dict.fromkeys(values) if key in name_key(v)]
    return [Choice(name=v[:100], value=v[:100]) for v in found[:25]]


async def burden_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    character = await _sheet(interaction)
    return _matching((b.name for b in character.burdens), current) if character else []


async def power_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    character = await _sheet(interaction)
    return _matching((p.full_label for p in character.powers), current) if character else []


async def stunt_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    character = await _sheet(interaction)
    if character is None:
        return []
    typed = getattr(interaction.namespace, "power", None)
    try:
        powers = [character.powers[find_power(character, typed)]] if isinstance(typed, str) else []
    except BotError:
        powers = []
    return _matching((s for p in powers or character.powers for s in p.stunts), current)


async def prop_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    character = await _sheet(interaction)
    return _matching((p.name for p in character.props), current) if character else []


async def extra_trait_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    character = await _sheet(interaction)
    return _matching(character.traits.extras, current) if character else []


async def metal_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    """Metals for Allomancy and Feruchemy; other Powers are named freely."""
    kind = getattr(interaction.namespace, "type", None)
    if kind in (PowerType.HEMALURGY.value, PowerType.KANDRA.value, PowerType.OTHER.value):
        return []
    key = name_key(current)
    return [Choice(name=m, value=m) for m in METALS if name_key(m).startswith(key)][:25]
