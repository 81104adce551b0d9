"""Character sheets as versioned JSON files players can download and upload.

The file is ``{"schema_version": 2, "character": {...}}``, and ``"portrait"``: the character's
portrait image in base64, when it has one (the bot decodes and checks it again on import). A
version-1 file holds a sheet from before Savants, Blessings and spikes had fields: it is read
through the same step stored sheets take (``rules.character.sheet_upgrade``, docs/rulings.md
§10.1), so its words become the gifts they name.
Import is defensive, since the file comes from anyone: it is size-capped before parsing, parsed
by pydantic's JSON reader (which refuses deep nesting and numbers too big to hold), checked for
the schema version, then validated as a whole sheet. Any failure is one :class:`~rules.errors.RulesError`.
"""

import base64
import binascii
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import from_json

from rules.character.checked import validated
from rules.character.model import Character
from rules.character.parts import rating_refusal
from rules.character.sheet_upgrade import structured_gifts
from rules.errors import RulesError

SCHEMA_VERSION = 2
READABLE = (1, 2)
"""The file versions this bot reads: 1 is upgraded as it is read."""
MAX_FILE_BYTES = 64 * 1024
"""The file's cap, its portrait apart."""
MAX_PORTRAIT_CHARS = 96 * 1024
"""The longest portrait in base64 a file may carry (a 64 KiB image takes about 87 KiB)."""
EXPORTED = "Upload the file /character export made."


class SheetFile(BaseModel):
    """The exported file: a version stamp and the sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_version: Literal[2]
    character: Character
    portrait: Annotated[str, Field(max_length=MAX_PORTRAIT_CHARS)] | None = None


def export_character(character: Character, portrait: bytes | None = None) -> str:
    """The sheet (and its portrait's bytes) as JSON text that ``import_character`` reads back to
    an equal Character (and ``portrait_from_json`` to the same bytes)."""
    text = base64.b64encode(portrait).decode("ascii") if portrait else None
    sheet = SheetFile(schema_version=SCHEMA_VERSION, character=character, portrait=text)
    return sheet.model_dump_json(indent=2, exclude_none=True)


def portrait_allowance(parsed: object) -> int:
    """What a file's portrait adds to its cap: its base64's length, up to the longest allowed."""
    found = parsed.get("portrait") if isinstance(parsed, dict) else None
    return min(len(found), MAX_PORTRAIT_CHARS) if isinstance(found, str) else 0


def portrait_from_json(parsed: object) -> bytes | None:
    """The portrait's bytes in a parsed file of ours (None without one); not yet an image we
    trust: the bot decodes and re-encodes it as any upload."""
    found = parsed.get("portrait") if isinstance(parsed, dict) else None
    if found is None:
        return None
    if not isinstance(found, str) or len(found) > MAX_PORTRAIT_CHARS:
        raise RulesError(f"That sheet's portrait is not one this bot exported. {EXPORTED}")
    try:
        return base64.b64decode(found, validate=True)
    except (binascii.Error, ValueError):
        raise RulesError(f"That sheet's portrait is not valid base64. {EXPORTED}") from None


def file_bytes(data: str | bytes, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file as bytes, refused past ``max_bytes`` (before anything parses it)."""
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError:
            raise RulesError(f"That file is not valid text. {EXPORTED}") from None
    elif isinstance(data, bytes | bytearray):
        raw = bytes(data)
    else:
        raise RulesError(f"That is not a character file. {EXPORTED}")
    if len(raw) > max_bytes:
        raise RulesError(
            f"That file is too big for a character sheet (at most {max_bytes // 1024} KiB). {EXPORTED}"
        )
    return raw


def read_json(data: str | bytes, max_bytes: int = MAX_FILE_BYTES) -> object:
    """A file's JSON, size-capped before parsing; pydantic's reader refuses deep nesting and
    numbers too big to hold. Shared by every sheet format we read (``sheet_files``)."""
    raw = file_bytes(data, max_bytes)
    try:
        return from_json(raw, allow_inf_nan=False)
    except (ValueError, RecursionError):
        raise RulesError(f"That file is not a character sheet: it is not valid JSON. {EXPORTED}") from None


def is_our_file(parsed: object) -> bool:
    """Whether parsed JSON is shaped like ``export_character``'s file (its version aside)."""
    return isinstance(parsed, dict) and "character" in parsed


def character_from_json(parsed: object) -> Character:
    """The sheet in parsed JSON of ``export_character``'s file; :class:`RulesError` otherwise."""
    if not isinstance(parsed, dict) or not is_our_file(parsed):
        raise RulesError(f"That file is not a character sheet exported by this bot. {EXPORTED}")
    version = parsed.get("schema_version")
    if type(version) is not int or version not in READABLE:
        shown = str(version) if type(version) is int and abs(version) < 10**9 else "missing or unreadable"
        raise RulesError(
            f"That sheet's schema_version is {shown}; this bot reads versions 1 and {SCHEMA_VERSION}. "
            "Export it again from an up-to-date bot."
        )
    if version == 1:
        sheet = parsed["character"]
        upgraded = structured_gifts(sheet) if isinstance(sheet, dict) else sheet
        parsed = parsed | {"schema_version": SCHEMA_VERSION, "character": upgraded}
    try:
        character = validated(SheetFile, parsed).character
    except RulesError as exc:
        raise RulesError(f"That sheet cannot be imported: {exc}") from None
    for power in character.powers:  # Allomancy and Mimicry from 2 (docs/rulings.md §9.1)
        if (why := rating_refusal(power.type, power.name, power.rating)) is not None:
            raise RulesError(f"That sheet cannot be imported: {why} Change it in the file and try again.")
    return character


def import_character(data: str | bytes) -> Character:
    """Read a sheet exported by ``export_character``; :class:`RulesError` for anything else."""
    return character_from_json(read_json(data))
