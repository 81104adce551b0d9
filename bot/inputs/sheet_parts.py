"""Parts of a sheet named in an option: stats, Powers, Stunts, Props, Burdens, extra Traits.

Suggestions read the sheet the command is about (its ``name``, ``character``, ``actor`` or
``opponent`` option, else the caller's active character) and offer the parts containing what
was typed. Finding a part by name uses the one naming rule, so a part is found by the same
words wherever it is typed.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from discord import app_commands

from bot.access import caller_of
from bot.client import Interaction
from bot.errors import BotError
from bot.inputs.characters import SUGGESTIONS, at_table, find_character
from bot.render.common import clip, plain
from bot.secrecy import is_secret
from rules.character import METALS, Character, PowerType
from rules.character.stats import rollable_names
from rules.errors import RulesError
from rules.naming import find_named, name_matches
from storage import StoredCharacter
from storage.errors import StorageError

Choice = app_commands.Choice
T = TypeVar("T")
ADDED_WITH = {
    "saved roll": "/rolls save",
    "Power": "/edit power-add",
    "Stunt": "/edit stunt-add",
    "Prop": "/edit prop-add",
    "extra Trait": "/edit trait-add",
}
"""The command that adds each kind of part: what a refusal for a sheet without one points to."""


def find_one(items: Sequence[T], typed: str, name_of: Callable[[T], str], what: str, owner: str) -> int:
    """The index of the one item ``typed`` names, or a refusal that lists the choices."""
    found = find_named(typed, items, name_of)
    if len(found) == 1:
        return next(i for i, item in enumerate(items) if item is found[0])
    typed_shown = plain(clip(typed.strip(), 40))
    if found:
        options = " or ".join(plain(name_of(item)) for item in found[:5])
        raise BotError(f"{plain(owner)} has more than one {typed_shown}; pick {options}.")
    if not items:
        adding = ADDED_WITH.get(what)
        raise BotError(
            f"{plain(owner)} has no {what}s yet" + (f"; add one with `{adding}`." if adding else ".")
        )
    listed = clip("; ".join(name_of(item) for item in items), 300)
    raise BotError(f"{plain(owner)} has no {what} called '{typed_shown}'. {what}s: {plain(listed)}.")


def find_power(character: Character, typed: str) -> int:
    """The Power a player named: its label ("Steel (Allomancy)"), or a name only one Power has."""
    if not character.powers:
        raise BotError(f"{plain(character.name)} has no Powers yet; add one with `/edit power-add`.")
    return find_one(character.powers, typed, lambda p: p.full_label, "Power", character.name)


def find_text(items: Sequence[str], typed: str, what: str, owner: str) -> int:
    """The index of the Stunt, Prop or extra Trait ``typed`` names."""
    return find_one(items, typed, lambda item: item, what, owner)


async def stored_in_option(interaction: Interaction, *options: str) -> StoredCharacter | None:
    """The sheet named by the first of ``options`` that was filled in, else the active one.

    Suggestions are best effort: a name that finds nothing (yet) suggests nothing, and neither
    does a sheet the caller may not read (docs/rulings.md §7.1).
    """
    for option in options:
        typed = getattr(interaction.namespace, option, None)
        if isinstance(typed, str) and typed.strip():
            try:
                return await find_character(interaction, typed)
            except (BotError, RulesError, StorageError):
                return None
    try:
        stored = (await at_table(interaction, None)).sheet  # the sheet and who is asking, in one read
        if stored is None or not is_secret(stored.character.kind, stored.revealed):
            return stored  # a sheet anyone reads: no need to ask who is asking (§7.1)
        caller = await caller_of(interaction, interaction.client.storage)
    except (BotError, StorageError):
        return None
    return stored if caller.can_read(stored.character, stored.revealed) else None


async def sheet_in_option(interaction: Interaction, *options: str) -> Character | None:
    """The sheet of :func:`stored_in_option`, for suggesting its parts."""
    stored = await stored_in_option(interaction, *options)
    return stored.character if stored is not None else None


def matching(values: Iterable[str], current: str) -> list[Choice[str]]:
    found = [v for v in dict.fromkeys(values) if name_matches(current, v)]
    return [Choice(name=v[:100], value=v[:100]) for v in found[:SUGGESTIONS]]


async def stat_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    """Stats and Powers on the sheet of ``character`` or ``actor`` (or the active one)."""
    sheet = await sheet_in_option(interaction, "actor", "character")
    return matching(rollable_names(sheet), current) if sheet else []


async def opponent_stat_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "opponent")
    return matching(rollable_names(sheet), current) if sheet else []


async def burden_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "name")
    return matching((b.name for b in sheet.burdens), current) if sheet else []


async def power_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "name")
    return matching((p.full_label for p in sheet.powers), current) if sheet else []


async def stunt_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "name")
    if sheet is None:
        return []
    typed = getattr(interaction.namespace, "power", None)
    try:
        powers = [sheet.powers[find_power(sheet, typed)]] if isinstance(typed, str) else []
    except BotError:
        powers = []
    return matching((s for p in powers or sheet.powers for s in p.stunts), current)


async def prop_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "name")
    return matching((p.name for p in sheet.props), current) if sheet else []


async def extra_trait_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    sheet = await sheet_in_option(interaction, "name")
    return matching(sheet.traits.extras, current) if sheet else []


async def metal_choices(interaction: Interaction, current: str) -> list[Choice[str]]:
    """Metals for Allomancy and Feruchemy; other Powers are named freely."""
    kind = getattr(interaction.namespace, "type", None)
    if kind in (PowerType.HEMALURGY.value, PowerType.KANDRA.value, PowerType.OTHER.value):
        return []
    return matching(METALS, current)
