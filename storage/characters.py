"""Character sheets, stored as the rules' JSON document plus the columns we search on.

The sheet's format belongs to ``rules.character``; storage keeps ``model_dump_json()`` as it is
and copies out only what it must index: the name (as typed, and as the keys of
``rules.naming``: ``name_key`` unique per server, ``search_key`` and ``sort_key``; see
``storage.name_keys``), owner and kind. Every write checks and bumps a version, so two edits
made from the same old copy cannot silently overwrite each other. Each row also says which
format its document is in (``storage.sheet_format``), so an old sheet is upgraded, not misread.

``revealed`` is a column beside the sheet, not part of it: a Narrator opened this Villain's or
Extra's sheet to the players (docs/rulings.md §7.1). Lists and searches take ``public_only``,
the SQL form of ``bot.access.Caller.can_read``: only Heroes and revealed sheets.
"""

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import NoReturn

from rules.character import Character, revise_character
from rules.naming import KnownNames, name_key, search_key
from storage import sheet_format
from storage.character_rows import (
    BY_ID,
    BY_NAME,
    BY_OWNER,
    COLUMNS,
    FEW,
    IN_GUILD,
    LOOP_SEARCH,
    MAX_SEARCH,
    MISSING,
    NAMES,
    PUBLIC,
    SEARCH,
    STAMPS,
    STAMPS_OWNER,
    SUMMARIES,
    SUMMARIES_OWNER,
    UPGRADE_BATCH,
    CharacterSummary,
    SheetLimits,
    SheetStamp,
    StoredCharacter,
    check_limits,
    not_found,
    stamp_of,
    stored_character,
    summary_of,
    taken,
    update_many_statement,
)
from storage.errors import NotFoundError, StaleWriteError
from storage.name_keys import bindable, name_columns
from storage.session import Session
from storage.sheet_format import current_document
from storage.sql import (
    Connection,
    IntegrityError,
    execute,
    execute_many,
    fetch_all,
    fetch_one,
    insert,
    is_postgres,
    run_statement,
    to_text,
    utc_now,
)


def updated_sheets(
    guild_id: int, changes: Sequence[tuple[StoredCharacter, Character]], now: datetime
) -> list[StoredCharacter]:
    """The sheets as :func:`update_many_statement` left them."""
    return [
        StoredCharacter(
            id=stored.id,
            guild_id=guild_id,
            version=stored.version + 1,
            updated_at=now,
            character=character,
            revealed=stored.revealed,
        )
        for stored, character in changes
    ]


class CharacterRepository:
    """Every read and write of character sheets, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def create(
        self, guild_id: int, character: Character, limits: SheetLimits | None = None
    ) -> StoredCharacter:
        """Save a new character; its version starts at 1. The name must be free in the server,
        and within ``limits`` (counted while holding the writer, so two creates cannot both
        take the last place)."""
        now = utc_now()
        async with self._session.writing() as conn:
            if limits is not None:
                await check_limits(conn, guild_id, character, limits)
            try:
                row_id = await insert(
                    conn,
                    "INSERT INTO characters (guild_id, name, name_key, search_key, sort_key, owner_id, kind,"
                    " version, updated_at, document, format_version)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                    (
                        guild_id,
                        character.name,
                        *name_columns(character.name),
                        character.owner_id,
                        character.kind.value,
                        to_text(now),
                        character.model_dump_json(),
                        sheet_format.latest(),
                    ),
                )
            except IntegrityError as error:
                raise taken(character.name) from error
        return StoredCharacter(id=row_id, guild_id=guild_id, version=1, updated_at=now, character=character)

    async def get(self, guild_id: int, character_id: int) -> StoredCharacter:
        """The character with this id in this server; :class:`NotFoundError` if none."""
        row = await fetch_one(self._session.lookup, BY_ID, (guild_id, character_id))
        if row is None:
            raise NotFoundError(MISSING)
        return stored_character(row)

    async def get_by_name(self, guild_id: int, name: str) -> StoredCharacter:
        """The character with this very name in this server (by ``rules.naming.name_key``: any
        case, spacing or full-width form); :class:`NotFoundError` if none. No partial matches:
        use :meth:`find` for a name a player typed."""
        found = await self.named(guild_id, name)
        if found is None:
            raise not_found(name.strip())
        return found

    async def named(self, guild_id: int, name: str) -> StoredCharacter | None:
        """The character with this very name, as :meth:`get_by_name`, or None: one lookup the
        unique name index bounds, so a typed name that is a whole name costs no search."""
        row = await fetch_one(self._session.lookup, BY_NAME, (guild_id, bindable(name_key(name))))
        return stored_character(row) if row is not None else None

    async def list_by_guild(self, guild_id: int, owner_id: int | None = None) -> list[StoredCharacter]:
        """Every character in the server (or owned by one member), in name order."""
        if owner_id is None:
            rows = await fetch_all(self._session.reader, IN_GUILD, (guild_id,))
        else:
            rows = await fetch_all(self._session.reader, BY_OWNER, (guild_id, owner_id))
        return [stored_character(row) for row in rows]

    async def stamps(self, guild_id: int, owner_id: int | None = None) -> list[SheetStamp]:
        """Which state every sheet of the server (or of one member) is in, in name order, read
        from its columns alone: no document is read or parsed, so checking a server of
        thousands of sheets for what changed costs one cheap query (the web view's page)."""
        sql = STAMPS if owner_id is None else STAMPS_OWNER
        params: tuple[int, ...] = (guild_id,) if owner_id is None else (guild_id, owner_id)
        rows = await fetch_all(self._session.reader, sql + " ORDER BY sort_key", params)
        return [stamp_of(row) for row in rows]

    async def summaries(
        self, guild_id: int, owner_id: int | None = None, *, public_only: bool = False
    ) -> list[CharacterSummary]:
        """Every character in the server (or owned by one member; only the public ones with
        ``public_only``), in name order, read from the indexed columns alone: no sheet is
        parsed, so a long roster costs one cheap query."""
        public = PUBLIC if public_only else ""
        params: tuple[int, ...] = (guild_id,) if owner_id is None else (guild_id, owner_id)
        sql = (SUMMARIES if owner_id is None else SUMMARIES_OWNER) + public + " ORDER BY sort_key"
        return [summary_of(row) for row in await fetch_all(self._session.reader, sql, params)]

    async def known_names(self, guild_id: int, *, public_only: bool = False) -> KnownNames:
        """Every character's name in the server (only the public ones with ``public_only``) with
        the keys stored beside it, for "did you mean" (``rules.naming.did_you_mean``): nothing
        is normalized again, so a mistyped name costs a comparison, not a roster's keys."""
        sql = NAMES + (PUBLIC if public_only else "")
        rows = await fetch_all(self._session.reader, sql, (guild_id,))
        return KnownNames(
            [row["name"] for row in rows], [(row["name_key"], row["search_key"]) for row in rows]
        )

    async def page(
        self, guild_id: int, owner_id: int | None, *, public_only: bool, limit: int, offset: int
    ) -> tuple[int, list[CharacterSummary]]:
        """How many characters match (as :meth:`summaries`), and `limit` of them from `offset` in
        name order: one indexed query whatever the roster's size, no sheet parsed."""
        public = PUBLIC if public_only else ""
        params: tuple[int, ...] = (guild_id,) if owner_id is None else (guild_id, owner_id)
        base = (SUMMARIES if owner_id is None else SUMMARIES_OWNER) + public
        total = await fetch_one(self._session.reader, f"SELECT COUNT(*) AS n FROM ({base}) AS listed", params)
        rows = await fetch_all(
            self._session.reader, base + " ORDER BY sort_key LIMIT ? OFFSET ?", (*params, limit, offset)
        )
        return (0 if total is None else int(total["n"])), [summary_of(row) for row in rows]

    async def set_revealed(self, guild_id: int, character_id: int, revealed: bool) -> None:
        """Open a sheet to the players, or close it again (the sheet and its version stay)."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE characters SET revealed = ? WHERE guild_id = ? AND id = ?",
                (int(revealed), guild_id, character_id),
            )
        if not changed:
            raise NotFoundError(MISSING)

    async def search(
        self,
        guild_id: int,
        query: str,
        owner_id: int | None = None,
        limit: int = MAX_SEARCH,
        *,
        public_only: bool = False,
    ) -> list[CharacterSummary]:
        """Characters whose name contains ``query`` (by ``rules.naming.search_key``), at most 25.

        The character with the query's very name comes first, then the rest in name order
        (``rules.naming.sort_key``); an empty query lists the first ``limit``. For autocomplete.
        """
        found = await self._matches(guild_id, query, owner_id, limit, public_only)
        return [summary for summary, _ in found]

    async def find(
        self,
        guild_id: int,
        query: str,
        owner_id: int | None = None,
        limit: int = MAX_SEARCH,
        *,
        public_only: bool = False,
    ) -> list[CharacterSummary]:
        """The characters a typed name picks, as ``rules.naming.find_named`` would pick them.

        The character with that very name if there is one (alone), else every character whose
        name contains the query, in name order, at most ``limit``. One result is the character
        meant; none, no such name; several, ask which one. With ``public_only`` a secret sheet is
        not found at all, not even by its very name.
        """
        matches = await self._matches(guild_id, query, owner_id, limit, public_only)
        if matches and matches[0][1]:
            return [matches[0][0]]
        return [summary for summary, _ in matches]

    async def _matches(
        self, guild_id: int, query: str, owner_id: int | None, limit: int, public_only: bool
    ) -> list[tuple[CharacterSummary, bool]]:
        """Matching summaries, each with whether its name is the query's very name."""
        limit = max(0, min(limit, MAX_SEARCH))
        exact, wanted = bindable(name_key(query)), bindable(search_key(query))
        sql = SEARCH[(owner_id is not None, public_only)]
        if owner_id is None:
            params: tuple[object, ...] = (guild_id, exact, guild_id, exact, wanted, limit, limit)
        else:
            params = (guild_id, exact, owner_id, guild_id, exact, wanted, owner_id, limit, limit)
        rows = await fetch_all(await self._searcher(guild_id), sql, params)
        return [(summary_of(row), bool(row["exact"])) for row in rows]

    async def _searcher(self, guild_id: int) -> Connection:
        """Where to search the server's names: on the loop (a trip to a reader's thread and
        back costs more than the search) while the server's sheets are few enough that no
        search can walk far (:data:`LOOP_SEARCH`); on a reader otherwise, and on PostgreSQL,
        where the count would be one more round trip."""
        lookup = self._session.lookup
        if is_postgres(lookup):
            return self._session.reader
        row = await fetch_one(lookup, FEW, (guild_id,))
        few = row is not None and int(row["n"]) <= LOOP_SEARCH
        return lookup if few else self._session.reader

    async def update(self, guild_id: int, stored: StoredCharacter, character: Character) -> StoredCharacter:
        """Replace ``stored``'s sheet with ``character`` if nobody saved it since ``stored`` was read.

        Raises :class:`StaleWriteError` if someone else saved it first (reload and redo the
        change), :class:`NotFoundError` if it was deleted, and :class:`AlreadyExistsError` if
        the new name is taken.
        """
        [saved] = await self.update_many(guild_id, [(stored, character)])
        return saved

    async def update_many(
        self, guild_id: int, changes: Sequence[tuple[StoredCharacter, Character]]
    ) -> list[StoredCharacter]:
        """Replace several sheets as :meth:`update` does, in ONE statement batch (a Conflict
        move's damage); inside a transaction, one stale or deleted sheet undoes them all."""
        if not changes:
            return []
        now = utc_now()
        async with self._session.writing() as conn:
            statement = update_many_statement(guild_id, changes, now, postgres=is_postgres(conn))
            try:
                done = await run_statement(conn, statement)
            except IntegrityError as error:
                raise taken(", ".join(character.name for _, character in changes)) from error
            if statement.returns == "count":  # one sheet: how many rows it wrote
                written = {changes[0][0].id} if done else set()
            else:
                written = {int(row[0]) for row in done}
            for stored, _ in changes:
                if stored.id not in written:
                    await self._explain_miss(conn, guild_id, stored)
        return updated_sheets(guild_id, changes, now)

    async def upgrade_formats(self) -> int:
        """Rewrite every sheet stored in an older format in the latest one; return how many.

        Run at start (``Storage.open``): reading upgrades an old sheet anyway, this saves doing
        it on every read. The optimistic version stays: the sheet says the same as before.
        """
        newest, upgraded = sheet_format.latest(), 0
        while rows := await fetch_all(
            self._session.reader,
            "SELECT id, document, format_version FROM characters WHERE format_version < ? LIMIT ?",
            (newest, UPGRADE_BATCH),
        ):
            params = [
                (
                    current_document(row["document"], row["format_version"]),
                    newest,
                    row["id"],
                    row["format_version"],
                )
                for row in rows
            ]
            async with self._session.writing() as conn:
                await execute_many(
                    conn,
                    "UPDATE characters SET document = ?, format_version = ?"
                    " WHERE id = ? AND format_version = ?",
                    params,
                )
            upgraded += len(rows)
        return upgraded

    async def get_many(self, guild_id: int, character_ids: Collection[int]) -> dict[int, StoredCharacter]:
        """The characters with these ids that exist in this server, by id, in ONE query (a Conflict
        move loads every participant's sheet at once; a deleted sheet is simply absent)."""
        wanted = sorted(set(character_ids))
        if not wanted:
            return {}
        sql = "SELECT " + COLUMNS + " WHERE guild_id = ? AND id IN (" + ", ".join("?" * len(wanted)) + ")"
        rows = await fetch_all(self._session.lookup, sql, (guild_id, *wanted))
        return {int(row["id"]): stored_character(row) for row in rows}

    async def rename(self, guild_id: int, stored: StoredCharacter, new_name: str) -> StoredCharacter:
        """Give ``stored`` a new name, checked by the sheet's own rules and free in the server.

        A name the sheet refuses raises :class:`~rules.errors.RulesError`; a taken one
        :class:`AlreadyExistsError`.
        """
        return await self.update(guild_id, stored, revise_character(stored.character, name=new_name))

    async def delete(self, guild_id: int, character_id: int, expected_version: int | None = None) -> None:
        """Delete a character (and anyone's choice of it as their active character).

        With ``expected_version``, only if nobody saved it since that version.
        """
        async with self._session.writing() as conn:
            if expected_version is None:
                changed = await execute(
                    conn, "DELETE FROM characters WHERE guild_id = ? AND id = ?", (guild_id, character_id)
                )
            else:
                changed = await execute(
                    conn,
                    "DELETE FROM characters WHERE guild_id = ? AND id = ? AND version = ?",
                    (guild_id, character_id, expected_version),
                )
            if changed:
                return
            row = await fetch_one(
                conn, "SELECT name FROM characters WHERE guild_id = ? AND id = ?", (guild_id, character_id)
            )
        if row is None:
            raise NotFoundError(MISSING)
        raise StaleWriteError(f"Someone else changed {row['name']} just now; try again.")

    @staticmethod
    async def _explain_miss(conn: Connection, guild_id: int, stored: StoredCharacter) -> NoReturn:
        exists = await fetch_one(
            conn, "SELECT 1 FROM characters WHERE guild_id = ? AND id = ?", (guild_id, stored.id)
        )
        if exists is None:
            raise NotFoundError(
                f"{stored.name} no longer exists in this server; it was deleted. "
                "/character list shows the sheets here."
            )
        raise StaleWriteError(f"Someone else changed {stored.name} just now; try again.")
