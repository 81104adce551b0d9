"""Characters' portraits: the bot's own small re-encoding of an image, kept beside the sheet.

A portrait is a row of its own, keyed like the sheet (``(guild_id, character_id)``, deleted with
it), so the sheet's row, read on every roll and turn, never carries the image. Each portrait has
a random ``token``, new whenever it is replaced: the web view serves the image at an address
naming it (``bot.web``), unguessable, and unchanging for one image, so it may be cached for good.
The bytes stored are always the bot's re-encoding (``bot.render.portraits``), never an upload.
"""

import secrets
from dataclasses import dataclass

from storage.character_rows import MISSING
from storage.errors import NotFoundError
from storage.session import Session
from storage.sql import IntegrityError, Row, execute, fetch_all, fetch_one

TOKEN_BYTES = 16
"""128 random bits: an address nobody guesses."""


@dataclass(frozen=True, slots=True)
class Portrait:
    character_id: int
    token: str
    media_type: str
    image: bytes


class PortraitRepository:
    """Sets, reads and removes a character's portrait."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def set(self, guild_id: int, character_id: int, image: bytes, media_type: str) -> Portrait:
        """Give the character this portrait (replacing any), under a new token."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        async with self._session.writing() as conn:
            try:
                await execute(
                    conn,
                    "INSERT INTO character_portraits (guild_id, character_id, token, media_type, image)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, character_id) DO UPDATE SET"
                    " token = excluded.token, media_type = excluded.media_type, image = excluded.image,"
                    " generation = character_portraits.generation + 1",
                    (guild_id, character_id, token, media_type, image),
                )
            except IntegrityError as error:
                raise NotFoundError(MISSING) from error
        return Portrait(character_id, token, media_type, bytes(image))

    async def get(self, guild_id: int, character_id: int) -> Portrait | None:
        """One row by its key, at most a small WebP (``bot.render.portraits``): read on the loop's
        lookup connection, since every ``/character show`` asks and a trip to a reader's thread
        and back cost more than the read."""
        row = await fetch_one(
            self._session.lookup,
            "SELECT character_id, token, media_type, image FROM character_portraits"
            " WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return _portrait(row) if row is not None else None

    async def by_token(self, guild_id: int, character_id: int, token: str) -> Portrait | None:
        """The portrait at a web address: only while the token is the current one."""
        found = await self.get(guild_id, character_id)
        return found if found is not None and secrets.compare_digest(found.token, token) else None

    async def tokens(self, guild_id: int) -> dict[int, str]:
        """Each character with a portrait in the server, and its token (no image bytes)."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT character_id, token FROM character_portraits WHERE guild_id = ?",
            (guild_id,),
        )
        return {int(row["character_id"]): str(row["token"]) for row in rows}

    async def token(self, guild_id: int, character_id: int) -> str | None:
        row = await fetch_one(
            self._session.reader,
            "SELECT token FROM character_portraits WHERE guild_id = ? AND character_id = ?",
            (guild_id, character_id),
        )
        return str(row["token"]) if row is not None else None

    async def remove(self, guild_id: int, character_id: int) -> bool:
        """Remove the character's portrait: False when it had none."""
        async with self._session.writing() as conn:
            return bool(
                await execute(
                    conn,
                    "DELETE FROM character_portraits WHERE guild_id = ? AND character_id = ?",
                    (guild_id, character_id),
                )
            )


def _portrait(row: Row) -> Portrait:
    return Portrait(int(row["character_id"]), str(row["token"]), str(row["media_type"]), bytes(row["image"]))
