"""Any sheet file a player may upload: one exported by this bot, or a Roll20 character export
(docs/rulings.md §6.9, §6.12). The file is parsed once, its format told from its shape, and read
by that format's own reader; anything else is refused in plain words and nothing is imported.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.character.checked import revise_character
from rules.character.model import Character
from rules.character.roll20 import MAX_BYTES as ROLL20_MAX_BYTES
from rules.character.roll20 import is_roll20_file, read_roll20
from rules.character.roll20_sheet import map_roll20
from rules.character.transfer import (
    MAX_FILE_BYTES,
    character_from_json,
    file_bytes,
    is_our_file,
    portrait_allowance,
    portrait_from_json,
    read_json,
)
from rules.errors import RulesError

MAX_UPLOAD_BYTES = ROLL20_MAX_BYTES
"""The largest file any format may be; each format then holds its own, smaller or equal, cap."""


class SheetSource(StrEnum):
    BOT = "bot"
    ROLL20 = "roll20"

    @property
    def label(self) -> str:
        return "this bot" if self is SheetSource.BOT else "Roll20"


class ImportedSheet(BaseModel):
    """A sheet read from a file: where it came from, and what of the file it could not hold."""

    model_config = ConfigDict(frozen=True)

    character: Character
    source: SheetSource
    left_out: tuple[str, ...] = ()
    portrait: bytes | None = None
    """A file of ours: its portrait's bytes, for the bot to decode and check again."""


def read_sheet_file(data: str | bytes, owner_id: int, name: str | None = None) -> ImportedSheet:
    """The sheet in ``data``, owned by ``owner_id`` (a file from this bot keeps its own owner
    for the caller to judge) and renamed to ``name`` when given; :class:`RulesError` otherwise."""
    raw = file_bytes(data, ROLL20_MAX_BYTES)
    parsed = read_json(raw, ROLL20_MAX_BYTES)
    if is_our_file(parsed):
        file_bytes(raw, MAX_FILE_BYTES + portrait_allowance(parsed))  # our own, smaller cap
        character = character_from_json(parsed)
        if name is not None:
            character = revise_character(character, name=name)
        portrait = portrait_from_json(parsed)
        return ImportedSheet(character=character, source=SheetSource.BOT, portrait=portrait)
    if is_roll20_file(parsed):
        found = map_roll20(read_roll20(parsed), owner_id, name)
        return ImportedSheet(character=found.character, source=SheetSource.ROLL20, left_out=found.left_out)
    raise RulesError(
        "That file is not a character sheet: upload a file from /character export, or a character "
        "exported from Roll20's Mistborn sheet."
    )
