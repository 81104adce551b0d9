"""Reading a character exported from Roll20's community "Mistborn" sheet (docs/rulings.md §6.12).

Roll20 exports a character as ``{"schema_version": …, "name": …, "attribs": [{"name",
"current", "max"}, …], "abilities": […], "bio": …, …}``: one attribute per field of the sheet,
named as the sheet's ``attr_…`` fields without the prefix, and the rows of a repeating section
as ``repeating_<section>_<row id>_<field>`` (with ``_reporder_repeating_<section>`` holding the
rows' order when the player moved them). This module reads that shape into a
:class:`Roll20File` — fields by lower-case name, rows by section in order — refusing a file
that is not that shape, too big, or too long; ``roll20_sheet`` maps it onto our sheet.

The file comes from anyone, so it is read like ``transfer``'s: size-capped before parsing,
parsed by pydantic's JSON reader, every value checked for its type before use.
"""

import re
from dataclasses import dataclass, field

from rules.character.limits import text_units
from rules.errors import RulesError

MAX_BYTES = 512 * 1024
"""Roll20 exports carry a bio, token and macros besides the sheet; ours are 64 KiB at most."""
MAX_ATTRIBUTES = 4000
"""Far more than the sheet has (about 60 fields and a few dozen rows); refused beyond."""
MAX_NAME = 200
SHOWN = 60
"""A value repeated back to the user is cut to this many characters."""

_ROW = re.compile(r"^repeating_(?P<section>[^_]+)_(?P<row>.+)_(?P<field>[^_]+)$")
_ORDER = "_reporder_repeating_"
Scalar = str | int | float | bool | None


@dataclass
class Roll20File:
    """What a Roll20 export holds, ready to map: nothing here knows our sheet yet."""

    name: str
    fields: dict[str, str] = field(default_factory=dict)
    """Plain attributes by lower-case name: their ``current`` value as text (never blank)."""
    maxima: dict[str, str] = field(default_factory=dict)
    """The ``max`` values that are not blank, by lower-case name (the sheet uses none)."""
    rows: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    """Repeating rows by lower-case section, in the sheet's order; each row by lower-case field."""
    outside: list[str] = field(default_factory=list)
    """What the export holds beside the attributes that is the player's (bio, notes, macros)."""


def is_roll20_file(parsed: object) -> bool:
    """Whether parsed JSON is shaped like a Roll20 character export (it has ``attribs``)."""
    return isinstance(parsed, dict) and "attribs" in parsed and "character" not in parsed


def as_text(value: Scalar) -> str:
    """An attribute's value as the sheet shows it: numbers as typed, ``None`` as blank."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value).strip()


def shown(text: str) -> str:
    """A value repeated back to the user, on one line and cut short."""
    flat = " ".join(text.split())
    return repr(flat if text_units(flat) <= SHOWN else flat[: SHOWN - 1] + "…")


def _attribute(entry: object, number: int) -> tuple[str, str, str]:
    damaged = RulesError(
        f"That Roll20 file is damaged: attribute {number} is not a name with a value. "
        "Export it from Roll20 again."
    )
    if not isinstance(entry, dict):
        raise damaged
    name, current, most = entry.get("name"), entry.get("current"), entry.get("max")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise damaged
    for value in (current, most):
        if value is not None and not isinstance(value, str | int | float | bool):
            raise damaged
    return name.strip().lower(), as_text(current), as_text(most)


def _outside(parsed: dict[str, object]) -> list[str]:
    found = []
    for key, what in (("bio", "The Roll20 bio"), ("gmnotes", "The Roll20 GM notes")):
        value = parsed.get(key)
        if isinstance(value, str) and value.strip():
            found.append(f"{what} ({len(value)} characters): not part of the sheet")
    abilities = parsed.get("abilities")
    if isinstance(abilities, list) and abilities:
        macros = f"{len(abilities)} Roll20 abilit{'y' if len(abilities) == 1 else 'ies'} (macros)"
        found.append(f"{macros}: the bot rolls with its own commands")
    return found


def _ordered(
    rows: dict[str, dict[str, dict[str, str]]], orders: dict[str, str]
) -> dict[str, list[dict[str, str]]]:
    """Rows in the order Roll20 shows them: ``_reporder`` first, then the rest as they came.

    Linear in the file: the order is looked up as a dict (an id listed twice counts once), so a
    crafted file of 4,000 rows and 200,000 ordered ids reads in milliseconds, not seconds."""
    result: dict[str, list[dict[str, str]]] = {}
    for section, by_id in rows.items():
        wanted = dict.fromkeys(r.strip().lower() for r in orders.get(section, "").split(","))
        ids = [r for r in wanted if r in by_id] + [r for r in by_id if r not in wanted]
        result[section] = [by_id[r] for r in ids]
    return result


def read_roll20(parsed: object) -> Roll20File:
    """The export's name, fields and rows; :class:`RulesError` for a file of another shape."""
    if not is_roll20_file(parsed):
        raise RulesError(
            "That file is not a character exported from Roll20: export the character from Roll20's "
            "Mistborn sheet, or upload a file from /character export."
        )
    assert isinstance(parsed, dict)
    attributes = parsed["attribs"]
    if not isinstance(attributes, list):
        raise RulesError(
            "That Roll20 file is damaged: its attributes are not a list. Export it from Roll20 again."
        )
    if len(attributes) > MAX_ATTRIBUTES:
        raise RulesError(
            f"That Roll20 file has {len(attributes)} attributes; a sheet has far fewer. "
            "Export the one character from Roll20 again."
        )
    name = parsed.get("name")
    read = Roll20File(name=name.strip() if isinstance(name, str) else "", outside=_outside(parsed))
    rows: dict[str, dict[str, dict[str, str]]] = {}
    orders: dict[str, str] = {}
    for number, entry in enumerate(attributes, start=1):
        key, current, most = _attribute(entry, number)
        if most:
            read.maxima.setdefault(key, most)
        if key.startswith(_ORDER):
            orders[key.removeprefix(_ORDER)] = current
        elif (row := _ROW.match(key)) is not None:
            cells = rows.setdefault(row["section"], {}).setdefault(row["row"], {})
            if current:
                cells.setdefault(row["field"], current)
        elif current and read.fields.setdefault(key, current) != current:
            read.outside.append(f"{key} {shown(current)}: listed twice, and the first value was used")
    read.rows = _ordered(rows, orders)
    return read
