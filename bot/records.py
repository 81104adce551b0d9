"""The records every change writes beside itself, in its own transaction: its rows in the roll log
and its entries in the journal.

**The roll log** (``/history``, the fairness report) is the table's evidence that the dice are
honest, so every roll the bot makes is logged, with where it was rolled (docs/rulings.md §7.6):
a Conflict's rolls (each side of an action's Contest or Challenge) under the member who controls
the character rolling (a Hero's player, the Narrator who made a Villain or Extra), a secret
sheet's as secret rolls (§7.1, §7.2).

**The journal's lines** (``rules.journal``) are worded when the thing happens, by the renderers
the table's own messages use: a Conflict's events through ``event_line`` with the full and the
public :class:`~bot.render.visibility.Visibility` (§7.1), so the players' version says exactly
what the table was shown, and never more.
"""

from collections.abc import Mapping
from datetime import UTC, datetime

from bot.hidden import sheet_hidden, table_line
from bot.render.conflict_events import event_line
from bot.render.dice import faces_text
from bot.render.visibility import FULL
from bot.secrecy import is_secret, visibility_of
from rules.campaign.burden_use import burden_use_entries
from rules.campaign.presence import joined_entries
from rules.character import Character, CharacterKind
from rules.conflict import Conflict, Event
from rules.conflict import events as ev
from rules.conflict.events import Resolved
from rules.contest import ContestResult, Side
from rules.journal import TEXT_MAX, EntryKind, JournalEntry, sheet_entries
from rules.powers.ledger import Move, moves_line
from rules.request import RequestKind, RollRequest
from rules.roll import Reading
from storage.character_rows import StoredCharacter
from storage.conflict_moves import Applied
from storage.places import Origin
from storage.rolls import MAX_LABEL, RollRecord


def roll_record(
    guild_id: int, user_id: int, reading: Reading, label: str, *, origin: Origin, secret: bool = False
) -> RollRecord:
    """One thrown pool as the log keeps it, with where it was rolled (docs/rulings.md §7.6)."""
    return RollRecord(
        guild_id=guild_id,
        user_id=user_id,
        at=datetime.now(UTC),
        label=label[:MAX_LABEL],
        dice=reading.pool.dice,
        free_nudges=reading.pool.free_nudges,
        underflow=reading.pool.underflow,
        difficulty=reading.difficulty,
        faces=reading.faces,
        result=reading.result,
        outcome=reading.outcome,
        success=reading.success,
        secret=secret,
        channel_id=origin.channel_id,
        private_thread_id=origin.private_thread_id,
    )


def conflict_rolls(guild_id: int, applied: Applied, origin: Origin) -> list[RollRecord]:
    """The rolls a Conflict move made where ``origin`` says: both sides of each action it resolved."""
    records: list[RollRecord] = []
    conflict, sheets = applied.conflict, applied.characters
    for event in applied.events:
        if not isinstance(event, Resolved):
            continue
        sides = [(event.attacker, event.contest.acting_rolls, conflict.does(event.attacker, "acts"))]
        if event.target is not None:
            sides.append((event.target, event.contest.opposing_rolls, conflict.does(event.target, "defends")))
        for who, readings, label in sides:
            sheet = sheets.get(who)
            if sheet is None:
                continue
            secret = is_secret(sheet.kind, who in applied.revealed)
            records += [
                roll_record(guild_id, sheet.owner_id, r, label, origin=origin, secret=secret)
                for r in readings
            ]
    return records


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"


def reading_line(who: str, title: str, reading: Reading) -> str:
    result = f"Result {reading.result}" if reading.has_set else "no matching set"
    verdict = "success" if reading.success else "failure"
    return f"{who} rolled {title}: {faces_text(reading)} ({result}, {verdict}, Outcome {reading.outcome:+d})"


def roll_entry(
    at: datetime,
    user_id: int,
    who: str,
    title: str,
    reading: Reading,
    *,
    secret: bool,
    character_id: int | None,
) -> JournalEntry:
    """A roll: a ``/gmroll`` (or a hidden Villain's) reads in full for Narrators and its roller only."""
    text = _clip(reading_line(who, title, reading) + (" (secret)" if secret else ""))
    return JournalEntry(
        at=at,
        kind=EntryKind.ROLL,
        text=text,
        public=None if secret else text,
        owner_id=user_id,
        character_id=character_id,
        outcome=reading.outcome,
    )


def request_entry(
    at: datetime, user_id: int, who: str, reading: Reading, *, secret: bool, character_id: int | None
) -> JournalEntry:
    """A roll for the Narrator's request; a secret request's (or hidden roller's) is the Narrator's."""
    text = _clip(
        "For the Narrator's request, " + reading_line(who, "", reading).replace(" rolled :", " rolled:")
    )
    return JournalEntry(
        at=at,
        kind=EntryKind.REQUEST,
        text=text + (" (secret)" if secret else ""),
        public=None if secret else text,
        owner_id=user_id,
        character_id=character_id,
        outcome=reading.outcome,
    )


def _request_what(request: RollRequest) -> str:
    acting = ", ".join(r.name for r in request.side(Side.ACTING))
    spec = request.spec
    if request.kind is RequestKind.ROLL:
        return f"a {spec.stat} roll from {acting} (Difficulty {spec.difficulty})"
    opposing = ", ".join(r.name for r in request.side(Side.OPPOSING))
    other = spec.opposing_stat or "dice"
    return f"a Contest: {acting} ({spec.stat}) against {opposing} ({other})"


def _request_entry(at: datetime, request: RollRequest, text: str) -> JournalEntry:
    """A request's own step: a secret request's is the Narrator's alone (§7.1)."""
    secret = request.spec.secret
    return JournalEntry(
        at=at,
        kind=EntryKind.REQUEST,
        text=_clip(text + (" (secret)" if secret else "")),
        public=None if secret else _clip(text),
    )


def request_asked_entry(at: datetime, request: RollRequest) -> JournalEntry:
    """The Narrator's ``/request``, as asked (docs/rulings.md §6.13)."""
    return _request_entry(at, request, f"The Narrator asked for {_request_what(request)}.")


def request_closed_entry(at: datetime, request: RollRequest) -> JournalEntry:
    """The Narrator closed a request: who never rolled is part of the night."""
    missing = [r.name for r in request.rollers if not r.rolled]
    never = f"; {', '.join(missing)} never rolled" if missing else ""
    return _request_entry(
        at, request, f"The Narrator closed the request for {_request_what(request)}{never}."
    )


def contest_entry(at: datetime, acting: str, opposing: str, result: ContestResult) -> JournalEntry:
    if result.winner is None:
        verdict = "stalemate"
    else:
        winner = acting if result.acting_succeeds else opposing
        verdict = f"{winner} wins by {result.decided_by.value} (Outcome {result.outcome:+d})"
    other = result.opposing
    text = f"Contest: {acting} (Result {result.acting.result}) against {opposing}"
    text += f" (Result {other.result})" if other is not None else ""
    text = _clip(f"{text}: {verdict}.")
    return JournalEntry(at=at, kind=EntryKind.CONTEST, text=text, public=text, outcome=result.outcome)


def sheet_change(
    at: datetime, stored: StoredCharacter, after: Character, *, told: bool = False
) -> list[JournalEntry]:
    """What saving ``after`` over ``stored`` tells (``rules.journal.sheet_entries``).

    ``told``: the table was told of a hidden sheet's change (``bot.hidden.table_line``),
    so its hit or recovery reads that way in the table's journal too, as a Conflict's hidden
    blow does, without its numbers; its other changes stay the Narrator's (a "Burden gained"
    line would say what the table was not told)."""
    hidden = sheet_hidden(stored, after)
    entries = sheet_entries(stored.character, after, at, character_id=stored.id, hidden=hidden)
    said = table_line(stored.character, after) if hidden and told else None
    for index, entry in enumerate(entries):
        if said is not None and entry.kind in (EntryKind.DAMAGE, EntryKind.HEALING):
            entries[index] = entry.model_copy(update={"public": _clip(said.text), "numbers_public": False})
            break
    return entries


def charges_moved(
    at: datetime, stored: StoredCharacter, after: Character, moves: tuple[Move, ...]
) -> list[JournalEntry]:
    """Every charge a Power moved on ``stored``'s sheet, in one entry (docs/rulings.md §9.9);
    a hidden sheet's reserves are the Narrator's alone (§7.1)."""
    shown = not sheet_hidden(stored, after)
    return _metals_entry(at, stored.id, after.name, after.kind, moves, shown=shown)


def _metals_entry(
    at: datetime,
    character_id: int,
    hero: str,
    kind: CharacterKind | None,
    moves: tuple[Move, ...],
    *,
    shown: bool,
    conflict_id: int | None = None,
) -> list[JournalEntry]:
    """The moves of charges as one METALS line, for the table too when ``shown`` (§9.9)."""
    line = moves_line(hero, moves)
    if line is None:
        return []
    text = _clip(line)
    return [
        JournalEntry(
            at=at,
            kind=EntryKind.METALS,
            text=text,
            public=text if shown else None,
            character_id=character_id,
            hero=hero,
            character_kind=kind,
            conflict_id=conflict_id,
        )
    ]


def _who(
    conflict: Conflict, sheets: Mapping[int, Character], character: int | None
) -> tuple[str, CharacterKind | None]:
    """A fighter's name and kind as the Conflict has them (its sheet's, once they have left)."""
    found = conflict.find(character) if character is not None else None
    if found is not None:
        return found.name, found.kind
    sheet = sheets.get(character) if character is not None else None
    return (sheet.name, sheet.kind) if sheet is not None else ("", None)


_TOLD = (ev.DamageDealt, ev.Defeated, ev.BeatCaught, ev.RoundStarted, ev.ConflictEnded)


def conflict_entries(
    at: datetime,
    conflict: Conflict,
    events: tuple[Event, ...],
    conflict_id: int,
    sheets: Mapping[int, Character],
    revealed: frozenset[int],
) -> list[JournalEntry]:
    """What one Conflict move tells the journal: its start (round 1), new rounds, blows, Beats,
    defeats and end, each in the full and the table's wording."""
    public = visibility_of(conflict, sheets, revealed)
    # Who joined, so a Hero who fought is present at the night's awards (§10.1).
    entries = joined_entries(at, conflict, events, conflict_id, public.shows)
    for event in events:
        if isinstance(event, ev.ChargesMoved):
            name, of_kind = _who(conflict, sheets, event.participant)
            entries += _metals_entry(
                at,
                event.participant,
                name,
                of_kind,
                event.moves,
                shown=public.shows(event.participant),
                conflict_id=conflict_id,
            )
        if not isinstance(event, _TOLD):
            continue
        full, shown = event_line(conflict, event, FULL), event_line(conflict, event, public)
        kind, amount, character = EntryKind.ROUND, 0, None
        if isinstance(event, ev.RoundStarted) and event.round == 1:
            kind = EntryKind.CONFLICT_BEGAN
            full = shown = f"A {conflict.type.value} Conflict began, for {conflict.stakes}"
        elif isinstance(event, ev.ConflictEnded):
            kind = EntryKind.CONFLICT_ENDED
            full = shown = f"{shown} (stakes: {conflict.stakes})"
        elif isinstance(event, ev.DamageDealt):
            kind, character, amount = EntryKind.DAMAGE, event.target, event.taken
        elif isinstance(event, ev.Defeated):
            kind, character = EntryKind.DEFEATED, event.participant
        elif isinstance(event, ev.BeatCaught):
            kind, character, amount = EntryKind.BEAT, event.participant, 1
        hero, who = _who(conflict, sheets, character)
        entries.append(
            JournalEntry(
                at=at,
                kind=kind,
                text=_clip(full),
                public=_clip(shown),
                character_id=character,
                hero=hero,
                character_kind=who,
                amount=amount,
                numbers_public=public.shows(character) if character is not None else True,
                conflict_id=conflict_id,
            )
        )
        if isinstance(event, ev.DamageDealt):
            for burden in event.burdens_added:
                text = _clip(f"{hero} took the {burden.severity.label} Burden {burden.name}.")
                entries.append(
                    JournalEntry(
                        at=at,
                        kind=EntryKind.BURDEN_GAINED,
                        text=text,
                        public=text if public.shows(event.target) else None,
                        character_id=event.target,
                        hero=hero,
                        character_kind=who,
                        amount=1,
                        conflict_id=conflict_id,
                    )
                )
    # The Burden trigger's evidence (§10.1): each Burden a declaration counted toward its dice.
    return entries + burden_use_entries(at, conflict, events, conflict_id, sheets, shown=public.shows)
