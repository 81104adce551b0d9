"""The one load → check → change → save path of a sheet, shared by every cog that changes one
(``/sheet``, ``/edit``, ``/power``).

Every change runs the same way: find the sheet (the option's, else the caller's active one),
check the caller controls it (``bot.access``), make a pure change with ``rules.character``, then
save once with the version that was loaded, so an edit made meanwhile by someone else raises
``StaleWriteError`` instead of being overwritten. Every read checks the caller may read it.

A sheet in a live Conflict is guarded (docs/rulings.md §7.4): a change to what the fight reads
(Resiliences, Burdens, ratings, Powers, Props, size) goes through the Conflict, so a player's is
refused with where the Conflict is; a Narrator may still make it. A change that is made
redraws the board of each Conflict the character is in, which reads the sheet as it now stands
(its Resiliences, and the burns ``/sheet damage`` or ``/power`` ended, docs/rulings.md §9.2).
"""

from collections.abc import Callable

from bot.access import Caller, caller_of, require_read_of
from bot.client import Interaction
from bot.errors import NotAllowed
from bot.inputs.characters import named_or_active
from bot.reach import origin_of
from bot.records import charges_moved, sheet_change
from bot.render.common import plain
from bot.served import guild_id_of
from rules.character import Character
from rules.powers.ledger import Move
from storage import StoredCharacter

NAME_TO_READ = "The character (default: your active character)"
NAME_TO_CHANGE = "Your character to change (default: your active character)"


async def load_to_read(interaction: Interaction, given: StoredCharacter | None) -> StoredCharacter:
    """The named (or active) character, if the caller may read its sheet."""
    stored = await named_or_active(interaction, given)
    await require_read_of(interaction, interaction.client.storage, stored.character, stored.revealed)
    return stored


async def require_out_of_conflict(interaction: Interaction, who: Caller, stored: StoredCharacter) -> None:
    """Refuse a player's change to a sheet that is in a live Conflict, naming where it is."""
    if who.narrator:
        return
    channels = await interaction.client.storage.conflicts.channels_of(guild_id_of(interaction), stored.id)
    if channels:
        raise NotAllowed(
            f"{plain(stored.name)} is in the Conflict in <#{channels[0]}>: changes go through the "
            "Conflict, or ask the Narrator."
        )


async def load_to_change(
    interaction: Interaction, given: StoredCharacter | None, doing: str, *, in_play: bool = False
) -> StoredCharacter:
    """The named (or active) character, if the caller controls it; ``in_play``: a change the
    Conflict guards, refused to players while the character is in one."""
    stored = await named_or_active(interaction, given)
    who = await caller_of(interaction, interaction.client.storage)
    who.require_control(stored.character, doing)
    if in_play:
        await require_out_of_conflict(interaction, who, stored)
    return stored


async def save(
    interaction: Interaction,
    stored: StoredCharacter,
    new: Character,
    *,
    told: bool = False,
    moves: tuple[Move, ...] = (),
) -> StoredCharacter:
    """Save once, quoting the loaded version (a sheet changed meanwhile is never overwritten),
    with the interaction's id, so the same interaction retried or replayed changes nothing.
    ``told``: the change is answered at the table (``bot.hidden.tell_change``);
    ``moves``: the charges a Power moved, journalled with it."""
    guild_id = guild_id_of(interaction)
    async with interaction.client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        saved = await tx.characters.update(guild_id, stored, new)
        entries = sheet_change(saved.updated_at, stored, new, told=told)
        entries += charges_moved(saved.updated_at, stored, new, moves)
        await tx.journal.add(guild_id, origin_of(interaction), entries)
    await refresh_boards(interaction, saved)
    return saved


async def refresh_boards(interaction: Interaction, stored: StoredCharacter) -> None:
    """Redraw the board of every live Conflict ``stored`` is in: the sheet changed beside it."""
    guild_id = guild_id_of(interaction)
    for channel_id in await interaction.client.storage.conflicts.channels_of(guild_id, stored.id):
        interaction.client.conflicts.boards.refresh(guild_id, channel_id)


async def change(
    interaction: Interaction,
    given: StoredCharacter | None,
    doing: str,
    edit: Callable[[Character], Character],
    *,
    in_play: bool = False,
) -> StoredCharacter:
    """Load → check control (and the Conflict's guard) → pure change → save once."""
    stored = await load_to_change(interaction, given, doing, in_play=in_play)
    return await save(interaction, stored, edit(stored.character))
