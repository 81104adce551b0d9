"""A change of a Hero's Advancements ledger, saved with its journal entry in one transaction
(docs/rulings.md §10.1).

The ledger is part of the sheet, so the sheet's write *is* the ledger's; the journal entry that
says why goes in the same transaction, so a crash keeps both or neither. Every path that moves
Advancements (an award, a correction, a spend) comes through :func:`save_ledger`.
"""

from bot.client import Interaction
from bot.reach import origin_of
from bot.served import guild_id_of
from rules.character import Character
from rules.journal import TEXT_MAX, EntryKind, JournalEntry
from storage import StoredCharacter


def ledger_entry(stored: StoredCharacter, after: Character, text: str, amount: int) -> JournalEntry:
    """The journal's line for a ledger change: a Hero's, so the table reads it (§7.1)."""
    line = text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"
    return JournalEntry(
        at=stored.updated_at,
        kind=EntryKind.ADVANCEMENT,
        text=line,
        public=line,
        owner_id=after.owner_id,
        character_id=stored.id,
        hero=after.name,
        character_kind=after.kind,
        amount=amount,
    )


async def save_ledger(
    interaction: Interaction, stored: StoredCharacter, after: Character, text: str, amount: int
) -> StoredCharacter:
    """Save ``after`` over ``stored`` (the loaded version, so a change made meanwhile is never
    overwritten) and journal ``text``, once per interaction."""
    guild_id = guild_id_of(interaction)
    async with interaction.client.storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        saved = await tx.characters.update(guild_id, stored, after)
        entry = ledger_entry(saved, after, text, amount)
        await tx.journal.add(guild_id, origin_of(interaction), [entry])
        return saved
