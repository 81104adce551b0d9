"""A Conflict move's one transaction body: load, build the command, apply, compose, save all or nothing.

The engine (``rules.conflict``) is pure and storage only loads and writes
(``storage.conflict_moves``); this is the order docs/architecture.md describes: one
interaction loads the channel's Conflict and its participants' sheets (ONE query), applies
one command, and saves the damaged sheets, the new Conflict state and the messages the table
must see (the outbox, ``storage.outbox``) together: all kept or none. Nothing is read again
afterwards: the :class:`Applied` that comes back holds the new state, every participant's
sheet and the queued messages, which is all a reply and a board need.

The load, the command and the messages come first, from the last committed state and outside
the one writer; then only writes follow, each checking the version it was read at, in one
transaction (:func:`run_transition`). When another move or a sheet's
edit came in between, nothing is kept and the move is done again inside one transaction that
reads and writes (on PostgreSQL, where several processes share the database, it first locks
the Conflict's row and then its sheets in id order: ``ConflictRepository.lock``). Either way
concurrent commands on one Conflict are applied one after another, each seeing the state the
previous one left; a command the new state no longer allows is refused with a
:class:`~rules.errors.RulesError` and writes nothing. No update is ever lost, and a failure at
any point (even after a sheet was written, or while composing the messages) undoes everything.

When a transition ends the Conflict (the Narrator's ``End`` or a side all defeated) the row
is deleted in the same transaction, so the channel is free for the next one; the closing
summary is in the returned events.

Parsing a stored Conflict is most of a move's CPU time: ``storage.conflict_documents`` keeps
the states of the last few documents, so a move parses only what another process wrote.
"""

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.rolling.journal import conflict_entries
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
from storage.conflicts import NO_CONFLICT, StoredConflict
from storage.errors import NotFoundError, StaleWriteError
from storage.moves import MoveWrite
from storage.outbox import NewMessage
from storage.places import Origin
from storage.rolls import RollRecord
from storage.sql import utc_now
from storage.store import Repositories, Storage

MakeCommand = Callable[[Conflict, Mapping[int, Character]], Command]
"""Builds the command from the freshly loaded state and sheets, inside the transaction.

Use it when the command depends on the state (the attack id being defended, the participant
whose turn it is) or to check permissions against it; raise to refuse, and nothing is written.
"""


Rolls = Callable[[Applied], Sequence[RollRecord]]
"""The rolls a move made, for the roll log, written in its transaction (the bot says whose)."""
Compose = Callable[[Applied], Awaitable[Sequence[NewMessage]]]
"""What the table must see of an :class:`Applied`, composed inside its transaction and queued
with it (the bot renders; storage only keeps the rows)."""


@dataclass(frozen=True)
class _Move:
    """One command applied to a loaded state, composed and ready to write."""

    stored: StoredConflict
    loaded: dict[int, StoredCharacter]
    transition: Transition
    applied: Applied
    write: MoveWrite


async def _prepare(
    repos: Repositories,
    guild_id: int,
    stored: StoredConflict | None,
    loaded: dict[int, StoredCharacter],
    command: Command | MakeCommand,
    rng: random.Random | None,
    conflict_id: int | None,
    compose: Compose | None,
    rolls: Rolls | None,
) -> _Move:
    """Apply the command to what was loaded and compose its messages; nothing is written.

    Raises :class:`~storage.errors.NotFoundError` when no Conflict was loaded and
    :class:`~rules.errors.RulesError` when the command is not allowed.
    """
    if stored is None:
        raise NotFoundError(NO_CONFLICT)
    if conflict_id is not None and stored.id != conflict_id:
        raise RulesError("That prompt belongs to a Conflict that has ended.")
    sheets = {cid: s.character for cid, s in loaded.items()}
    state = load_stored(stored).with_names({cid: sheet.name for cid, sheet in sheets.items()})
    chosen = command(state, sheets) if callable(command) else command
    missing = needed_sheets(state, chosen) - set(loaded)
    if missing:  # a character joining: the one sheet not already in hand
        loaded = {**loaded, **await repos.characters.get_many(guild_id, missing)}
        sheets = {cid: s.character for cid, s in loaded.items()}
    transition = apply(state, chosen, sheets, rng)
    ended = transition.state.phase is Phase.ENDED
    # Built from checked parts (the engine's transition, the loaded rows): validating would
    # only run every sheet's own checks again.
    applied = Applied.model_construct(
        conflict=transition.state,
        events=transition.events,
        stored=None if ended else stored.model_copy(update={"version": stored.version + 1}),
        conflict_id=stored.id,
        characters={cid: s.character for cid, s in loaded.items()} | dict(transition.changed_sheets),
        revealed=frozenset(cid for cid, s in loaded.items() if s.revealed),
        before=waiting(state),
    )
    messages = await compose(applied) if compose is not None else ()
    write = MoveWrite(
        guild_id=guild_id,
        channel_id=stored.channel_id,
        stored=stored,
        document=None if ended else dump_conflict(transition.state),
        participants=[p.id for p in transition.state.participants],
        participants_changed=_ids(transition.state) != _ids(state),
        sheets=[(loaded[cid], sheet) for cid, sheet in sorted(transition.changed_sheets.items())],
        rolls=tuple(rolls(applied)) if rolls is not None else (),
        messages=tuple(messages),
        journal=conflict_entries(
            utc_now(), transition.state, transition.events, stored.id, applied.characters, applied.revealed
        ),
    )
    return _Move(stored, loaded, transition, applied, write)


def _ids(conflict: Conflict) -> set[int]:
    return {p.id for p in conflict.participants}


async def _write(
    tx: Repositories | Storage,
    guild_id: int,
    channel_id: int,
    move: _Move,
    interaction_id: int | None,
    said: Origin | None = None,
) -> Applied:
    """The move's writes as ONE data operation (``storage.moves``), alone or inside the caller's
    transaction, and the :class:`Applied` with what was written. Every write checks the version
    it was read at, so a move prepared from a state someone has since changed raises
    :class:`~storage.errors.StaleWriteError` (or NotFoundError, once ended) and nothing of it is
    kept; the claim goes first, so a replayed interaction is what is reported. On PostgreSQL it
    is one statement (``apply_move``), which holds the Conflict's row and its sheets first."""
    written = await tx.moves.write(replace(move.write, interaction_id=interaction_id, said=said))
    return move.applied.model_copy(
        update={"stored": written.stored, "sheets": written.sheets, "messages": written.messages}
    )


async def run_transition(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    command: Command | MakeCommand,
    *,
    rng: random.Random | None = None,
    conflict_id: int | None = None,
    compose: Compose | None = None,
    ready: Awaitable[object] | None = None,
    interaction_id: int | None = None,
    rolls: Rolls | None = None,
    said: Origin | None = None,
    loaded: Loaded | None = None,
) -> Applied:
    """Apply one command to the channel's Conflict, atomically, with the messages it must show.

    ``conflict_id``, when given, is the stored id of the Conflict the command was meant for (a
    prompt button carries it): attack ids restart in every Conflict, so without it a button
    left over from an ended Conflict could answer the next one's attack. ``compose`` makes
    the outbox rows from the result. ``ready`` is awaited once the Conflict is loaded and
    before the command is built (tests hold a move there to interleave another).

    ``interaction_id``, when given, is recorded with the move, and a second move with the same
    id raises :class:`~storage.errors.AlreadyHandledError` and writes nothing. ``loaded``: the
    channel's Conflict and its sheets as the caller just read them (with who is asking,
    ``ConflictRepository.for_move``), so they are not read again.

    The move is first prepared from the last committed state, read outside the one writer
    (composing its messages may await), and only its writes, each checking the version it was
    read at, run in one transaction (:func:`_write`), so no other write waits while a move
    composes. When someone changed the Conflict or a sheet in between, nothing of it is kept,
    and the move is done again the careful way (:func:`_in_writer`): read and written inside
    one transaction, after the moves before it. Either way each move sees the state the one
    before it left.

    Raises :class:`~storage.errors.NotFoundError` when no Conflict runs in the channel and
    :class:`~rules.errors.RulesError` when the command is not allowed now; in both cases
    nothing is written.
    """
    stored, sheets = loaded or await storage.conflicts.get_with_sheets(guild_id, channel_id)
    if ready is not None:
        await ready
    move = await _prepare(storage, guild_id, stored, sheets, command, rng, conflict_id, compose, rolls)
    try:  # on PostgreSQL other processes' moves wait at the lock, first of the writes
        return _remembered(move, await _write(storage, guild_id, channel_id, move, interaction_id, said))
    except (StaleWriteError, NotFoundError):
        pass  # another move, or a sheet's edit, came in between: redo it after them
    return await _in_writer(
        storage,
        guild_id,
        channel_id,
        command,
        rng=rng,
        conflict_id=conflict_id,
        compose=compose,
        interaction_id=interaction_id,
        rolls=rolls,
        said=said,
    )


async def _in_writer(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    command: Command | MakeCommand,
    *,
    rng: random.Random | None,
    conflict_id: int | None,
    compose: Compose | None,
    interaction_id: int | None,
    rolls: Rolls | None,
    said: Origin | None = None,
) -> Applied:
    """The move read, applied and written inside one transaction: on SQLite no other write
    runs meanwhile, and on PostgreSQL the Conflict's row and its sheets are locked first."""
    async with storage.transaction() as tx:
        stored, loaded = await load_locked(tx, guild_id, channel_id, interaction_id)
        move = await _prepare(tx, guild_id, stored, loaded, command, rng, conflict_id, compose, rolls)
        return _remembered(move, await _write(tx, guild_id, channel_id, move, None, said))


def _remembered(move: _Move, applied: Applied) -> Applied:
    """``applied``, its new document kept with the state it holds (:data:`DOCUMENTS`)."""
    if move.write.document is not None:
        DOCUMENTS.remember(move.write.document, move.transition.state)
    return applied


async def start_conflict(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    conflict_type: ConflictType | str,
    stakes: str,
    joins: Sequence[Join] = (),
    *,
    begin: bool = False,
    compose: Compose | None = None,
    said: Origin | None = None,
) -> Applied:
    """Start a Conflict in a channel that has none, with its first participants joined; with
    ``begin``, round 1 is opened too (else it gathers its cast until the Narrator's ``Begin``).

    Raises :class:`~storage.errors.AlreadyExistsError` if one is running, and RulesError for
    bad stakes or a participant who cannot join (then nothing is created).
    """
    async with storage.transaction() as tx:
        state = new_conflict(channel_id, conflict_type, stakes)
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
        if compose is None:
            return applied
        rows = await tx.outbox.add(guild_id, channel_id, stored.id, await compose(applied))
        return applied.model_copy(update={"messages": rows})


async def end_conflict(storage: Storage, guild_id: int, channel_id: int) -> Applied:
    """The Narrator ends the channel's Conflict; the events hold the summary."""
    return await run_transition(storage, guild_id, channel_id, End())
