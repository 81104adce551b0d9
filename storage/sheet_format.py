"""The format version of stored character sheets, and the steps that bring old ones up to date.

A sheet is stored as the rules' JSON (``Character.model_dump_json()``) beside the number of
its format (``characters.format_version``, migration 9). Sheets are format 2 (below). When a
change to ``rules.character`` makes old documents unreadable (a field renamed, a list that
becomes a table), bump :data:`SHEET_FORMAT` and register the step from the previous format in
:data:`UPGRADES`: a function from the old document's JSON object to the new one's. Sheets are
then upgraded on read (:func:`current_document`, so a sheet is never misread while the bot
runs) and rewritten in the new format at start (``CharacterRepository.upgrade_formats``), so
the steps only ever see documents older than the bot.

A sheet from a *newer* format than this bot knows is refused with a clear error rather than
parsed as if it were current, as the schema version of the file is (``storage.migrations``).
"""

import json
from collections.abc import Callable
from typing import Any

from rules.character.sheet_upgrade import structured_gifts
from storage.errors import SchemaVersionError

SHEET_FORMAT = 2
"""The format every sheet is written in."""

JsonObject = dict[str, Any]
Upgrade = Callable[[JsonObject], JsonObject]
"""One step: a sheet's JSON object in format ``n`` to the same sheet in format ``n + 1``."""

UPGRADES: dict[int, Upgrade] = {1: structured_gifts}
"""The step from each old format (its number) to the next. 1 → 2: Savants, Blessings and spikes
written as words by an earlier purchase move to their own fields (docs/rulings.md §10.1)."""

TOO_NEW = (
    "A character sheet was saved by a newer version of the bot (sheet format {found}, this bot "
    "knows {known}); update the bot before using it."
)


def latest() -> int:
    """The format sheets are written in (read at call time, so a test can pose a next format)."""
    return SHEET_FORMAT


def current_document(document: str, format_version: int) -> str:
    """``document`` in the latest format; the very same text when it already is."""
    newest = SHEET_FORMAT
    if format_version == newest:
        return document
    if format_version > newest:
        raise SchemaVersionError(TOO_NEW.format(found=format_version, known=newest))
    data: JsonObject = json.loads(document)
    for number in range(format_version, newest):
        step = UPGRADES.get(number)
        if step is None:
            raise SchemaVersionError(
                f"No upgrade is known from sheet format {number} to {number + 1}; update the bot."
            )
        data = step(data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
