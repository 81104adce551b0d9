"""One error type for everything the database refuses.

The bot shows ``str(error)`` to the player as it is, so every message is a full sentence that
says what happened and what to do. :class:`StorageError` is independent of
:class:`rules.errors.RulesError` so ``storage/`` does not depend on ``rules/`` for its errors; the
bot's error handler catches both.
"""


class StorageError(Exception):
    """A request the database could not carry out; the message is meant for the player."""


class NotFoundError(StorageError):
    """The row asked for does not exist in this server (or no longer does)."""


class AlreadyExistsError(StorageError):
    """A row with the same unique key (a character's name, a channel's Conflict) exists."""


class StaleWriteError(StorageError):
    """Someone else saved the row between our read and our write; reload and try again."""


class StorageUnavailableError(StorageError):
    """The database file cannot be written just now (read-only, disk full, I/O error, locked).

    Raised instead of the raw ``sqlite3`` error by ``Database.transaction()``, after it has
    rolled the transaction back, so the player learns that nothing was saved and the bot's
    global handler answers privately instead of apologising for a bug. The fault is outside
    the bot (the disk, the file system, another process) and usually clears by itself.
    """


class DatabaseBusyError(StorageUnavailableError):
    """Another process held the database for longer than the busy timeout."""


class SchemaVersionError(StorageError):
    """The database file was written by a newer version of the bot than this one."""


class LimitReachedError(StorageError):
    """A server or a member already has as many character sheets as the bot allows."""


class AlreadyHandledError(StorageError):
    """This very interaction's change was already saved (a retry or a replay): nothing changes."""
