"""A Conflict move's writes as ONE data operation: :class:`MoveWrite` in, :class:`MoveWritten` out.

A move (``bot.cogs.conflict.transaction``) is prepared from what it read, then writes: the
interaction's claim, the rolls it made, the sheets it changed, the Conflict's new document (or
its deletion once ended) and the messages the table must see, all or nothing, each write
checking the version it was read at. :meth:`MoveRepository.write` takes all of that as one
description and keeps every guarantee on both databases:

* on SQLite it runs the repositories' own statements on the one writer, in a savepoint (its
  own transaction alone, or part of ``Storage.transaction()``); a statement there costs no trip;
* on PostgreSQL every statement is a network round trip, about twenty for a move, so the
  writes go as one JSON document to the ``apply_move`` function (migration 6,
  ``storage/schema/postgres/V006__apply_move.sql``): ONE statement that holds the Conflict's row
  and then its sheets in id order, claims the interaction, checks every version and writes.
  Alone it is its own transaction (autocommit on a pooled connection: no BEGIN, no COMMIT);
  inside ``Storage.transaction()`` it joins that one. A failed check raises in the function,
  so nothing of the move is kept, and is raised here as the repositories raise it:
  :class:`~storage.errors.AlreadyHandledError`, :class:`~storage.errors.StaleWriteError`,
  :class:`~storage.errors.NotFoundError`.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import orjson

from rules.character import Character
from rules.journal import JournalEntry
from storage import sheet_format
from storage.character_rows import StoredCharacter, taken
from storage.characters import CharacterRepository, updated_sheets
from storage.conflict_undo import UndoRecord, record_json
from storage.conflicts import ENDED, STALE, ConflictRepository, StoredConflict, save_document
from storage.database import TransactionSession
from storage.dialect import raised_message
from storage.errors import AlreadyHandledError, NotFoundError, StaleWriteError
from storage.handled import ALREADY, HandledRepository
from storage.journal import add_entries, entries_json
from storage.loop_connection import LoopConnection
from storage.name_keys import name_columns
from storage.outbox import NewMessage, OutboxMessage, add_messages, payload_text
from storage.places import Origin
from storage.postgres import PgDatabase, PgTransactionSession, unavailable
from storage.rolls import RollRecord, append_params
from storage.session import Session
from storage.sql import Connection, IntegrityError, execute, fetch_all, savepoint, to_text, utc_now

APPLY_MOVE = "SELECT apply_move(?::jsonb)"
MOVED = "WITH moved AS (SELECT apply_move(?::jsonb) AS ids)"
LOGGED = (
    "logged AS (INSERT INTO journal (guild_id, channel_id, at, kind, character_id, document,"
    " private_thread_id, actor_id)"
    " SELECT j.guild_id, j.channel_id, j.at, j.kind, j.character_id, j.document, j.private_thread_id,"
    " j.actor_id FROM jsonb_to_recordset(?::jsonb) AS j(guild_id bigint, channel_id bigint, at text,"
    " kind text, character_id bigint, document text, private_thread_id bigint, actor_id bigint) RETURNING 1)"
)
APPLY_MOVE_JOURNALED = f"{MOVED}, {LOGGED} SELECT ids FROM moved"
"""The move and its journal entries (``storage.journal``) in the same ONE statement: a data-modifying
WITH runs whether or not it is read, and a check ``apply_move`` fails undoes both. Its record for
an undo (``storage.conflict_undo``) is in the document ``apply_move`` writes to the Conflict's row."""
_ROLL_COLUMNS = [
    "guild_id",
    "user_id",
    "at",
    "label",
    "dice",
    "free_nudges",
    "underflow",
    "difficulty",
    "faces",
    "result",
    "outcome",
    "success",
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "secret",
    "channel_id",
    "private_thread_id",
]


_ROW = "(" + ", ".join(["?"] * len(_ROLL_COLUMNS)) + ")"


def _rolls_insert(count: int) -> str:
    """The roll log's rows of one move in one INSERT (``storage.rolls`` logs them one by one)."""
    return f"INSERT INTO roll_log ({', '.join(_ROLL_COLUMNS)}) VALUES " + ", ".join([_ROW] * count)


@dataclass(frozen=True)
class MoveWrite:
    """What one move writes, each row with the version it was read at."""

    guild_id: int
    channel_id: int
    stored: StoredConflict
    """The Conflict as the move read it (its id and version are checked)."""
    document: str | None
    """The new document, or None: the move ended the Conflict and its row is deleted."""
    participants: Sequence[int]
    sheets: Sequence[tuple[StoredCharacter, Character]]
    """Each changed sheet as read, and as it is now; in id order."""
    participants_changed: bool = True
    """Whether ``participants`` differ from those of ``stored`` (a join, a leave): only then is
    the index of who is in the Conflict rewritten on SQLite (``ConflictRepository.save``)."""
    rolls: Sequence[RollRecord] = ()
    messages: Sequence[NewMessage] = ()
    interaction_id: int | None = None
    """Claimed: a replayed interaction writes nothing. On SQLite the message that answers it is
    the claim (one outbox row per interaction, ``storage.outbox``), so a replay fails at that
    insert and the savepoint keeps nothing; a move with no such message claims it first
    (``storage.handled``). PostgreSQL's ``apply_move`` claims it first either way."""
    journal: Sequence[JournalEntry] = ()
    """What the move tells the session's journal (``storage.journal``), kept with it."""
    said: Origin | None = None
    """Where the move was made, as the journal files it (a Conflict's thread: its parent);
    None: the Conflict's channel, by nobody in particular."""
    undo: UndoRecord | None = None
    """What the move changed, as it was before, kept so its mover may take it back
    (``storage.conflict_undo``); None: nothing to take back (the Conflict ended, or no mover)."""

    @property
    def answers_interaction(self) -> bool:
        """Whether one of the messages answers ``interaction_id`` (and so claims it)."""
        return any(m.interaction_id == self.interaction_id for m in self.messages)

    @property
    def origin(self) -> Origin:
        return self.said or Origin(channel_id=self.channel_id)


@dataclass(frozen=True)
class MoveWritten:
    """What the move left: the saved Conflict (None once deleted), sheets and outbox rows."""

    stored: StoredConflict | None
    sheets: tuple[StoredCharacter, ...]
    messages: tuple[OutboxMessage, ...]


class MoveRepository:
    """Writes a Conflict move, all or nothing, in one data operation."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def write(self, move: MoveWrite) -> MoveWritten:
        """Claim, roll, save the sheets and the Conflict and queue the messages, or nothing.

        Raises :class:`AlreadyHandledError` for a claimed interaction,
        :class:`NotFoundError` when the Conflict has ended or a sheet was deleted, and
        :class:`StaleWriteError` when the Conflict or a sheet changed since it was read.
        """
        session = self._session
        if isinstance(session, PgDatabase | PgTransactionSession):
            async with session.statement() as conn:
                return await _on_postgres(conn, move)
        now = utc_now()
        async with self._session.writing() as writer, savepoint(writer, "conflict_move"):
            assert isinstance(writer, LoopConnection)  # PostgreSQL's sessions returned above
            # The statements go straight to the writer this block holds (a repository's own
            # call would take it again, in a context manager of its own, for each of them).
            tx = TransactionSession(writer)
            if move.interaction_id is not None and not move.answers_interaction:
                await HandledRepository(tx).claim(move.interaction_id)
            if move.rolls:  # ONE statement for all of them (the table's trigger counts each row)
                params = [value for record in move.rolls for value in append_params(record)]
                await execute(writer, _rolls_insert(len(move.rolls)), params)
            sheets = (
                await CharacterRepository(tx).update_many(move.guild_id, move.sheets) if move.sheets else []
            )
            saved: StoredConflict | None = None
            if move.document is None:  # its undo goes with the row
                await ConflictRepository(tx).delete(move.guild_id, move.channel_id, move.stored)
            else:
                undo = None if move.undo is None else record_json(move.undo)
                if move.participants_changed:
                    saved = await ConflictRepository(tx).save(
                        move.guild_id, move.stored, move.document, participants=move.participants, undo=undo
                    )
                else:
                    saved = await save_document(writer, move.guild_id, move.stored, move.document, now, undo)
            rows = await add_messages(
                writer, move.guild_id, move.channel_id, move.stored.id, move.messages, now
            )
            await add_entries(writer, move.guild_id, move.origin, move.journal)
        return MoveWritten(saved, tuple(sheets), rows)


def move_document(move: MoveWrite, now: datetime) -> str:
    """The JSON document ``apply_move`` takes."""
    stamp = to_text(now)
    sheets = []
    for stored, character in move.sheets:
        name_key, search_key, sort_key = name_columns(character.name)
        sheets.append(
            {
                "id": stored.id,
                "version": stored.version,
                "name": character.name,
                "name_key": name_key,
                "search_key": search_key,
                "sort_key": sort_key,
                "owner_id": character.owner_id,
                "kind": character.kind.value,
                "document": character.model_dump_json(),
                "format_version": sheet_format.latest(),
            }
        )
    outbox = [
        {
            "action_id": message.action_id,
            "kind": message.kind.value,
            "payload": payload_text(message.payload),
            "interaction_id": message.interaction_id,
            "prompt_key": message.prompt_key,
        }
        for message in move.messages
    ]
    document = {
        "guild_id": move.guild_id,
        "channel_id": move.channel_id,
        "conflict_id": move.stored.id,
        "version": move.stored.version,
        "interaction_id": move.interaction_id,
        "now": stamp,
        "document": move.document,
        "participants": sorted(set(move.participants)),
        "sheets": sheets,
        "rolls": [dict(zip(_ROLL_COLUMNS, append_params(record), strict=True)) for record in move.rolls],
        "outbox": outbox,
        "undo": None if move.undo is None else record_json(move.undo),
    }
    return orjson.dumps(document).decode()  # compact, UTF-8 as it is: what json wrote, in a tenth of the time


async def _on_postgres(conn: Connection, move: MoveWrite) -> MoveWritten:
    now = utc_now()
    try:
        rows = await fetch_all(conn, *_pg_statement(move, now))
    except IntegrityError as error:
        raise taken(", ".join(character.name for _, character in move.sheets)) from error
    except Exception as error:
        refused = _refused(error, move) or unavailable(error)
        if refused is not None:
            raise refused from error
        raise
    ids = sorted(int(row_id) for row_id in rows[0][0])
    saved = None
    if move.document is not None:
        saved = move.stored.model_copy(
            update={"version": move.stored.version + 1, "updated_at": now, "document": move.document}
        )
    messages = tuple(
        OutboxMessage(
            **message.model_dump(),
            id=row_id,
            guild_id=move.guild_id,
            channel_id=move.channel_id,
            conflict_id=move.stored.id,
            created_at=now,
        )
        for row_id, message in zip(ids, move.messages, strict=True)
    )
    return MoveWritten(saved, tuple(updated_sheets(move.guild_id, list(move.sheets), now)), messages)


def _pg_statement(move: MoveWrite, now: datetime) -> tuple[str, tuple[object, ...]]:
    """The move as ONE statement: ``apply_move`` (which keeps the undo record on the Conflict's
    row), with its journal entries beside it."""
    document = move_document(move, now)
    if not move.journal:
        return APPLY_MOVE, (document,)
    return APPLY_MOVE_JOURNALED, (document, entries_json(move.guild_id, move.origin, move.journal))


def _refused(error: Exception, move: MoveWrite) -> Exception | None:
    """The repositories' error for the check ``apply_move`` says failed, if it says one."""
    message = raised_message(error)
    if message is None or not message.startswith("apply_move:"):
        return None
    check, _, sheet = message.removeprefix("apply_move:").partition(":")
    if check == "handled":
        return AlreadyHandledError(ALREADY)
    if check == "ended":
        return NotFoundError(ENDED)
    if check == "stale":
        return StaleWriteError(STALE)
    name = next((stored.name for stored, _ in move.sheets if str(stored.id) == sheet), "a sheet")
    if check == "sheet_stale":
        return StaleWriteError(f"Someone else changed {name} just now; try again.")
    return NotFoundError(
        f"{name} no longer exists in this server; it was deleted. /character list shows the sheets here."
    )
