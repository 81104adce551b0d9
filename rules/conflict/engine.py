"""The one entry point: ``apply(state, command, sheets, rng) -> Transition``.

Every change to a Conflict is a pure function of the state, the command, the participants'
sheets and a dice generator: it returns the new state, the events to render and the sheets
it changed (damage), or raises :class:`~rules.errors.RulesError` saying why the command is
not allowed now. The caller (``bot.cogs.conflict.transaction``) loads, applies and saves all of it
in one transaction.

After every command the engine settles what follows by itself: the last declaration opens the
resolve phase, and a side with every member defeated ends the Conflict.
"""

import json
import random
from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from itertools import islice
from operator import is_

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.character import Character
from rules.conflict import damage, declare, defend, metals, resolve, roster, rounds
from rules.conflict.commands import (
    Act,
    AdjustDice,
    Begin,
    Burn,
    Command,
    Declare,
    Defend,
    Drink,
    End,
    Join,
    Leave,
    NextRound,
    Pass,
    Reorder,
    SetSurprised,
    SpendNudges,
    Switch,
    Throw,
)
from rules.conflict.events import Event, ResolveStarted
from rules.conflict.figure import grant_pool
from rules.conflict.order import declaration_order, next_declarer, resolve_order, waiting
from rules.conflict.specs import ConflictType
from rules.conflict.state import MAX_LOG, STAKES_MAX, Awaiting, Conflict, EndReason, LogEntry, Phase
from rules.conflict.upgrade import upgrade_v1
from rules.conflict.waiting import Step
from rules.conflict.work import Work, check_count, clean_text
from rules.errors import RulesError
from rules.memo import IdentityMemo
from rules.naming import name_key

MAX_DOCUMENT_CHARS = 512 * 1024


class Transition(BaseModel):
    """What one command did: the new state, what to show, and the sheets to save with it."""

    model_config = ConfigDict(frozen=True)

    state: Conflict
    events: tuple[Event, ...]
    changed_sheets: dict[int, Character]


def new_conflict(
    channel_id: int, conflict_type: ConflictType | str, stakes: str, *, auto_rounds: bool = False
) -> Conflict:
    """An empty Conflict gathering its cast: add participants with :class:`Join` commands, then
    open round 1 with :class:`Begin` (docs/rulings.md §4.22); ``auto_rounds``: each next round
    opens by itself once a round is over (§4.17)."""
    try:
        kind = ConflictType(name_key(str(conflict_type)))
    except ValueError:
        raise RulesError("A Conflict is physical, social or mental: choose one of them for kind.") from None
    check_count("The channel id", channel_id, 0, 2**63 - 1)
    stakes = clean_text(stakes, "The stakes", STAKES_MAX)
    return Conflict(channel_id=channel_id, type=kind, stakes=stakes, auto_rounds=auto_rounds)


def _dispatch(conflict: Conflict, work: Work, command: Command) -> Conflict:
    match command:
        case Join():
            return roster.join(conflict, work, command)
        case Begin():
            return rounds.begin(conflict, work, command)
        case Leave():
            return roster.leave(conflict, work, command)
        case Reorder():
            return roster.reorder(conflict, work, command)
        case SetSurprised():
            return roster.set_surprised(conflict, work, command)
        case Burn():
            return metals.burn(conflict, work, command)
        case Drink():
            return metals.drink(conflict, work, command)
        case AdjustDice():
            return roster.adjust_dice(conflict, work, command)
        case Declare():
            return declare.declare(conflict, work, command)
        case Act():
            return resolve.act(conflict, work, command)
        case Throw():
            return defend.throw(conflict, work, command)
        case Switch():
            return resolve.switch(conflict, work, command)
        case Pass():
            return resolve.pass_turn(conflict, work, command)
        case Defend():
            return defend.defend(conflict, work, command)
        case SpendNudges():
            return damage.spend_nudges(conflict, work, command)
        case NextRound():
            return rounds.next_round(conflict, work, command)
        case End():
            return rounds.end(conflict, work, command)
    raise RulesError("That is not a Conflict command.")


def _settle(conflict: Conflict, work: Work, *, roll_on: bool = True) -> Conflict:
    """What follows by itself: the resolve phase once all have declared, passing over anyone
    whose turn comes with no Action Dice (docs/rulings.md §4.9); the end once a side falls; and,
    in a Conflict whose rounds roll on, the next round once this one is over (§4.17), once."""
    if conflict.phase is Phase.DECLARE and declaration_order(conflict) and next_declarer(conflict) is None:
        conflict = conflict.model_copy(update={"phase": Phase.RESOLVE})
        work.emit(ResolveStarted(order=resolve_order(conflict)))
    conflict = resolve.pass_over_empty(conflict, work)
    sides = rounds.defeated_sides(conflict)
    if sides:
        conflict = rounds.finish(conflict, work, EndReason.SIDE_DEFEATED, sides)
    if conflict.phase is not Phase.ENDED:
        now = waiting(conflict)
        if roll_on and conflict.auto_rounds and now.step is Step.NEXT_ROUND:
            return _settle(rounds.next_round(conflict, work, NextRound()), work, roll_on=False)
        work.emit(now)
    return conflict


def apply(
    state: Conflict,
    command: Command,
    sheets: Mapping[int, Character],
    rng: random.Random | None = None,
    revealed: Collection[int] = (),
) -> Transition:
    """Apply one command (see ``rules.conflict.commands``) or raise RulesError, changing nothing.

    ``sheets`` maps character ids to sheets: every participant's, plus a joining character's
    (``needed_sheets`` lists them). ``rng`` throws any dice not given as faces. ``revealed``:
    the Villains and Extras whose sheets the table may read (docs/rulings.md §7.1).
    """
    work = Work.start(sheets, rng, revealed)
    conflict = _settle(_dispatch(state, work, command), work)
    # Built from the handlers' own models: validating would only check every sheet again.
    return Transition.model_construct(
        state=conflict, events=tuple(work.events), changed_sheets=dict(work.changed)
    )


def needed_sheets(state: Conflict, command: Command) -> set[int]:
    """The character ids whose sheets ``apply`` may read for this command."""
    ids = {p.id for p in state.participants}
    if isinstance(command, Join):
        ids.add(command.character_id)
    return ids


def available_defence(
    state: Conflict, sheets: Mapping[int, Character], participant_id: int, traits: int = 0
) -> int:
    """Dice the participant could defend with against the attack in progress (for the bot's prompt).

    Counts the Defense Dice a busy character would be granted, with ``traits`` reaction Traits
    helping (docs/rulings.md §4.11).
    """
    participant = state.participant(participant_id)
    pending = state.pending
    if pending is not None and pending.awaiting is Awaiting.DEFENCE and defend.needs_grant(participant):
        work = Work.start(sheets, None)
        reaction = Defend(participant=participant_id, dice=0, traits_for=traits)
        return participant.pile + max(0, grant_pool(state, work, participant, pending.action, reaction).total)
    return participant.pile


_ENTRY_TEXT: IdentityMemo[LogEntry, str] = IdentityMemo(4 * MAX_LOG)
"""Each log entry's JSON, written once: a long fight's log is most of its document, and every
state after shares the entries already logged (``rules.memo``)."""
_LOG_TEXT: IdentityMemo[tuple[LogEntry, ...], str] = IdentityMemo(64)
"""A whole log's JSON: most moves log nothing, and their state keeps the log it was given."""
_LOG_DROPPED = ',"log_dropped":'
"""Where the log goes back into the document: the key after it. A quote inside a JSON string is
escaped, so this text is only ever the key itself."""


def dump_conflict(conflict: Conflict) -> str:
    """The stored document, ``conflict.model_dump_json()`` exactly, with each log entry's JSON
    remembered from the move that logged it."""
    if not conflict.log:
        return conflict.model_dump_json()
    rest = conflict.model_dump_json(exclude={"log"})
    log = _LOG_TEXT.get(conflict.log, None, lambda: _log_text(conflict.log))
    at = rest.rindex(_LOG_DROPPED)
    return f'{rest[:at]},"log":{log}{rest[at:]}'


def _log_text(log: tuple[LogEntry, ...]) -> str:
    """A log's JSON. A log is only ever grown by one entry (``Conflict.with_log``), and once it
    holds :data:`MAX_LOG` its oldest entries fall off as the new one comes: a log written before
    that this one grew from gives all but the new entry's text, cut from the front; else each
    entry's is put together (what every move of a long fight paid, hundreds of entries a move)."""
    for before, text in tuple(_WRITTEN):  # a copy: safe to read beside another thread
        gone = len(before) + 1 - len(log)
        if 0 <= gone <= len(before) and all(map(is_, islice(before, gone, None), log)):
            start = 1 + sum(len(_entry_text(entry)) + 1 for entry in before[:gone])
            kept = text[start:-1]
            written = f"[{kept}{',' if kept else ''}{_entry_text(log[-1])}]"
            break
    else:
        written = "[" + ",".join(_entry_text(entry) for entry in log) + "]"
    _WRITTEN.append((log, written))
    return written


def _entry_text(entry: LogEntry) -> str:
    return _ENTRY_TEXT.get(entry, None, entry.model_dump_json)


_WRITTEN: deque[tuple[tuple[LogEntry, ...], str]] = deque(maxlen=8)
"""The last logs written, to find the one a new log grew from."""

_LOG_KEY = ',"log":'


@dataclass(frozen=True)
class CutLog:
    """A document kept without the part of its log the move's own document holds."""

    document: str
    """The document with its log cut to the entries the move pushed out at :data:`MAX_LOG`
    (none, unless it logged with its log full)."""
    taken: int
    """How many entries of the written log follow them (:func:`with_log_of`)."""
    pushed_out: bool
    """Whether the cut document still holds some entries (those the move pushed out)."""


def without_log(document: str, before: Conflict, after: Conflict) -> CutLog | None:
    """``document`` (holding ``before``) without the entries of its log that the log of
    ``after`` (the state a move made from it) still holds, as long as that log begins with them:
    they come back from it (:func:`with_log_of`). A move keeps the state it was made from so it
    may be taken back (docs/rulings.md §4.24), and the log is most of a long fight's document:
    kept whole, the move wrote it twice. A full log pushes its oldest entries out as new ones
    come (:data:`MAX_LOG`): those stay in the cut document, since only it still has them. None
    when the log cannot be cut (nothing to cut, the new log did not grow from this one, or the
    document does not hold it as this engine writes it)."""
    kept = before.log
    gone = after.log_dropped - before.log_dropped
    if not kept or not 0 <= gone < len(kept) or len(after.log) < len(kept) - gone:
        return None
    if not all(map(is_, islice(kept, gone, None), after.log)):
        return None
    log = _LOG_TEXT.get(kept, None, lambda: _log_text(kept))
    end = document.rfind(_LOG_DROPPED)
    start = end - len(log)
    if end < 0 or document[start - len(_LOG_KEY) : start] != _LOG_KEY or document[start:end] != log:
        return None
    oldest = ",".join(_entry_text(entry) for entry in kept[:gone])
    return CutLog(f"{document[:start]}[{oldest}]{document[end:]}", len(kept) - gone, gone > 0)


def with_log_of(document: str, written: str, kept: int) -> str:
    """The document :func:`without_log` cut, whole again: its log is the entries it still holds
    (those the move pushed out, if any), then the first ``kept`` entries of the log in
    ``written``, the document the move wrote."""
    cut = load_conflict(document)
    log = (*cut.log, *load_conflict(written).log[:kept])
    return dump_conflict(cut.model_copy(update={"log": log}))


UNREADABLE = "The stored Conflict could not be read; end it and start a new one."


def load_conflict(document: str | bytes) -> Conflict:
    """A stored Conflict, or a RulesError if the document is unreadable or from a newer version.

    A document saved by an older engine is upgraded first (``rules.conflict.upgrade``), so a
    Conflict running when the bot was updated plays on.
    """
    if len(document) > MAX_DOCUMENT_CHARS:
        raise RulesError("The stored Conflict is too large to read; end it and start a new one.")
    try:
        return Conflict.model_validate_json(document)
    except ValidationError as error:
        if not any(e["loc"] == ("schema_version",) for e in error.errors()):
            raise RulesError(UNREADABLE) from None
    data = json.loads(document)
    if not isinstance(data, dict) or data.get("schema_version") != 1:
        raise RulesError("This Conflict was saved by a newer version of the bot; update the bot.")
    try:
        return Conflict.model_validate(upgrade_v1(data))
    except ValidationError:
        raise RulesError(UNREADABLE) from None
