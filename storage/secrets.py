"""The Narrator's Secrets and whom each was told (migration 29; PostgreSQL 17; docs/rulings.md §10.3).

A Secret is a row of the server (its title unique there, as ``rules.naming`` compares names)
holding ``rules.campaign.secrets.Secret`` as JSON. Each reveal is a row: to one Hero (its
player reads the Secret from then on), or to the table (``character_id`` NULL: everyone reads
it). A reveal goes with its Secret or its Hero when either is deleted.
"""

from collections.abc import Collection
from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict

from rules.campaign.secrets import Secret
from rules.character.purchase_table import Unlock
from rules.naming import name_key, search_key
from storage.errors import AlreadyExistsError, NotFoundError
from storage.session import Session
from storage.sql import IntegrityError, Row, execute, fetch_all, fetch_one, from_text, insert, to_text

_COLUMNS = "id, guild_id, document, created_by, created_at"
TAKEN = "A Secret called {title} is already kept here: give this one another title, or edit that one."
MISSING = "That Secret is no longer kept here (it may have been deleted); `/secret list` shows them."


class StoredSecret(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    secret: Secret
    created_by: int
    created_at: AwareDatetime

    @property
    def title(self) -> str:
        return self.secret.title


class Reveal(BaseModel):
    """One telling: to a Hero (``character_id``), or to the table (None)."""

    model_config = ConfigDict(frozen=True)

    secret_id: int
    character_id: int | None
    channel_id: int
    revealed_by: int
    revealed_at: AwareDatetime


def _stored(row: Row) -> StoredSecret:
    return StoredSecret(
        id=row["id"],
        guild_id=row["guild_id"],
        secret=Secret.model_validate_json(row["document"]),
        created_by=row["created_by"],
        created_at=from_text(row["created_at"]),
    )


class SecretRepository:
    """The server's Secrets, and their reveals."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def add(self, guild_id: int, secret: Secret, created_by: int, at: datetime) -> StoredSecret:
        """Keep a new Secret; :class:`AlreadyExistsError` when its title is taken."""
        try:
            async with self._session.writing() as conn:
                new_id = await insert(
                    conn,
                    "INSERT INTO secrets (guild_id, title_key, document, created_by, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (guild_id, name_key(secret.title), secret.model_dump_json(), created_by, to_text(at)),
                )
        except IntegrityError as error:
            raise AlreadyExistsError(TAKEN.format(title=secret.title)) from error
        return StoredSecret(id=new_id, guild_id=guild_id, secret=secret, created_by=created_by, created_at=at)

    async def replace(self, stored: StoredSecret, secret: Secret) -> StoredSecret:
        """Rewrite a Secret (a new title, new words, what it unlocks)."""
        try:
            async with self._session.writing() as conn:
                count = await execute(
                    conn,
                    "UPDATE secrets SET title_key = ?, document = ? WHERE guild_id = ? AND id = ?",
                    (name_key(secret.title), secret.model_dump_json(), stored.guild_id, stored.id),
                )
        except IntegrityError as error:
            raise AlreadyExistsError(TAKEN.format(title=secret.title)) from error
        if count != 1:
            raise NotFoundError(MISSING)
        return stored.model_copy(update={"secret": secret})

    async def get(self, guild_id: int, secret_id: int) -> StoredSecret:
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {_COLUMNS} FROM secrets WHERE guild_id = ? AND id = ?",
            (guild_id, secret_id),
        )
        if row is None:
            raise NotFoundError(MISSING)
        return _stored(row)

    async def named(self, guild_id: int, title: str) -> StoredSecret | None:
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {_COLUMNS} FROM secrets WHERE guild_id = ? AND title_key = ?",
            (guild_id, name_key(title)),
        )
        return _stored(row) if row is not None else None

    async def all(self, guild_id: int) -> list[StoredSecret]:
        """Every Secret of the server, oldest first."""
        rows = await fetch_all(
            self._session.reader,
            f"SELECT {_COLUMNS} FROM secrets WHERE guild_id = ? ORDER BY id",
            (guild_id,),
        )
        return [_stored(row) for row in rows]

    async def count(self, guild_id: int) -> int:
        row = await fetch_one(
            self._session.reader, "SELECT COUNT(*) AS n FROM secrets WHERE guild_id = ?", (guild_id,)
        )
        return 0 if row is None else int(row["n"])

    async def delete(self, guild_id: int, secret_id: int) -> bool:
        async with self._session.writing() as conn:
            return bool(
                await execute(
                    conn, "DELETE FROM secrets WHERE guild_id = ? AND id = ?", (guild_id, secret_id)
                )
            )

    async def reveal(
        self, guild_id: int, secret_id: int, character_id: int | None, channel_id: int, by: int, at: datetime
    ) -> Reveal:
        """Record a telling: to a Hero, or to the table (``character_id`` None)."""
        async with self._session.writing() as conn:
            await execute(
                conn,
                "INSERT INTO secret_reveals"
                " (guild_id, secret_id, character_id, channel_id, revealed_by, revealed_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, secret_id, character_id, channel_id, by, to_text(at)),
            )
        return Reveal(
            secret_id=secret_id,
            character_id=character_id,
            channel_id=channel_id,
            revealed_by=by,
            revealed_at=at,
        )

    async def hold(self, guild_id: int, secret_id: int) -> None:
        """Inside a transaction, before reading whom a Secret was told: the Secret is still kept
        (:class:`NotFoundError` when deleted since), and a reveal of it at the same moment waits
        here until this one is committed (PostgreSQL's row lock; SQLite's writer is one), so
        that of two clicks of one Reveal button only one tells it (docs/rulings.md §10.3)."""
        async with self._session.writing() as conn:
            count = await execute(
                conn,
                "UPDATE secrets SET document = document WHERE guild_id = ? AND id = ?",
                (guild_id, secret_id),
            )
        if count != 1:
            raise NotFoundError(MISSING)

    async def told(self, guild_id: int) -> dict[int, frozenset[int | None]]:
        """Whom each Secret of the server was told, by its id: Heroes' ids, None for the table
        (Secrets never revealed are left out). One query, for the Narrator's list."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT secret_id, character_id FROM secret_reveals WHERE guild_id = ?",
            (guild_id,),
        )
        found: dict[int, set[int | None]] = {}
        for row in rows:
            found.setdefault(row["secret_id"], set()).add(row["character_id"])
        return {secret_id: frozenset(whom) for secret_id, whom in found.items()}

    async def reveals(self, guild_id: int, secret_id: int) -> list[Reveal]:
        rows = await fetch_all(
            self._session.reader,
            "SELECT secret_id, character_id, channel_id, revealed_by, revealed_at FROM secret_reveals"
            " WHERE guild_id = ? AND secret_id = ? ORDER BY id",
            (guild_id, secret_id),
        )
        return [
            Reveal(
                secret_id=row["secret_id"],
                character_id=row["character_id"],
                channel_id=row["channel_id"],
                revealed_by=row["revealed_by"],
                revealed_at=from_text(row["revealed_at"]),
            )
            for row in rows
        ]

    async def readable(self, guild_id: int, character_ids: Collection[int]) -> list[StoredSecret]:
        """The Secrets told to the table, or to any of ``character_ids`` (a player's Heroes)."""
        ids = sorted(set(character_ids))
        marks = ", ".join("?" * len(ids)) or "NULL"
        rows = await fetch_all(
            self._session.reader,
            f"SELECT {_COLUMNS} FROM secrets WHERE guild_id = ? AND id IN"
            " (SELECT secret_id FROM secret_reveals WHERE guild_id = ?"
            f" AND (character_id IS NULL OR character_id IN ({marks}))) ORDER BY id",
            (guild_id, guild_id, *ids),
        )
        return [_stored(row) for row in rows]

    async def unlocks(self, guild_id: int, character_id: int) -> frozenset[Unlock]:
        """What the rules Secrets ``character_id`` was told (or the table was) unlock for them."""
        return frozenset(
            s.secret.unlock for s in await self.readable(guild_id, [character_id]) if s.secret.unlock
        )

    async def search(self, guild_id: int, typed: str, limit: int = 25) -> list[StoredSecret]:
        """Secrets whose title contains ``typed`` (accents and case ignored), for suggestions."""
        wanted = search_key(typed)
        return [s for s in await self.all(guild_id) if wanted in search_key(s.title)][:limit]
