"""Bounds on everything a sheet holds, so a rendered sheet always fits one Discord embed.

An embed allows 6000 characters in all, 1024 per field, 25 fields and a 256-character title.
Each free-text part of a sheet has its own cap and each list a count, chosen so that:

* the user's text on a maximal sheet is at most :data:`USER_TEXT_BUDGET` (4200) characters,
  leaving the renderer at least 1800 for labels, numbers and punctuation;
* the user's text in any one section (see ``rules.character.text_budget``) is at most
  :data:`SECTION_TEXT_BUDGET` (900) characters, leaving room for labels inside a 1024 field;
* the name fits the title.

Lengths are counted in UTF-16 code units (an emoji counts as two), the strictest way Discord
might count them. The tests build a maximal sheet and prove these sums.
"""

import unicodedata

from pydantic_core import PydanticCustomError

# Kept for callers that still import it from here; compare names with ``rules.naming``.
from rules.naming import name_key as name_key

NAME_MAX = 64
CONCEPT_MAX = 120
TRAIT_MAX = 60
EXTRA_TRAITS_MAX = 6
DESTINY_MAX = 160
TRAGEDY_MAX = 160
BURDEN_NAME_MAX = 40
BURDENS_MAX = 10
"""Matches ``rules.pool.MAX_BURDENS``: every Burden on a sheet can apply to one roll."""
POWER_NAME_MAX = 24
POWERS_MAX = 20
"""Room for a Mistborn's eight metals and a Keeper's eight at once, plus a few more."""
STUNT_MAX = 48
STUNTS_MAX = 12
"""Stunts on the whole sheet, across all Powers."""
PROP_NAME_MAX = 48
PROPS_MAX = 12
NOTES_MAX = 600

USER_TEXT_BUDGET = 4200
SECTION_TEXT_BUDGET = 900

ATTRIBUTE_MIN = 1
ATTRIBUTE_MAX = 10
STANDING_MIN = 2
STANDING_MAX = 10
POWER_RATING_MIN = 1
POWER_RATING_MAX = 10
WEAPON_MAX = 4
ARMOUR_MAX = 3
GROUP_MAX = 100
"""Largest Extras group; a crowd bigger than this is better split."""
DAMAGE_MAX = 30
"""Most damage a Resilience can hold: Physique 10 + Pewter 10 + Resources 10 of Health."""
OWNER_ID_MAX = 2**63 - 1
"""Discord ids fit in a signed 64-bit integer, which is also what SQLite stores."""


def problem(message: str) -> PydanticCustomError:
    """A validation error whose text reaches the player unchanged.

    The message goes through the context so braces in a player's text are never read as a
    format template.
    """
    return PydanticCustomError("sheet", "{message}", {"message": message})


def text_units(text: str) -> int:
    """Length as Discord may count it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def quoted(text: str, limit: int = 40) -> str:
    """A player's text, shortened for an error message."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


_REFUSED = ("Cc", "Cs", "Zl", "Zp")
"""Control characters, lone surrogates and Unicode line/paragraph breaks."""


_JOINERS = frozenset("\u00ad\u200c\u200d")
"""Soft hyphen and zero-width (non-)joiners: invisible, but harmless, and emoji sequences and
some scripts need the joiners."""


def _bad_character(text: str, allow_newlines: bool) -> bool:
    return any(
        unicodedata.category(char) in _REFUSED and not (char == "\n" and allow_newlines) for char in text
    )


def _invisible_format(text: str) -> bool:
    """Format characters (zero-width spaces, byte-order marks, right-to-left overrides) make a
    name look empty or turn the text after it backwards wherever it is shown."""
    return any(unicodedata.category(char) == "Cf" and char not in _JOINERS for char in text)


def visible(text: str) -> bool:
    """Has something that shows: a letter, number, punctuation or symbol. Unassigned and
    private-use characters count, since Python's tables may predate what Discord renders."""
    return any(
        unicodedata.category(char)[0] in "LNPS" or unicodedata.category(char) in ("Cn", "Co") for char in text
    )


def clean_text(text: str, what: str, limit: int, *, required: bool = False, multiline: bool = False) -> str:
    """Trim ``text`` and check it against its cap; raise :func:`problem` with a plain message.

    Control characters are refused (newlines only where ``multiline``): they break embeds and
    hide text. ``what`` names the field in the message ("The name", "The Drive Trait").
    """
    if multiline:
        text = text.replace("\r\n", "\n")
    text = text.strip()
    if required and not text:
        raise problem(f"{what} cannot be empty.")
    if _bad_character(text, multiline):
        kinds = "control characters" if multiline else "line breaks or control characters"
        raise problem(f"{what} cannot hold {kinds}.")
    if _invisible_format(text):
        raise problem(
            f"{what} cannot hold invisible formatting characters (zero-width or right-to-left marks)."
        )
    if required and not visible(text):
        raise problem(f"{what} needs at least one visible letter, number or symbol.")
    if text_units(text) > limit:
        raise problem(f"{what} is too long: at most {limit} characters, not {text_units(text)}.")
    return text


def check_range(what: str, value: int, low: int, high: int) -> None:
    """Raise :func:`problem` unless ``low <= value <= high``."""
    if not low <= value <= high:
        shown = str(value) if abs(value) < 10**12 else "that number"
        raise problem(f"{what} must be between {low} and {high}; {shown} is out of range.")
