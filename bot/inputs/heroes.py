"""Whom a Narrator's call addresses: the Heroes named, else the Heroes at this table.

The table is the channel's Conflict when it has Heroes, else every member's active Hero in the
server (docs/rulings.md §6.13, §5.12). ``bot.cogs.requests`` asks the same table
its rolls, through this one rule.
"""

from bot.client import Interaction
from bot.inputs.name_lists import split_names
from bot.served import channel_id_of, guild_id_of
from rules.character import CharacterKind
from storage import StoredCharacter


async def heroes_at_table(interaction: Interaction, typed: str | None, limit: int) -> list[StoredCharacter]:
    """The Heroes ``typed`` names, or those at this table when it names none."""
    storage, guild_id = interaction.client.storage, guild_id_of(interaction)
    if typed is not None:
        heroes = [s for s in await storage.characters.summaries(guild_id) if s.kind is CharacterKind.HERO]
        names = split_names(typed, [h.name for h in heroes])
        by_name = {h.name: h.id for h in heroes}
        found = await storage.characters.get_many(guild_id, [by_name[n] for n in names])
        return [found[by_name[n]] for n in dict.fromkeys(names) if by_name[n] in found]
    stored, sheets = await storage.conflicts.get_with_sheets(guild_id, channel_id_of(interaction))
    if stored is not None:
        at_table = [s for s in sheets.values() if s.character.kind is CharacterKind.HERO]
        if at_table:
            return sorted(at_table, key=lambda s: s.character.name)
    return await storage.active.heroes(guild_id, limit=limit)


async def scene_cast(interaction: Interaction, limit: int) -> list[StoredCharacter]:
    """Who is in the scene, by name: the channel's Conflict's cast, else the Heroes at the table
    (at most ``limit`` of them), as `/power sense` and `/power time everyone:` read it
    (docs/rulings.md §9.3, §9.11)."""
    storage, guild_id = interaction.client.storage, guild_id_of(interaction)
    stored, sheets = await storage.conflicts.get_with_sheets(guild_id, channel_id_of(interaction))
    if stored is not None and sheets:
        return sorted(sheets.values(), key=lambda s: s.character.name)
    return await heroes_at_table(interaction, None, limit)
