"""Persistence for the bot: one SQLite file (or a shared PostgreSQL database) behind
repositories that speak pydantic models.

Nothing here knows about Discord; ids are plain ints. Start with ``await Storage.open(path)``,
or ``await Storage.open(url=DATABASE_URL)`` for PostgreSQL.
"""

from rules.naming import name_key
from storage.active import ActiveCharacterRepository
from storage.character_rows import CharacterSummary, SheetStamp, StoredCharacter
from storage.characters import CharacterRepository
from storage.conflicts import ConflictRepository, StoredConflict
from storage.database import DEFAULT_DB_PATH, Database, Session
from storage.drafts import DraftRepository, StoredDraft
from storage.errors import (
    AlreadyExistsError,
    DatabaseBusyError,
    NotFoundError,
    SchemaVersionError,
    StaleWriteError,
    StorageError,
    StorageUnavailableError,
)
from storage.migrations import LATEST_VERSION
from storage.outbox import MessageKind, NewMessage, OutboxMessage, OutboxRepository
from storage.portraits import Portrait, PortraitRepository
from storage.rolls import RollLog, RollRecord, RollStats
from storage.settings import GuildSettings, SettingsRepository
from storage.store import Repositories, Storage
from storage.web import WebRepository

__all__ = [
    "DEFAULT_DB_PATH",
    "LATEST_VERSION",
    "ActiveCharacterRepository",
    "AlreadyExistsError",
    "CharacterRepository",
    "CharacterSummary",
    "ConflictRepository",
    "Database",
    "DatabaseBusyError",
    "DraftRepository",
    "GuildSettings",
    "MessageKind",
    "NewMessage",
    "NotFoundError",
    "OutboxMessage",
    "OutboxRepository",
    "Portrait",
    "PortraitRepository",
    "Repositories",
    "RollLog",
    "RollRecord",
    "RollStats",
    "SchemaVersionError",
    "Session",
    "SettingsRepository",
    "SheetStamp",
    "StaleWriteError",
    "Storage",
    "StorageError",
    "StorageUnavailableError",
    "StoredCharacter",
    "StoredConflict",
    "StoredDraft",
    "WebRepository",
    "name_key",
]
