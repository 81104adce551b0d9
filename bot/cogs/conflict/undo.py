"""Taking back a Conflict move: its mover (or a Narrator) presses **Undo** on its reply within
:data:`UNDO_WINDOW`, while the Conflict is still at the version that move wrote
(docs/rulings.md §4.24).

The move kept what it changed as it was before (``storage.conflict_undo``): the Conflict's
document and every sheet it changed. Taking it back writes those again as a *new* version, through
the same one data operation a move uses (``storage.moves``), so a prompt shown before the undo
is refused as any stale prompt is, and the table is told in a reply with the prompt asked again
and a journal entry. What the move told the journal goes with it, in the same transaction, so the
recap tallies as if it was never made; the dice it rolled stay in the roll log: they were rolled.
"""

from dataclasses import replace
from datetime import timedelta

import discord

from bot.access import Caller, keep_caller
from bot.cogs.conflict.answers import Reply, own_thread_parent
from bot.cogs.conflict.service import ConflictFlow, outcome_rows
from bot.cogs.conflict.transaction import Fresh, load
from bot.errors import BotError
from bot.reach import origin_of
from bot.served import channel_id_of, guild_id_of
from rules.character import Character
from rules.conflict import load_conflict, waiting
from rules.journal import EntryKind, JournalEntry
from storage.character_rows import StoredCharacter
from storage.conflict_documents import DOCUMENTS
from storage.conflict_moves import Applied
from storage.conflict_undo import UndoRecord
from storage.moves import MoveWrite
from storage.sql import utc_now
from storage.store import Repositories

UNDO_WINDOW = timedelta(seconds=10)
"""How long a move may be taken back (docs/rulings.md §4.24)."""
TOO_LATE = (
    "That move can no longer be taken back: only within 10 seconds, and only while nobody else has moved."
)
NOT_YOURS = "Only the one who made that move, or a Narrator, can take it back."


def check(record: UndoRecord | None, fresh: Fresh, version: int, asking: Caller) -> UndoRecord:
    """The record to take back, or a refusal in plain words (docs/rulings.md §4.24)."""
    current = fresh.stored.version
    if record is None or record.version != version or current != version:
        raise BotError(TOO_LATE)
    if asking.user_id != record.mover_id and not asking.narrator:
        raise BotError(NOT_YOURS)
    if utc_now() - record.made_at > UNDO_WINDOW:
        raise BotError(TOO_LATE)
    return record


async def sheets_before(
    tx: Repositories, guild_id: int, fresh: Fresh, record: UndoRecord
) -> list[tuple[StoredCharacter, Character]]:
    """Each sheet the move changed, as stored now and as it was before; refused when another
    change came to it since (a sheet's edit is a move too)."""
    rows = dict(fresh.rows)
    missing = {s.id for s in record.sheets} - set(rows)
    if missing:
        rows |= await tx.characters.get_many(guild_id, missing)
    restored = []
    for sheet in record.sheets:
        row = rows.get(sheet.id)
        if row is None or row.version != sheet.version:
            raise BotError(TOO_LATE)
        restored.append((row, Character.model_validate_json(sheet.document)))
    return restored


async def take_back(
    flow: ConflictFlow, interaction: discord.Interaction[discord.Client], conflict_id: int, version: int
) -> Reply:
    """Undo the move that wrote ``version`` of the channel's Conflict, in one transaction."""
    guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
    said, parent = origin_of(interaction), own_thread_parent(interaction)
    found = await flow.storage.conflicts.for_move(guild_id, channel_id)
    asking = keep_caller(interaction, found.settings)
    async with flow.storage.transaction() as tx:
        fresh = await load(
            tx, guild_id, channel_id, careful=True, interaction_id=interaction.id, conflict_id=conflict_id
        )
        record = check(await tx.undo.get(conflict_id), fresh, version, asking)
        restored = await sheets_before(tx, guild_id, fresh, record)
        await tx.journal.void_move(guild_id, conflict_id, record.made_at)  # as if never made
        sheets = fresh.sheets | {row.id: character for row, character in restored}
        state = load_conflict(record.document).with_sheets(sheets)
        stored = fresh.stored
        applied = Applied.model_construct(
            conflict=state,
            events=(waiting(state),),
            stored=stored.model_copy(update={"version": stored.version + 1, "document": record.document}),
            conflict_id=stored.id,
            characters=sheets,
            revealed=frozenset(cid for cid, s in fresh.rows.items() if s.revealed),
            before=None,
        )
        title = f"Taken back: {record.what}"
        reply = await flow.compose(guild_id, channel_id, applied, title=title, narrator=asking.narrator)
        whose = "their" if asking.user_id == record.mover_id else f"<@{record.mover_id}>'s"
        told = f"<@{asking.user_id}> took back {whose} last move ({record.what}); its dice stay rolled."
        content = "\n".join(line for line in (told, reply.content) if line)
        reply = replace(reply, content=content)
        entry = JournalEntry(
            at=utc_now(),
            kind=EntryKind.UNDONE,
            text=f"A move was taken back ({record.what})",
            conflict_id=stored.id,
        )
        participants = [p.id for p in state.participants]
        written = await tx.moves.write(
            MoveWrite(
                guild_id=guild_id,
                channel_id=channel_id,
                stored=stored,
                document=record.document,
                participants=participants,
                participants_changed=set(participants) != {p.id for p in fresh.state.participants},
                sheets=restored,
                messages=outcome_rows(reply, interaction.id, parent),
                journal=(entry,),
                said=said,
            )
        )
    DOCUMENTS.remember(record.document, state)
    saved = applied.model_copy(
        update={"stored": written.stored, "sheets": written.sheets, "messages": written.messages}
    )
    return flow.saved(reply, saved)
