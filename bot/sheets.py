"""Glue between a command and a character sheet: find it, check who may use it, form a pool.

Players control their own characters; Narrators control every character in the server.
Anyone in the server may *read* any sheet (the table sees them anyway).
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import discord
from discord import app_commands

from bot.checks import guild_id_of, is_narrator
from bot.errors import BotError, NotAllowed
from bot.render.common import clip, plain
from rules.character import Character
from rules.character.names import Standing, StatKind
from rules.character.stats import defeat_penalties, find_stat, rating_for, rollable_names
from rules.pool import Pool, build_pool
from storage import NotFoundError, StoredCharacter

if TYPE_CHECKING:
    from bot.app import MistbornBot

Interaction: TypeAlias = "discord.Interaction[MistbornBot]"
NAME_SHOWN = 64
"""At most this much of a name a user typed is repeated back (the longest name a sheet has)."""


async def load_character(interaction: Interaction, name: str | None) -> StoredCharacter:
    """The named character in this server, or the user's active one when no name is given."""
    guild_id = guild_id_of(interaction)
    storage = interaction.client.storage
    if name is not None and name.strip():
        try:
            return await storage.characters.get_by_name(guild_id, name)
        except NotFoundError:
            # Echo the name inert and short: a raw payload can carry 6000 characters of Markdown,
            # and a refusal longer than Discord's 2000 would never reach the user.
            shown = plain(clip(" ".join(name.split()), NAME_SHOWN))
            raise BotError(f"There is no character named {shown} in this server.") from None
    active = await storage.active.get(guild_id, interaction.user.id)
    if active is None:
        raise BotError("You have no active character here. Pick one with `/character use`, or name one.")
    return active


async def check_control(interaction: Interaction, character: Character, doing: str) -> None:
    """Refuse unless the user owns ``character`` or is a Narrator."""
    if character.owner_id == interaction.user.id or await is_narrator(interaction):
        return
    raise NotAllowed(
        f"{character.name} is not yours, so you cannot {doing}. Only its owner or a Narrator can."
    )


@dataclass(frozen=True)
class PoolRequest:
    """What a roll command asked for, before any sheet is read."""

    dice: int | None
    stat: str | None
    character: str | None
    traits: int = 0
    tool: int = 0
    circumstances: int = 0
    modifier: int = 0
    burning_pewter: bool = False


@dataclass(frozen=True)
class FormedPool:
    pool: Pool
    extra: bool
    title: str
    who: str
    stored: StoredCharacter | None = None
    spends: Standing | None = None
    """A Standing roll lowers that Standing by 1 (RULES.md §6); the caller saves it."""


async def form_pool(interaction: Interaction, request: PoolRequest, *, acting: bool = True) -> FormedPool:
    """Form the pool a roll command describes, from a bare count or a sheet (RULES.md §1).

    Rolling from a sheet needs control of it when ``acting``; the resisting side of a Contest
    may be anyone's sheet. Defeat penalties from the sheet are added automatically.
    """

    def form(rating: int, label: str, modifiers: list[tuple[str, int]]) -> Pool:
        return build_pool(
            rating,
            rating_label=label,
            traits_for=max(0, request.traits),
            traits_against=max(0, -request.traits),
            tool=request.tool,
            circumstances=request.circumstances,
            modifiers=modifiers,
        )

    extra_mods = [("Modifier", request.modifier)] if request.modifier else []
    if request.stat is None:
        if request.dice is None:
            raise BotError(
                "Say what to roll: `dice` for a number of dice, or `stat` for a rating on a sheet."
            )
        pool = form(request.dice, "Dice", extra_mods)
        label = f"{request.dice} dice"
        return FormedPool(pool=pool, extra=False, title=label, who=label)
    if request.dice is not None:
        raise BotError("Give either `dice` or `stat`, not both.")
    stored = await load_character(interaction, request.character)
    character = stored.character
    if acting:
        await check_control(interaction, character, "roll for them")
    ref = find_stat(character, request.stat)
    rating = rating_for(character, request.stat, request.burning_pewter)
    penalties = defeat_penalties(character, request.stat, request.burning_pewter)
    pool = form(rating, ref.label, [*penalties, *extra_mods])
    spends = ref.standing if ref.kind is StatKind.STANDING else None
    title = f"{character.name}: {ref.label}"
    return FormedPool(
        pool=pool, extra=character.is_extra, title=title, who=character.name, stored=stored, spends=spends
    )


async def character_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Names in this server starting with what was typed (suggestions only: callbacks re-check)."""
    if interaction.guild_id is None:
        return []
    found = await interaction.client.storage.characters.search(interaction.guild_id, current[:64])
    return [app_commands.Choice(name=s.name, value=s.name) for s in found]


async def own_character_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Like :func:`character_choices`, but a player's own characters only (Narrators see all)."""
    if interaction.guild_id is None:
        return []
    owner = None if await is_narrator(interaction) else interaction.user.id
    found = await interaction.client.storage.characters.search(interaction.guild_id, current[:64], owner)
    return [app_commands.Choice(name=s.name, value=s.name) for s in found]


async def _stat_names(
    interaction: Interaction, current: str, owner_option: str
) -> list[app_commands.Choice[str]]:
    name = getattr(interaction.namespace, owner_option, None)
    try:
        stored = await load_character(interaction, name if isinstance(name, str) else None)
    except Exception:  # suggestions are best effort: a typo in another option must not fail them
        return []
    key = current.strip().casefold()
    names = [n for n in rollable_names(stored.character) if key in n.casefold()]
    return [app_commands.Choice(name=n, value=n) for n in names[:25]]


async def stat_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Stats and Powers on the sheet named by ``character``/``actor`` (or the active one)."""
    owner = "actor" if "actor" in interaction.namespace else "character"
    return await _stat_names(interaction, current, owner)


async def opponent_stat_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await _stat_names(interaction, current, "opponent")
