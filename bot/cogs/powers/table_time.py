"""``/power time everyone:true``: the Narrator moves time on for the whole table at once
(docs/rulings.md §9.2, §9.4): the channel's Conflict's cast, else the Heroes at the table
(``bot.inputs.heroes``).

One interaction, one transaction: every sheet the time changed is saved with the version it was
loaded at and the charges it moved, each journalled (§9.9). The table reads the sheets it may
read; a hidden Villain's or Extra's figures go to the Narrator only (§7.1).
"""

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.errors import BotError
from bot.hidden import sheet_hidden, tell_change
from bot.inputs.heroes import scene_cast
from bot.inputs.sheet_changes import refresh_boards
from bot.reach import origin_of
from bot.records import charges_moved, sheet_change
from bot.render.common import plain
from bot.render.sheet import change_embed
from bot.served import guild_id_of
from rules.powers.ledger import Changed
from rules.powers.time import move_time
from rules.words import count_of
from storage import StoredCharacter

MOST = 25
"""The most sheets one move of time changes; a larger table is named in turn."""
EMBEDS = 10
"""Discord's embeds in one message."""


async def move_table_time(interaction: Interaction, minutes: int, *, named: bool = False) -> None:
    """Load the table → the Narrator's check → move time for each (pure) → save once → answer.
    A sheet time leaves as it was is not saved."""
    if named:
        raise BotError("Move time on for one character (`name:`) or for everyone, not both.")
    (await caller(interaction)).require_narrator("move time on for the table")
    cast = await scene_cast(interaction, MOST + 1)
    if not cast:
        raise BotError(
            "Nobody is at this table: start a Conflict here, or have the players pick their Heroes "
            "with `/character use`; or name one character with `name:`."
        )
    if len(cast) > MOST:
        raise BotError(
            f"Time moves for at most {MOST} characters at once; name them one by one with `name:`."
        )
    changes: list[tuple[StoredCharacter, Changed]] = []
    for stored in cast:
        changed = move_time(stored.character, minutes)
        if changed.character != stored.character:
            changes.append((stored, changed))
    storage, guild = interaction.client.storage, guild_id_of(interaction)
    saved: list[tuple[StoredCharacter, StoredCharacter, Changed]] = []
    async with storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        entries = []
        for stored, changed in changes:
            after = await tx.characters.update(guild, stored, changed.character)
            entries += sheet_change(after.updated_at, stored, changed.character, told=True)
            entries += charges_moved(after.updated_at, stored, changed.character, changed.moves)
            saved.append((stored, after, changed))
        await tx.journal.add(guild, origin_of(interaction), entries)
    for _, after, _ in saved:
        await refresh_boards(interaction, after)  # burns run dry in a Conflict's pause (§9.11)
    await _answer(interaction, minutes, len(cast), saved)


def _embed(after: StoredCharacter, changed: Changed, minutes: int) -> discord.Embed:
    text = "\n".join(plain(line) for line in (f"{minutes} minutes pass for {after.name}.", *changed.notes))
    return change_embed(after.character, text, sections=["metals"])


Saved = list[tuple[StoredCharacter, StoredCharacter, Changed]]


async def _answer(interaction: Interaction, minutes: int, count: int, saved: Saved) -> None:
    """The table sees the sheets it may read; a hidden sheet is told as ``/power time`` tells it
    (``bot.hidden.tell_change``: the table at most its state, the Narrator the figures)."""
    shown = [(b, a, c) for b, a, c in saved if not sheet_hidden(b, a.character)]
    head = f"{minutes} minutes pass for the table ({count_of(count, 'character')})."
    if not saved:
        head += " Nothing burns or is stored: no sheet changed."
    embeds = [_embed(after, changed, minutes) for _, after, changed in shown]
    await replies.send(interaction, head, embeds=embeds[:EMBEDS])
    for before, after, changed in saved:
        if sheet_hidden(before, after.character):
            embed = _embed(after, changed, minutes)
            await tell_change(interaction, interaction.client.storage, before, after.character, embed)
