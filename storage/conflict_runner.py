"""Running a Conflict's commands against the database: load, apply, save, all in one transaction.

The engine (``rules.conflict``) is pure; this is the glue docs/architecture.md describes: one interaction
loads the channel's Conflict and its participants' sheets, applies one command, and saves the
damaged sheets and the new Conflict state together inside ONE ``Storage.transaction()``.
Transactions run one at a time through the database's single writer, so concurrent commands
on one Conflict are applied one after another, each seeing the state the previous one left;
a command the new state no longer allows is refused with a :class:`~rules.errors.RulesError`
and writes nothing. No update is ever lost, and a failure at any point (even after a sheet was
written) rolls everything back.

When a transition ends the Conflict (the Narrator's ``End`` or a side all defeated) the row
is deleted in the same transaction, so the channel is free for the next one; the closing
summary is in the returned events.
"""

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from rules.character import Character
from rules.conflict import (
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
    load_conflict,
    needed_sheets,
    new_conflict,
    waiting,
)
from rules.errors import RulesError
from storage.characters import StoredCharacter
from storage.conflicts import NO_CONFLICT, StoredConflict
from storage.errors import NotFoundError
from storage.store import Repositories, Storage

MakeCommand = Callable[[Conflict, Mapping[int, Character]], Command]
"""Builds the command from the freshly loaded state and sheets, inside the transaction.

Use it when the command depends on the state (the attack id being defended, the participant
whose turn it is) or to check permissions against it; raise to refuse, and nothing is written.
"""


class Applied(BaseModel):
    """The outcome of one command: the new state, what to render, and what was written.

    ``stored`` is the saved row (its ``version`` for display or debugging), or None when the
    Conflict ended and its row was deleted. ``sheets`` are the character sheets saved with it.
    """

    model_config = ConfigDict(frozen=True)

    conflict: Conflict
    events: tuple[Event, ...]
    stored: StoredConflict | None
    sheets: tuple[StoredCharacter, ...] = ()
    characters: dict[int, Character] = {}
    """Every participant's sheet as it stands after the command, so a caller rendering the
    result need not read them all again."""
    revealed: frozenset[int] = frozenset()
    """Which of those sheets a Narrator has opened to the players (docs/rulings.md §7.1)."""

    @property
    def ended(self) -> bool:
        return self.conflict.phase is Phase.ENDED


async def load_sheets(tx: Repositories, guild_id: int, ids: Iterable[int]) -> dict[int, StoredCharacter]:
    """The sheets that still exist; a deleted one is left out and the engine says so if needed."""
    found: dict[int, StoredCharacter] = {}
    for character_id in sorted(set(ids)):
        try:
            found[character_id] = await tx.characters.get(guild_id, character_id)
        except NotFoundError:
            continue
    return found


async def _save(
    tx: Repositories,
    guild_id: int,
    channel_id: int,
    stored: StoredConflict,
    loaded: Mapping[int, StoredCharacter],
    transition: Transition,
) -> Applied:
    """Write the changed sheets, then the Conflict (or delete it once ended)."""
    written = []
    for character_id, sheet in sorted(transition.changed_sheets.items()):
        written.append(await tx.characters.update(guild_id, loaded[character_id], sheet))
    if transition.state.phase is Phase.ENDED:
        await tx.conflicts.delete(guild_id, channel_id, expected=stored)
        saved = None
    else:
        saved = await tx.conflicts.save(
            guild_id,
            stored,
            dump_conflict(transition.state),
            participants=[p.id for p in transition.state.participants],
        )
    characters = {cid: s.character for cid, s in loaded.items()} | dict(transition.changed_sheets)
    return Applied(
        conflict=transition.state,
        events=transition.events,
        stored=saved,
        sheets=tuple(written),
        characters=characters,
        revealed=frozenset(cid for cid, s in loaded.items() if s.revealed),
    )


async def run_transition(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    command: Command | MakeCommand,
    *,
    rng: random.Random | None = None,
    conflict_id: int | None = None,
) -> Applied:
    """Apply one command to the channel's Conflict, atomically.

    ``conflict_id``, when given, is the stored id of the Conflict the command was meant for (a
    prompt button carries it): attack ids restart in every Conflict, so without it a button
    left over from an ended Conflict could answer the next one's attack.

    Raises :class:`~storage.errors.NotFoundError` when no Conflict runs in the channel and
    :class:`~rules.errors.RulesError` when the command is not allowed now; in both cases
    nothing is written.
    """
    async with storage.transaction() as tx:
        stored = await tx.conflicts.get(guild_id, channel_id)
        if stored is None:
            raise NotFoundError(NO_CONFLICT)
        if conflict_id is not None and stored.id != conflict_id:
            raise RulesError("That prompt belongs to a Conflict that has ended.")
        state = load_conflict(stored.document)
        loaded = await load_sheets(tx, guild_id, (p.id for p in state.participants))
        sheets = {cid: s.character for cid, s in loaded.items()}
        chosen = command(state, sheets) if callable(command) else command
        missing = needed_sheets(state, chosen) - set(loaded)
        if missing:
            loaded.update(await load_sheets(tx, guild_id, missing))
            sheets = {cid: s.character for cid, s in loaded.items()}
        transition = apply(state, chosen, sheets, rng)
        return await _save(tx, guild_id, channel_id, stored, loaded, transition)


async def start_conflict(
    storage: Storage,
    guild_id: int,
    channel_id: int,
    conflict_type: ConflictType | str,
    stakes: str,
    joins: Sequence[Join] = (),
) -> Applied:
    """Start a Conflict in a channel that has none, with its first participants joined.

    Raises :class:`~storage.errors.AlreadyExistsError` if one is running, and RulesError for
    bad stakes or a participant who cannot join (then nothing is created).
    """
    async with storage.transaction() as tx:
        state = new_conflict(channel_id, conflict_type, stakes)
        loaded = await load_sheets(tx, guild_id, (join.character_id for join in joins))
        sheets = {cid: s.character for cid, s in loaded.items()}
        events: list[Event] = []
        for join in joins:
            transition = apply(state, join, sheets)
            state = transition.state
            events.extend(e for e in transition.events if e.type != "waiting")
        events.append(waiting(state))
        revealed = frozenset(cid for cid, s in loaded.items() if s.revealed)
        stored = await tx.conflicts.create(
            guild_id, channel_id, dump_conflict(state), participants=[p.id for p in state.participants]
        )
        characters = {cid: s.character for cid, s in loaded.items()}
        return Applied(
            conflict=state, events=tuple(events), stored=stored, characters=characters, revealed=revealed
        )


async def end_conflict(storage: Storage, guild_id: int, channel_id: int) -> Applied:
    """The Narrator ends the channel's Conflict; the events hold the summary."""
    return await run_transition(storage, guild_id, channel_id, End())


async def current_conflict(storage: Storage, guild_id: int, channel_id: int) -> Conflict | None:
    """The channel's Conflict as last committed, for showing its board; None if there is none."""
    stored = await storage.conflicts.get(guild_id, channel_id)
    return load_conflict(stored.document) if stored is not None else None
