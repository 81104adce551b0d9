"""A Conflict move's data operations: the record of a move and its locked load (its writes are
one operation of their own, ``storage.moves``).

The order of a move (load, build the command, apply it through ``rules.conflict``, compose the
messages, write, and on a stale version redo it inside one transaction) is the bot's
(``bot.cogs.conflict.transaction``); storage only loads and writes, each write checking the version it
was read at (docs/architecture.md, "Writes and reads under load").
"""

from pydantic import BaseModel, ConfigDict

from rules.character import Character
from rules.conflict import Conflict, Event, Phase, Waiting
from storage.character_rows import StoredCharacter
from storage.conflict_documents import load_stored
from storage.conflicts import StoredConflict
from storage.outbox import OutboxMessage
from storage.sql import back_to_back
from storage.store import Repositories, Storage


class Applied(BaseModel):
    """The outcome of one command: the new state, what to render, and what was written.

    ``stored`` is the saved row (its ``version`` for the board), or None when the Conflict
    ended and its row was deleted; ``conflict_id`` is its id either way. ``sheets`` are the
    character sheets saved with it, ``messages`` the outbox rows queued with it.
    """

    model_config = ConfigDict(frozen=True)

    conflict: Conflict
    events: tuple[Event, ...]
    stored: StoredConflict | None
    conflict_id: int = 0
    sheets: tuple[StoredCharacter, ...] = ()
    characters: dict[int, Character] = {}
    """Every participant's sheet as it stands after the command, so a caller rendering the
    result need not read them all again."""
    messages: tuple[OutboxMessage, ...] = ()
    revealed: frozenset[int] = frozenset()
    """Which of those sheets a Narrator has opened to the players (docs/rulings.md §7.1)."""
    before: Waiting | None = None
    """What the Conflict waited for before the command, so a question still waiting is not
    asked (and its player pinged) a second time."""

    @property
    def ended(self) -> bool:
        return self.conflict.phase is Phase.ENDED


Loaded = tuple[StoredConflict | None, dict[int, StoredCharacter]]
"""A channel's Conflict (None when it has none) and its participants' sheets by id."""


async def load_locked(tx: Repositories, guild_id: int, channel_id: int, interaction_id: int | None) -> Loaded:
    """Inside a transaction: lock the channel's Conflict (PostgreSQL: its row, then its sheets in
    id order, ``ConflictRepository.lock``), claim the interaction, and read the Conflict with its
    sheets. A replayed interaction changes nothing (its claim fails); it is queued behind the load.
    """
    await tx.conflicts.lock(guild_id, channel_id)
    claim = () if interaction_id is None else (tx.handled.claim(interaction_id),)
    (stored, loaded), *_ = await back_to_back(tx.conflicts.get_with_sheets(guild_id, channel_id), *claim)
    return stored, loaded


async def current_conflict(storage: Storage, guild_id: int, channel_id: int) -> Conflict | None:
    """The channel's Conflict as last committed, for showing its board; None if there is none."""
    stored = await storage.conflicts.get(guild_id, channel_id)
    return load_stored(stored) if stored is not None else None
