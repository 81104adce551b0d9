"""The Narrator's own opposition templates (migration 29; PostgreSQL 17; docs/rulings.md §10.4).

A template is a server's row: its name (unique there as ``rules.naming`` compares names), the
sheet as ``rules.campaign.opposition_templates.as_template`` left it (the rules' JSON, with its
format number like a sheet's, ``storage.sheet_format``, so an old one is upgraded on read) and
its portrait's bytes when it has one (the bot's own re-encoding, copied from the sheet saved).
"""

from datetime import datetime

from pydantic import AwareDatetime, BaseModel, ConfigDict

from rules.character import Character
from rules.naming import name_key, search_key
from storage import sheet_format
from storage.errors import AlreadyExistsError, NotFoundError
from storage.session import Session
from storage.sql import IntegrityError, Row, execute, fetch_all, fetch_one, from_text, insert, to_text

_COLUMNS = "id, guild_id, name, document, format_version, portrait, media_type, saved_by, updated_at"
_LISTED = "id, guild_id, name, document, format_version, NULL AS portrait, media_type, saved_by, updated_at"
TAKEN = "A template called {name} is already saved here: `replace:true` saves over it, or give another name."
MISSING = "There is no template called {name} here; `/template list` shows this server's."


class StoredTemplate(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    guild_id: int
    name: str
    character: Character
    portrait: bytes | None = None
    media_type: str | None = None
    saved_by: int
    updated_at: AwareDatetime

    @property
    def has_portrait(self) -> bool:
        return self.media_type is not None


def _stored(row: Row) -> StoredTemplate:
    document = sheet_format.current_document(str(row["document"]), int(row["format_version"]))
    portrait = row["portrait"]
    return StoredTemplate(
        id=row["id"],
        guild_id=row["guild_id"],
        name=row["name"],
        character=Character.model_validate_json(document),
        portrait=bytes(portrait) if portrait is not None else None,
        media_type=row["media_type"],
        saved_by=row["saved_by"],
        updated_at=from_text(row["updated_at"]),
    )


class TemplateRepository:
    """Saves, finds, lists and deletes a server's templates."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def save(
        self,
        guild_id: int,
        name: str,
        character: Character,
        portrait: tuple[bytes, str] | None,
        saved_by: int,
        at: datetime,
        *,
        replace: bool = False,
    ) -> StoredTemplate:
        """Save ``character`` as the template ``name``; a name taken is refused unless ``replace``."""
        params = (
            character.model_dump_json(),
            sheet_format.latest(),
            portrait[0] if portrait else None,
            portrait[1] if portrait else None,
            saved_by,
            to_text(at),
        )
        async with self._session.writing() as conn:
            if replace:
                await execute(
                    conn,
                    "DELETE FROM opposition_templates WHERE guild_id = ? AND name_key = ?",
                    (guild_id, name_key(name)),
                )
            try:
                new_id = await insert(
                    conn,
                    "INSERT INTO opposition_templates (guild_id, name, name_key, document, format_version,"
                    " portrait, media_type, saved_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, name, name_key(name), *params),
                )
            except IntegrityError as error:
                raise AlreadyExistsError(TAKEN.format(name=name)) from error
        return StoredTemplate(
            id=new_id,
            guild_id=guild_id,
            name=name,
            character=character,
            portrait=portrait[0] if portrait else None,
            media_type=portrait[1] if portrait else None,
            saved_by=saved_by,
            updated_at=at,
        )

    async def named(self, guild_id: int, name: str) -> StoredTemplate | None:
        """The template of that name (as ``rules.naming`` compares), portrait and all."""
        row = await fetch_one(
            self._session.lookup,
            f"SELECT {_COLUMNS} FROM opposition_templates WHERE guild_id = ? AND name_key = ?",
            (guild_id, name_key(name)),
        )
        return _stored(row) if row is not None else None

    async def get(self, guild_id: int, name: str) -> StoredTemplate:
        found = await self.named(guild_id, name)
        if found is None:
            raise NotFoundError(MISSING.format(name=name))
        return found

    async def all(self, guild_id: int) -> list[StoredTemplate]:
        """Every template of the server by name, without the portraits' bytes."""
        rows = await fetch_all(
            self._session.reader,
            f"SELECT {_LISTED} FROM opposition_templates WHERE guild_id = ? ORDER BY name_key",
            (guild_id,),
        )
        return [_stored(row) for row in rows]

    async def names(self, guild_id: int, typed: str = "", limit: int = 25) -> list[str]:
        """Template names containing ``typed`` (accents and case ignored), for suggestions."""
        rows = await fetch_all(
            self._session.reader,
            "SELECT name FROM opposition_templates WHERE guild_id = ? ORDER BY name_key",
            (guild_id,),
        )
        wanted = search_key(typed)
        return [str(row["name"]) for row in rows if wanted in search_key(str(row["name"]))][:limit]

    async def count(self, guild_id: int) -> int:
        row = await fetch_one(
            self._session.reader,
            "SELECT COUNT(*) AS n FROM opposition_templates WHERE guild_id = ?",
            (guild_id,),
        )
        return 0 if row is None else int(row["n"])

    async def rename(
        self, stored: StoredTemplate, name: str, character: Character, at: datetime
    ) -> StoredTemplate:
        """The template under a new name and with a changed sheet (its portrait kept)."""
        try:
            async with self._session.writing() as conn:
                count = await execute(
                    conn,
                    "UPDATE opposition_templates SET name = ?, name_key = ?, document = ?,"
                    " format_version = ?, updated_at = ? WHERE guild_id = ? AND id = ?",
                    (
                        name,
                        name_key(name),
                        character.model_dump_json(),
                        sheet_format.latest(),
                        to_text(at),
                        stored.guild_id,
                        stored.id,
                    ),
                )
        except IntegrityError as error:
            raise AlreadyExistsError(TAKEN.format(name=name)) from error
        if count != 1:
            raise NotFoundError(MISSING.format(name=stored.name))
        return stored.model_copy(update={"name": name, "character": character, "updated_at": at})

    async def delete(self, guild_id: int, name: str) -> bool:
        async with self._session.writing() as conn:
            return bool(
                await execute(
                    conn,
                    "DELETE FROM opposition_templates WHERE guild_id = ? AND name_key = ?",
                    (guild_id, name_key(name)),
                )
            )
