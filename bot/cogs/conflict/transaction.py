"""A Conflict move's steps over storage: load, apply, write once; and the atomic start and end.

The engine (``rules.conflict``) is pure and storage only loads and writes
(``storage.conflict_moves``). A move (:meth:`bot.cogs.conflict.service.ConflictFlow.run`) calls
these steps in order: :func:`load` the channel's Conflict and its participants' sheets (ONE
query), build the command, :func:`apply_command`, compose, and :func:`write_once`: the damaged
sheets, the new Conflict state, the rolls and the messages the table must see (the outbox,
``storage.outbox``) together, all kept or none. Nothing is read again afterwards: the
:class:`Applied` that comes back holds the new state, every participant's sheet and the queued
messages, which is all a reply and a board need.

A move is first tried optimistically: loaded from the last committed state, outside the one
writer (:func:`attempt` with ``careful=False``), and only its writes run in one transaction,
each checking the version it was read at, so no other write waits while a move composes. When
another move or a sheet's edit came in between, the write raises
:class:`~storage.errors.StaleWriteError` and nothing of it is kept; the move is then done again
the careful way, read and written inside one transaction (on PostgreSQL, where several
processes share the database, it first locks the Conflict's row and then its sheets in id
order: ``ConflictRepository.lock``). Either way concurrent commands on one Conflict are applied
one after another, each seeing the state the previous one left; a command the new state no
longer allows is refused with a :class:`~rules.errors.RulesError` and writes nothing. No update
is ever lost, and a failure at any point (even after a sheet was written, or while composing
the messages) undoes everything. :func:`run_transition` is the same loop for a bare engine
command (tests, benchmarks, ``end_conflict``), with no reply to compose.

When a transition ends the Conflict (the Narrator's ``End`` or a side all defeated) the row
is deleted in the same transaction, so the channel is free for the next one; the closing
summary is in the returned events.

Parsing a stored Conflict is most of a move's CPU time: ``storage.conflict_documents`` keeps
the states of the last few documents, so a move parses only what another process wrote.
"""

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass

from bot.records import conflict_entries
from rules.character import Character
from rules.conflict import (
    Begin,
    Command,
    Conflict,
    ConflictType,
    End,
    Event,
    Join,
    Phase,
    Transition,
    apply,
    dump_conflict,
    needed_sheets,
    new_conflict,
    waiting,
)
from rules.errors import RulesError
from storage.character_rows import StoredCharacter
from storage.conflict_documents import DOCUMENTS, load_stored
from storage.conflict_moves import Applied, Loaded, load_locked
from storage.conflict_undo import SheetBefore, UndoRecord, kept_without_log
from storage.conflicts import NO_CONFLICT, StoredConflict
from storage.errors import NotFoundError, StaleWriteError
from storage.moves import MoveWrite
from storage.outbox import NewMessage
from storage.places import Origin
from storage.rolls import RollRecord
from storage.sql import utc_now
from storage.store import Repositories, Storage

ATTEMPTS = (False, True)
"""A move's attempts: optimistic first, then (only when that one's write was stale) careful."""
STALE = (StaleWriteError, NotFoundError)
"""What an optimistic write raises when another move or a sheet's edit came in between (or the
Conflict ended meanwhile): nothing of it was kept, and the careful attempt does it again."""


@dataclass(frozen=True)
class Fresh:
    """A channel's Conflict as one attempt loaded it: the stored row, its sheets' rows, and the
    state and sheets the move's command is built from."""

    stored: StoredConflict
    rows: dict[int, StoredCharacter]
    state: Conflict
    sheets: dict[int, Character]


@dataclass(frozen=True)
class Prepared:
    """One command applied to a loaded state; nothing is written yet."""

    fresh: Fresh
    rows: dict[int, StoredCharacter]
    """The loaded sheets' rows, and a joining character's."""
    transition: Transition
    applied: Applied


def attempt(storage: Storage, careful: bool) -> AbstractAsyncContextManager[Repositories]:
    """Where an attempt reads and writes: the storage itself (each call its own transaction),
    or, careful, one transaction for the whole move."""
    return storage.transaction() if careful else nullcontext(storage)


async def load(
    repos: Repositories,
    guild_id: int,
    channel_id: int,
    *,
    careful: bool,
    interaction_id: int | None = None,
    conflict_id: int | None = None,
    read: Loaded | None = None,
) -> Fresh:
    """The channel's Conflict and its sheets: as last committed, or (careful) locked, with the
    interaction claimed, inside the attempt's transaction (``load_locked``).

    ``conflict_id``, when given, is the stored id of the Conflict the move was meant for (a
    prompt button carries it): attack ids restart in every Conflict, so without it a button left
    over from an ended Conflict could answer the next one's attack.

    ``read``: the Conflict and its sheets as the move just read them (with who is asking,
    ``ConflictRepository.for_move``), so the optimistic attempt does not read them again.

    Raises :class:`~storage.errors.NotFoundError` when no Conflict runs in the channel.
    """
    if read is not None:
        stored, rows = read
    elif careful:
        stored, rows = await load_locked(repos, guild_id, channel_id, interaction_id)
    else:
        stored, rows = await repos.conflicts.get_with_sheets(guild_id, channel_id)
    if stored is None:
        raise NotFoundError(NO_CONFLICT)
    if conflict_id is not None and stored.id != conflict_id:
        raise RulesError("That prompt belongs to a Conflict that has ended.")
    sheets = {cid: s.character for cid, s in rows.items()}
    state = load_stored(stored).with_sheets(sheets)
    return Fresh(stored, rows, state, sheets)


async def apply_command(
    repos: Repositories, guild_id: int, fresh: Fresh, command: Command, rng: random.Random | None
) -> Prepared:
    """``command`` applied to what was loaded (a joining character's sheet read first); nothing
    is written. Raises :class:`~rules.errors.RulesError` when the command is not allowed."""
    rows = fresh.rows
    missing = needed_sheets(fresh.state, command) - set(rows)
    if missing:  # a character joining: the one sheet not already in hand
        rows = {**rows, **await repos.characters.get_many(guild_id, missing)}
    sheets = {cid: s.character for cid, s in rows.items()}
    revealed = frozenset(cid for cid, s in rows.items() if s.revealed)
    transition = apply(fresh.state, command, sheets, rng, revealed)
    ended = transition.state.phase is Phase.ENDED
    stored = fresh.stored
    # Built from checked parts (the engine's transition, the loaded rows): validating would
    # only run every sheet's own checks again.
    applied = Applied.model_construct(
        conflict=transition.state,
        events=transition.events,
        stored=None if ended else stored.model_copy(update={"version": stored.version + 1}),
        conflict_id=stored.id,
        characters=sheets | dict(transition.changed_sheets),
        revealed=revealed,
        before=waiting(fresh.state),
    )
    return Prepared(fresh, rows, transition, applied)


async def write_once(
    repos: Repositories,
    prepared: Prepared,
    *,
    messages: Sequence[NewMessage] = (),
    rolls: Sequence[RollRecord] = (),
    interaction_id: int | None = None,
    said: Origin | None = None,
    mover: int | None = None,
    what: str = "",
) -> Applied:
    """The move's writes as ONE data operation (``storage.moves``), alone or inside the careful
    attempt's transaction, and the :class:`Applied` with what was written.

    Every write checks the version it was read at, so a move prepared from a state someone has
    since changed raises :class:`~storage.errors.StaleWriteError` (or NotFoundError, once
    ended) and nothing of it is kept; the claim of ``interaction_id`` goes first, so a replayed
    interaction is what is reported. On PostgreSQL it is one statement (``apply_move``), which
    holds the Conflict's row and its sheets first. ``mover`` (with the move's title ``what``) may
    take it back: what it changed is kept as it was before (``storage.conflict_undo``)."""
    fresh, transition, applied = prepared.fresh, prepared.transition, prepared.applied
    stored = fresh.stored
    ended = transition.state.phase is Phase.ENDED
    document = None if ended else dump_conflict(transition.state)
    changed = sorted(transition.changed_sheets.items())
    now = utc_now()  # the undo's and the journal's: what the move told is found from its record's time
    undo = None
    if mover is not None and document is not None:
        whole = UndoRecord(
            conflict_id=stored.id,
            version=stored.version + 1,
            mover_id=mover,
            made_at=now,
            what=what,
            document=stored.document,
            sheets=tuple(
                SheetBefore(
                    cid, prepared.rows[cid].version + 1, prepared.rows[cid].character.model_dump_json()
                )
                for cid, _ in changed
            ),
        )
        undo = kept_without_log(whole, fresh.state, transition.state)
    write = MoveWrite(
        guild_id=stored.guild_id,
        channel_id=stored.channel_id,
        stored=stored,
        document=document,
        participants=[p.id for p in transition.state.participants],
        participants_changed=_ids(transition.state) != _ids(fresh.state),
        sheets=[(prepared.rows[cid], sheet) for cid, sheet in changed],
        rolls=tuple(rolls),
        messages=tuple(messages),
        journal=conflict_entries(
            now, transition.state, transition.events, stored.id, applied.characters, applied.revealed
        ),
        interaction_id=interaction_id,
        said=said,
        undo=undo,
    )
    written = await repos.moves.write(write)
    if document is not None:
        DOCUMENTS.remember(document, transition.state)
    return applied.model_copy(
        update={"stored": written.stored, "sheets": written.sheets, "messages": written.messages}
    )


def _ids(conflict: Conflict) -> set[int]:
    return {p.id for p in conflict.participants}


MakeCommand = Callable[[Conflict, Mapping[int, Character]], Command]
"""A bare command built from the freshly loaded state and sheets (tests, benchmarks)."""


async def run_transition(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    command: Command | MakeCommand,
    *,
    ready: Awaitable[object] | None = None,
    interaction_id: int | None = None,
    messages: Sequence[NewMessage] = (),
    rolls: Sequence[RollRecord] = (),
) -> Applied:
    """Apply one bare engine command to the channel's Conflict, atomically, with ``messages``
    and ``rolls`` written beside it: a move's loop (:meth:`ConflictFlow.run`) without a caller
    or a reply to compose, whose dice the engine throws itself. ``ready`` is awaited once the
    optimistic attempt has loaded (tests hold a move there to interleave another).
    ``interaction_id``, when given, is claimed with the move, and a second move with the same id
    raises :class:`~storage.errors.AlreadyHandledError` and writes nothing.

    Raises :class:`~storage.errors.NotFoundError` when no Conflict runs in the channel and
    :class:`~rules.errors.RulesError` when the command is not allowed now; in both cases
    nothing is written.
    """
    for careful in ATTEMPTS:
        async with attempt(storage, careful) as repos:
            fresh = await load(repos, guild_id, channel_id, careful=careful, interaction_id=interaction_id)
            if ready is not None and not careful:
                await ready
            chosen = command(fresh.state, fresh.sheets) if callable(command) else command
            prepared = await apply_command(repos, guild_id, fresh, chosen, None)
            try:
                return await write_once(
                    repos,
                    prepared,
                    messages=messages,
                    rolls=rolls,
                    interaction_id=None if careful else interaction_id,
                )
            except STALE:
                if careful:
                    raise
    raise AssertionError("the careful attempt either writes or raises")


async def start_conflict(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    conflict_type: ConflictType | str,
    stakes: str,
    joins: Sequence[Join] = (),
    *,
    begin: bool = False,
    messages: Sequence[NewMessage] = (),
) -> Applied:
    """Start a Conflict in a channel that has none (:func:`create_conflict`), in a transaction
    of its own, with ``messages`` queued beside it (tests and benchmarks; the bot's ``/conflict
    start`` composes its message inside the transaction, ``ConflictFlow.start``)."""
    async with storage.transaction() as tx:
        opened = new_conflict(channel_id, conflict_type, stakes)
        applied = await create_conflict(tx, guild_id, opened, joins, begin=begin)
        if not messages:
            return applied
        rows = await tx.outbox.add(guild_id, channel_id, applied.conflict_id, messages)
        return applied.model_copy(update={"messages": rows})


async def create_conflict(
    tx: Repositories,
    guild_id: int,
    opened: Conflict,
    joins: Sequence[Join] = (),
    *,
    begin: bool = False,
    said: Origin | None = None,
) -> Applied:
    """Inside ``tx``: the new Conflict ``opened`` (``rules.conflict.new_conflict``: its channel,
    kind, stakes and whether its rounds roll on, docs/rulings.md §4.17) with its first
    participants joined and its journal entries; with ``begin``, round 1 is opened too (else it
    gathers its cast until the Narrator's ``Begin``).

    Raises :class:`~storage.errors.AlreadyExistsError` if one is running, and RulesError for a
    participant who cannot join (then nothing is created).
    """
    state, channel_id = opened, opened.channel_id
    loaded = await tx.characters.get_many(guild_id, [join.character_id for join in joins])
    sheets = {cid: s.character for cid, s in loaded.items()}
    events: list[Event] = []
    for join in (*joins, *((Begin(),) if begin else ())):
        transition = apply(state, join, sheets)
        state = transition.state
        events.extend(e for e in transition.events if e.type != "waiting")
    events.append(waiting(state))
    document = dump_conflict(state)
    stored = await tx.conflicts.create(
        guild_id, channel_id, document, participants=[p.id for p in state.participants]
    )
    DOCUMENTS.remember(document, state)
    applied = Applied(
        conflict=state,
        events=tuple(events),
        stored=stored,
        conflict_id=stored.id,
        characters=sheets,
        revealed=frozenset(cid for cid, s in loaded.items() if s.revealed),
    )
    told = conflict_entries(utc_now(), state, applied.events, stored.id, sheets, applied.revealed)
    await tx.journal.add(guild_id, said or Origin(channel_id=channel_id), told)
    return applied


async def end_conflict(storage: Storage, guild_id: int, channel_id: int) -> Applied:
    """The Narrator ends the channel's Conflict; the events hold the summary."""
    return await run_transition(storage, guild_id, channel_id, End())
