"""The one object the bot holds: every repository, and a way to group writes in a transaction.

``bot/`` sees only :class:`Storage` and the pydantic models the repositories return, never SQL
or a connection. The same repositories run on SQLite (the default, one file) and on PostgreSQL
(``DATABASE_URL``, for a cluster of processes): ``storage.dialect`` bridges their SQL.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Self

from storage.active import ActiveCharacterRepository
from storage.advancements import AdvancementRepository
from storage.boards import BoardRepository
from storage.characters import CharacterRepository
from storage.conflict_undo import UndoRepository
from storage.conflicts import ConflictRepository
from storage.database import DEFAULT_DB_PATH, Database, TransactionSession
from storage.drafts import DraftRepository
from storage.handled import HandledRepository
from storage.identify import IdentifyRepository
from storage.journal import JournalRepository
from storage.moves import MoveRepository
from storage.outbox import OutboxRepository
from storage.portraits import PortraitRepository
from storage.postgres import PgDatabase, PgTransactionSession
from storage.refused import RefusedChannelRepository
from storage.requests import RequestRepository
from storage.rolls import RollLog
from storage.saved_rolls import SavedRollRepository
from storage.scenes import SceneRepository
from storage.secrets import SecretRepository
from storage.session import Session
from storage.settings import SettingsRepository
from storage.story import TrueDestinyRepository
from storage.templates import TemplateRepository
from storage.time_polls import TimePollRepository
from storage.web import WebRepository


class Repositories:
    """Every repository, bound to one :class:`Session`."""

    def __init__(self, session: Session) -> None:
        self.session = session
        """Where these repositories read and write."""
        self.characters = CharacterRepository(session)
        self.active = ActiveCharacterRepository(session)
        self.settings = SettingsRepository(session)
        self.rolls = RollLog(session)
        self.conflicts = ConflictRepository(session)
        self.boards = BoardRepository(session)
        self.drafts = DraftRepository(session)
        self.outbox = OutboxRepository(session)
        self.requests = RequestRepository(session)
        self.handled = HandledRepository(session)
        self.web = WebRepository(session)
        self.portraits = PortraitRepository(session)
        self.identify = IdentifyRepository(session)
        self.scenes = SceneRepository(session)
        self.moves = MoveRepository(session)
        self.undo = UndoRepository(session)
        self.journal = JournalRepository(session)
        self.refused = RefusedChannelRepository(session)
        self.saved_rolls = SavedRollRepository(session)
        self.time_polls = TimePollRepository(session)
        self.advancements = AdvancementRepository(session)
        self.true_destinies = TrueDestinyRepository(session)
        self.secrets = SecretRepository(session)
        self.templates = TemplateRepository(session)


class Storage(Repositories):
    """The database and its repositories; each repository call alone is one transaction.

    To make several writes all-or-nothing (a Conflict's new state and the damage it wrote to
    character sheets), use :meth:`transaction`::

        async with storage.transaction() as tx:
            conflict = await tx.conflicts.get(guild_id, channel_id)
            ...
            await tx.characters.update(guild_id, stored, damaged)
            await tx.conflicts.save(guild_id, channel_id, document, conflict.version)

    Inside it, reads see the transaction's own writes. On SQLite no other writer can
    interleave, so a version read there cannot go stale before the write; on PostgreSQL other
    processes can, so every write still checks its version (a stale one is refused, never
    overwritten), and a Conflict move locks its rows first (``ConflictRepository.lock``).
    """

    def __init__(self, database: Database | PgDatabase) -> None:
        super().__init__(database)
        self.database = database

    @classmethod
    async def open(cls, path: Path | str = DEFAULT_DB_PATH, *, url: str | None = None) -> Self:
        """Open the database (creating and migrating it as needed), with every character sheet
        in the latest format (``storage.sheet_format``).

        ``url`` (``DATABASE_URL``, ``postgresql://…``) opens that PostgreSQL database, shared
        by every process of a cluster; without it, the SQLite file at ``path`` as always.
        """
        database = await PgDatabase.open(url) if url else await Database.open(path)
        storage = cls(database)
        try:
            await storage.characters.upgrade_formats()
        except BaseException:
            await storage.close()
            raise
        return storage

    @property
    def backend(self) -> str:
        """Which database this is, in words (for the owner's ``/status``; no password)."""
        if isinstance(self.database, Database):
            return f"SQLite ({self.database.path.name})"
        return "PostgreSQL"

    @property
    def postgres(self) -> bool:
        """Whether this is a PostgreSQL database (some statements differ, ``per_dialect``)."""
        return not isinstance(self.database, Database)

    @property
    def sqlite(self) -> Database:
        """The SQLite database, for tools that work on the file itself (backups, tests of the
        file); a :class:`TypeError` on PostgreSQL."""
        if not isinstance(self.database, Database):
            raise TypeError("This storage is on PostgreSQL, not an SQLite file.")
        return self.database

    async def close(self) -> None:
        await self.database.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repositories]:
        """Repositories whose calls all join one transaction, committed when the block ends.

        If the block raises, nothing it wrote is kept. Inside the block use only the yielded
        repositories: a write through ``storage.<repository>`` would wait for this very
        transaction (so it raises instead), and its reads would not see the block's writes.
        """
        if isinstance(self.database, PgDatabase):
            async with self.database.transaction() as pg:
                yield Repositories(PgTransactionSession(pg))
            return
        async with self.database.transaction() as conn:
            yield Repositories(TransactionSession(conn))
