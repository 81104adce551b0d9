"""Names that clash under ``rules.naming`` after being saved under an older, looser rule.

Names were once compared by three rules; under the one rule some names saved apart are now
the same name ("Vin  Venture" and "Vin Venture", Burdens "ﬁre" and "fire"). Nothing is
dropped: the later of two clashing names gets a number, " (2)", " (3)"…, which keeps the
player's text, shows what happened, and makes the name unique again. Used once, when the
database is upgraded; a sheet that does not clash comes back unchanged.
"""

from collections.abc import Callable, Mapping
from typing import Any

from rules.character import limits as lim
from rules.character.names import RESERVED_NAMES, PowerType
from rules.naming import name_key


def numbered(name: str, number: int, limit: int) -> str:
    """``name (number)``, shortening ``name`` so the whole stays within ``limit`` (UTF-16 units)."""
    suffix = f" ({number})"
    base = name.strip()
    while base and lim.text_units(base) + lim.text_units(suffix) > limit:
        base = base[:-1].rstrip()
    return (base + suffix).strip()


def unclashed(name: str, taken: Callable[[str], bool], limit: int) -> str:
    """``name`` if its key is free, else the first free ``name (n)`` from 2 up."""
    number, candidate = 1, name
    while taken(name_key(candidate)):
        number += 1
        candidate = numbered(name, number, limit)
    return candidate


def _renamed(item: dict[str, Any], name: str) -> dict[str, Any]:
    return {**item, "name": name} if name != item["name"] else item


def _burdens(burdens: list[Any]) -> list[Any]:
    seen: set[str] = set()
    fixed: list[Any] = []
    for burden in burdens:
        if isinstance(burden, dict) and isinstance(burden.get("name"), str):
            burden = _renamed(burden, unclashed(burden["name"], seen.__contains__, lim.BURDEN_NAME_MAX))
            seen.add(name_key(burden["name"]))
        fixed.append(burden)
    return fixed


_METAL_TYPES = frozenset(t.value for t in PowerType if t.uses_metal)


def _freely_named(power: Any) -> bool:
    """A Power whose name the player chose; one named by a metal is spelled one way already."""
    if not isinstance(power, dict) or not isinstance(power.get("name"), str):
        return False
    kind = power.get("type")
    return isinstance(kind, str) and kind not in _METAL_TYPES


def _powers(powers: list[Any]) -> list[Any]:
    """Clashing Powers of one type are numbered, and so is a name that now reads as a stat's
    (a full-width "Ｗｉｔｓ"), which a Power may not take."""
    seen: dict[str, set[str]] = {}
    fixed: list[Any] = []
    for power in powers:
        if _freely_named(power):
            keys = seen.setdefault(power["type"], set())
            name = unclashed(power["name"], (RESERVED_NAMES | keys).__contains__, lim.POWER_NAME_MAX)
            power = _renamed(power, name)
            keys.add(name_key(name))
        fixed.append(power)
    return fixed


def renumber_sheet(data: Mapping[str, Any]) -> dict[str, Any]:
    """A stored sheet's JSON data with clashing Burden and Power names numbered.

    Works on the raw data because such a sheet no longer validates as a ``Character``;
    anything malformed is left for validation to report.
    """
    fixed = dict(data)
    for field, repair in (("burdens", _burdens), ("powers", _powers)):
        if isinstance(fixed.get(field), list):
            fixed[field] = repair(fixed[field])
    return fixed
