"""Heroes in the making: one draft per member per server, kept apart from the characters.

A draft is the guided builder's memory (docs/rulings.md §6.10): it lives in its own table, so no
list, search or Conflict ever finds it, and it survives a restart, so the builder's buttons and
``/character create`` pick it up again. The document is ``rules.character.draft.HeroDraft``'s
JSON; every save checks and bumps a version, so two clicks read from the same copy cannot
overwrite each other.

A draft nobody touched for ``KEPT_FOR`` (a week) is gone: reads ignore it, and starting or
resuming a draft removes every such draft of every server (cheap, by the index on
``updated_at``), so the table never keeps forgotten ones. A draft this bot can no longer read
(saved by another version) is gone too, and removed when its member starts again.
"""

from datetime import datetime
from typing import NoReturn

from pydantic import AwareDatetime, BaseModel, ConfigDict, ValidationError

from rules.character.draft import KEPT_FOR, HeroDraft
from storage.errors import AlreadyExistsError, NotFoundError, StaleWriteError
from storage.session import Session
from storage.sql import (
    Connection,
    IntegrityError,
    Row,
    execute,
    fetch_one,
    from_text,
    insert,
    to_text,
    utc_now,
)

GONE = (
    "That Hero in the making is gone: finished, cancelled, or left unused for a week. "
    "Start again with /character create."
)
_COLUMNS = "SELECT id, guild_id, user_id, version, updated_at, document FROM hero_drafts"


class StoredDraft(BaseModel):
    """A draft as saved, with the version to quote when saving it back."""

    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    user_id: int
    version: int
    updated_at: AwareDatetime
    draft: HeroDraft


def _stored(row: Row, now: datetime) -> StoredDraft | None:
    """The row's draft, or None when it is past its week or no longer reads."""
    updated = from_text(row["updated_at"])
    if updated < now - KEPT_FOR:
        return None
    try:
        draft = HeroDraft.model_validate_json(row["document"])
    except ValidationError:
        return None
    return StoredDraft(
        id=row["id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        version=row["version"],
        updated_at=updated,
        draft=draft,
    )


async def _explain_miss(conn: Connection, stored: StoredDraft) -> NoReturn:
    row = await fetch_one(
        conn, "SELECT 1 FROM hero_drafts WHERE guild_id = ? AND id = ?", (stored.guild_id, stored.id)
    )
    if row is None:
        raise NotFoundError(GONE)
    raise StaleWriteError("That step was just changed by another click; try again.")


class DraftRepository:
    """Every read and write of Hero drafts, always within one server."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def start(self, guild_id: int, user_id: int, draft: HeroDraft) -> StoredDraft:
        """Save a member's new draft (after removing every expired one); a member has one."""
        now = utc_now()
        await self.purge(now)
        async with self._session.writing() as conn:
            try:
                row_id = await insert(
                    conn,
                    "INSERT INTO hero_drafts (guild_id, user_id, version, updated_at, document)"
                    " VALUES (?, ?, 1, ?, ?)",
                    (guild_id, user_id, to_text(now), draft.model_dump_json()),
                )
            except IntegrityError as error:
                raise AlreadyExistsError(
                    "You are already making a Hero here; finish or cancel it."
                ) from error
        return StoredDraft(
            id=row_id, guild_id=guild_id, user_id=user_id, version=1, updated_at=now, draft=draft
        )

    async def of_member(self, guild_id: int, user_id: int, now: datetime | None = None) -> StoredDraft | None:
        """The member's draft in this server, if they have one still kept (expired ones go)."""
        now = now or utc_now()
        await self.purge(now)
        row = await fetch_one(
            self._session.lookup, _COLUMNS + " WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        if row is None:
            return None
        found = _stored(row, now)
        if found is None:  # a document this bot no longer reads: make room for a new draft
            async with self._session.writing() as conn:
                await execute(
                    conn, "DELETE FROM hero_drafts WHERE id = ? AND version = ?", (row["id"], row["version"])
                )
        return found

    async def get(self, guild_id: int, draft_id: int, now: datetime | None = None) -> StoredDraft:
        """The draft with this id in this server; :class:`NotFoundError` when it is gone."""
        row = await fetch_one(
            self._session.lookup, _COLUMNS + " WHERE guild_id = ? AND id = ?", (guild_id, draft_id)
        )
        found = _stored(row, now or utc_now()) if row is not None else None
        if found is None:
            raise NotFoundError(GONE)
        return found

    async def save(self, stored: StoredDraft, draft: HeroDraft) -> StoredDraft:
        """Replace ``stored``'s draft if nobody saved it since it was read."""
        now = utc_now()
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "UPDATE hero_drafts SET version = version + 1, updated_at = ?, document = ?"
                " WHERE guild_id = ? AND id = ? AND version = ?",
                (to_text(now), draft.model_dump_json(), stored.guild_id, stored.id, stored.version),
            )
            if not changed:
                await _explain_miss(conn, stored)
        return stored.model_copy(update={"version": stored.version + 1, "updated_at": now, "draft": draft})

    async def delete(self, stored: StoredDraft) -> None:
        """Remove the draft (cancelled, or finished into a character) as it was read."""
        async with self._session.writing() as conn:
            changed = await execute(
                conn,
                "DELETE FROM hero_drafts WHERE guild_id = ? AND id = ? AND version = ?",
                (stored.guild_id, stored.id, stored.version),
            )
            if not changed:
                await _explain_miss(conn, stored)

    async def purge(self, now: datetime | None = None) -> int:
        """Remove every draft untouched for ``KEPT_FOR``; how many went."""
        cutoff = to_text((now or utc_now()) - KEPT_FOR)
        async with self._session.writing() as conn:
            return await execute(conn, "DELETE FROM hero_drafts WHERE updated_at < ?", (cutoff,))
