"""Live Conflicts: at most one per channel, stored as an opaque JSON document with a version.

Storage does not read the document; the Conflict engine owns its format. The version lets two
clicks that loaded the same Conflict find out that one of them is stale instead of silently
overwriting the other. Saves also check the Conflict's id, which is never reused: a version
alone cannot tell the running Conflict from an ended one that reached the same number.

Saving a Conflict together with the damage it dealt to character sheets is done by using this
repository and the characters repository inside one ``Storage.transaction()``.

Each save also records which characters are in the Conflict (``conflict_participants``, given by
the caller, who reads the document), in the same savepoint as the document, so "is Koel in a
Conflict, and where" (:meth:`ConflictRepository.channels_of`) is one indexed query and always
agrees with the saved Conflicts; a save whose caller says nobody joined or left keeps the index
as the version check proves it is.
"""

from collections.abc import Collection
from datetime import datetime
from typing import NamedTuple, NoReturn

from pydantic import AwareDatetime, BaseModel, ConfigDict

from storage.boards import BoardRow, board_row
from storage.character_rows import StoredCharacter, stored_character
from storage.errors import AlreadyExistsError, NotFoundError, StaleWriteError
from storage.session import Session
from storage.settings import SETTINGS_COLUMNS, GuildSettings, settings_of
from storage.sql import (
    Connection,
    IntegrityError,
    Row,
    Statement,
    back_to_back,
    execute,
    fetch_all,
    fetch_one,
    from_text,
    insert,
    is_postgres,
    run_statement,
    savepoint,
    to_text,
    utc_now,
)

NO_CONFLICT = "There is no Conflict running in this channel; a Narrator starts one with /conflict start."
ENDED = "That Conflict has ended; a Narrator starts a new one with /conflict start."
STALE = "Someone else changed this Conflict just now; try again."

_UPDATE = (
    "UPDATE conflicts SET document = ?, version = version + 1, updated_at = ?, undo = ?"
    " WHERE guild_id = ? AND id = ? AND version = ?"
)
_SELECT = (
    "SELECT id, guild_id, channel_id, version, updated_at, document FROM conflicts"
    " WHERE guild_id = ? AND channel_id = ?"
)


class StoredConflict(BaseModel):
    """A channel's live Conflict as saved, with the version to quote when saving it back."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    channel_id: int
    version: int
    updated_at: AwareDatetime
    document: str
    """The Conflict as JSON text, written and read by the Conflict engine."""


def _conflict(row: Row) -> StoredConflict:
    return StoredConflict(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        version=row["version"],
        updated_at=from_text(row["updated_at"]),
        document=row["document"],
    )


class LiveConflict(BaseModel):
    """A running Conflict and its board (None before the first board is drawn)."""

    model_config = ConfigDict(frozen=True)

    stored: StoredConflict
    board: BoardRow | None


_EMPTY_SETTINGS = ", ".join(f"CAST(NULL AS {kind}) AS {name}" for name, kind in SETTINGS_COLUMNS.items())
_WITH_SHEETS = (
    "SELECT 1 AS part, id, guild_id, channel_id, version, updated_at, document, 0 AS revealed,"
    " 0 AS format_version, " + _EMPTY_SETTINGS + " FROM conflicts WHERE guild_id = ? AND channel_id = ?"
    " UNION ALL SELECT 0, c.id, c.guild_id, 0, c.version, c.updated_at, c.document, c.revealed,"
    " c.format_version, "
    + ", ".join("NULL" for _ in SETTINGS_COLUMNS)
    + " FROM conflict_participants AS p JOIN characters AS c ON c.id = p.character_id"
    " WHERE p.guild_id = ? AND p.channel_id = ? AND c.guild_id = ?"
    " UNION ALL SELECT 2, guild_id, guild_id, 0, 0, NULL, NULL, 0, 0, "
    + ", ".join(SETTINGS_COLUMNS)
    + " FROM guild_settings WHERE guild_id = ?"
)
"""The Conflict's row (part 1), its participants' sheets (0) and its server's settings (2).
The sheets are joined to the participants' index by their id, the table's own key: one look-up
each (``id IN (…)`` went through the (server, id) index and then the table, and built a list
first; 13 µs against 22 for a duel's read)."""
_CONFLICT, _SHEET, _SETTINGS = 1, 0, 2


class ForMove(NamedTuple):
    """What a move reads before anything else, in ONE query: the channel's Conflict (None when
    it has none), its participants' sheets by id, and the server's settings (the defaults when it
    saved none), which say whether the member asking is a Narrator (``bot.access.keep_caller``)."""

    stored: StoredConflict | None
    sheets: dict[int, StoredCharacter]
    settings: GuildSettings


class ConflictRepository:
    """Starts, loads, saves (with a version check) and ends a channel's Conflict."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def lock(self, guild_id: int, channel_id: int) -> None:
        """Inside a transaction on PostgreSQL, hold the channel's Conflict row, then its sheets
        in id order, until it ends; nothing to do on SQLite, whose one writer already runs
        transactions one at a time.

        PostgreSQL's READ COMMITTED would let two processes read the same version and both
        compute a move from it; the second would then fail the version check and the player
        would be told to retry. With the row held, the second waits and then reads the first's
        result, as it would behind SQLite's writer. One fixed order (Conflict, then sheets by
        id) means two moves never wait for each other in a circle.
        """
        conn = self._session.reader
        for statement in lock_statements(guild_id, channel_id, postgres=is_postgres(conn)):
            await run_statement(conn, statement)

    async def get(self, guild_id: int, channel_id: int) -> StoredConflict | None:
        """The channel's live Conflict, or None if there is none."""
        row = await fetch_one(self._session.lookup, _SELECT, (guild_id, channel_id))
        return _conflict(row) if row is not None else None

    async def get_with_sheets(
        self, guild_id: int, channel_id: int
    ) -> tuple[StoredConflict | None, dict[int, StoredCharacter]]:
        """The channel's live Conflict and its participants' sheets, in ONE query.

        The sheets are found through ``conflict_participants``, which every save keeps in step
        with the document; a sheet deleted since is simply absent (the engine then says what it
        lacks).
        """
        stored, sheets, _ = await self.for_move(guild_id, channel_id)
        return stored, sheets

    async def for_move(self, guild_id: int, channel_id: int) -> ForMove:
        """The channel's live Conflict, its participants' sheets and the server's settings, in
        ONE query (:class:`ForMove`): a move's first read, where two were made before."""
        rows = await fetch_all(
            self._session.lookup,
            _WITH_SHEETS,
            (guild_id, channel_id, guild_id, channel_id, guild_id, guild_id),
        )
        parts: dict[int, list[Row]] = {_CONFLICT: [], _SHEET: [], _SETTINGS: []}
        for row in rows:
            parts[int(row["part"])].append(row)
        settings = settings_of(next(iter(parts[_SETTINGS]), None))
        if not parts[_CONFLICT]:
            return ForMove(None, {}, settings)
        sheets = {int(row["id"]): stored_character(row) for row in parts[_SHEET]}
        return ForMove(_conflict(parts[_CONFLICT][0]), sheets, settings)

    async def live(self, after_id: int = 0, limit: int = 100) -> list[LiveConflict]:
        """A page of running Conflicts with their boards, in id order after ``after_id``.

        Across servers on purpose: a restarted bot catches up every Conflict it runs, a page
        at a time so a thousand of them never sit in memory at once.
        """
        rows = await fetch_all(
            self._session.reader,
            "SELECT c.id, c.guild_id, c.channel_id, c.version, c.updated_at, c.document,"
            " b.message_id, b.conflict_id, b.rendered_version"
            " FROM conflicts AS c LEFT JOIN conflict_boards AS b"
            " ON b.guild_id = c.guild_id AND b.channel_id = c.channel_id"
            " WHERE c.id > ? ORDER BY c.id LIMIT ?",
            (after_id, limit),
        )
        return [
            LiveConflict(stored=_conflict(row), board=None if row["message_id"] is None else board_row(row))
            for row in rows
        ]

    async def channels_in(self, guild_id: int) -> list[int]:
        """The channels of this server with a live Conflict, oldest Conflict first (the web view)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT channel_id FROM conflicts WHERE guild_id = ? ORDER BY id",
            (guild_id,),
        )
        return [int(row["channel_id"]) for row in rows]

    async def channels_of(self, guild_id: int, character_id: int) -> list[int]:
        """The channels whose live Conflict has this character in it (usually none or one)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT channel_id FROM conflict_participants WHERE guild_id = ? AND character_id = ?"
            " ORDER BY channel_id",
            (guild_id, character_id),
        )
        return [int(row["channel_id"]) for row in rows]

    async def create(
        self, guild_id: int, channel_id: int, document: str, *, participants: Collection[int] = ()
    ) -> StoredConflict:
        """Start a Conflict in a channel that has none; its version starts at 1."""
        now = utc_now()
        async with self._session.writing() as conn, savepoint(conn, "conflict_create"):
            try:
                row_id = await insert(
                    conn,
                    "INSERT INTO conflicts (guild_id, channel_id, version, updated_at, document)"
                    " VALUES (?, ?, 1, ?, ?)",
                    (guild_id, channel_id, to_text(now), document),
                )
            except IntegrityError as error:
                raise AlreadyExistsError(
                    "A Conflict is already running in this channel; end it before starting another."
                ) from error
            await back_to_back(
                *(run_statement(conn, st) for st in index_statements(guild_id, channel_id, participants))
            )
        return StoredConflict(
            id=row_id, guild_id=guild_id, channel_id=channel_id, version=1, updated_at=now, document=document
        )

    async def save(
        self,
        guild_id: int,
        stored: StoredConflict,
        document: str,
        *,
        participants: Collection[int] | None = (),
        undo: str | None = None,
    ) -> StoredConflict:
        """Replace ``stored``'s document if nobody saved it since it was read; return the new state.

        ``participants`` are the characters in the new document; None says they are those of
        ``stored``, whose index the version check proves current, so it is left as it is (most
        moves: one statement instead of five). Raises :class:`StaleWriteError` if someone else
        saved it first, and :class:`NotFoundError` if it was ended meanwhile. ``undo``: the move's
        record for taking it back (``storage.conflict_undo``), kept by the same statement.
        """
        now = utc_now()
        if participants is None:
            async with self._session.writing() as conn:
                return await save_document(conn, guild_id, stored, document, now, undo)
        async with self._session.writing() as conn:
            # One wait for the database, not four: the index is rewritten right behind the
            # version check, and undone with it when the check finds someone was first.
            try:
                statements = save_statements(guild_id, stored, document, participants, now, undo)
                _, changed, *_ = await back_to_back(
                    execute(conn, "SAVEPOINT conflict_save"), *(run_statement(conn, st) for st in statements)
                )
                if not changed:
                    await self._explain_miss(conn, guild_id, stored.id)
            except BaseException:
                await back_to_back(
                    execute(conn, "ROLLBACK TO conflict_save"), execute(conn, "RELEASE conflict_save")
                )
                raise
            await execute(conn, "RELEASE conflict_save")
        return stored.model_copy(
            update={"version": stored.version + 1, "updated_at": now, "document": document}
        )

    async def delete(self, guild_id: int, channel_id: int, expected: StoredConflict | None = None) -> None:
        """End the channel's Conflict; with ``expected``, only if it is that one, unchanged since."""
        async with self._session.writing() as conn:
            if expected is None:
                changed = await execute(
                    conn,
                    "DELETE FROM conflicts WHERE guild_id = ? AND channel_id = ?",
                    (guild_id, channel_id),
                )
                if not changed:
                    raise NotFoundError(NO_CONFLICT)
                return
            changed = await execute(
                conn,
                "DELETE FROM conflicts WHERE guild_id = ? AND channel_id = ? AND id = ? AND version = ?",
                (guild_id, channel_id, expected.id, expected.version),
            )
            if not changed:
                await self._explain_miss(conn, guild_id, expected.id)

    @staticmethod
    async def _explain_miss(conn: Connection, guild_id: int, conflict_id: int) -> NoReturn:
        exists = await fetch_one(
            conn, "SELECT 1 FROM conflicts WHERE guild_id = ? AND id = ?", (guild_id, conflict_id)
        )
        if exists is None:
            raise NotFoundError(ENDED)
        raise StaleWriteError(STALE)


async def save_document(
    conn: Connection, guild_id: int, stored: StoredConflict, document: str, now: datetime, undo: str | None
) -> StoredConflict:
    """On ``conn`` (the caller holds the writer): :meth:`ConflictRepository.save` with its
    participants unchanged, made at ``now``; a move's save (``storage.moves``)."""
    if not await execute(conn, _UPDATE, (document, to_text(now), undo, guild_id, stored.id, stored.version)):
        await ConflictRepository._explain_miss(conn, guild_id, stored.id)
    return stored.model_copy(update={"version": stored.version + 1, "updated_at": now, "document": document})


def index_statements(
    guild_id: int, channel_id: int, participants: Collection[int]
) -> tuple[Statement, Statement]:
    """The two statements that record exactly ``participants`` as the characters in this
    channel's Conflict, to be run in order."""
    return (
        Statement(
            "DELETE FROM conflict_participants WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
        ),
        Statement(
            "INSERT INTO conflict_participants (guild_id, channel_id, character_id) VALUES (?, ?, ?)",
            returns="many",
            rows=[(guild_id, channel_id, character_id) for character_id in sorted(set(participants))],
        ),
    )


def save_statements(
    guild_id: int,
    stored: StoredConflict,
    document: str,
    participants: Collection[int],
    now: datetime,
    undo: str | None = None,
) -> tuple[Statement, ...]:
    """The version-checked document update, then the participants' index rewritten; in a
    savepoint, since the index must be undone when the check finds someone was first."""
    return (
        document_update(guild_id, stored, document, now, undo),
        *index_statements(guild_id, stored.channel_id, participants),
    )


def document_update(
    guild_id: int, stored: StoredConflict, document: str, now: datetime, undo: str | None = None
) -> Statement:
    """The new document, written only over the version ``stored`` was read at, with the record
    that takes the change back (``storage.conflict_undo``; None: nothing to take back)."""
    return Statement(_UPDATE, (document, to_text(now), undo, guild_id, stored.id, stored.version))


def lock_statements(guild_id: int, channel_id: int, *, postgres: bool) -> tuple[Statement, ...]:
    """What :meth:`ConflictRepository.lock` runs: on PostgreSQL, hold the channel's Conflict
    row and then its sheets in id order; nothing on SQLite."""
    if not postgres:
        return ()
    return (
        Statement(_SELECT + " FOR UPDATE", (guild_id, channel_id), returns="rows"),
        Statement(
            "SELECT id FROM characters WHERE guild_id = ? AND id IN (SELECT character_id"
            " FROM conflict_participants WHERE guild_id = ? AND channel_id = ?) ORDER BY id FOR UPDATE",
            (guild_id, guild_id, channel_id),
            returns="rows",
        ),
    )
