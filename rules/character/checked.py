"""Building sheets from a player's input, with one plain error for whatever is wrong.

pydantic reports problems as a list with paths and codes; a player needs a sentence. Every
public function that takes input runs it through here, so only
:class:`~rules.errors.RulesError` ever leaves ``rules.character``.
"""

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from rules.character.model import Character
from rules.errors import RulesError

_M = TypeVar("_M", bound=BaseModel)

_TYPE_WORDS = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text",
    "tuple_type": "a list",
    "list_type": "a list",
    "model_type": "a group of fields",
    "model_attributes_type": "a group of fields",
    "dict_type": "a group of fields",
    "enum": "one of {expected}",
    "literal_error": "{expected}",
}


def _where(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for step in loc:
        if isinstance(step, int):
            parts.append(f"[{step + 1}]")
        else:
            parts.append(("." if parts else "") + str(step)[:30])
    text = "".join(parts) or "the sheet"
    return text if len(text) <= 80 else text[:79] + "…"


def _describe(error: ErrorDetails) -> str:
    if error["type"] == "sheet":
        return str(error["msg"])
    where = _where(tuple(error["loc"]))
    kind = error["type"]
    if kind == "missing":
        return f"'{where}' is missing."
    if kind == "extra_forbidden":
        return f"'{where}' is not part of a character sheet."
    if kind in _TYPE_WORDS:
        context = error.get("ctx") or {}
        expected = str(context.get("expected", ""))[:120]
        return f"'{where}' must be {_TYPE_WORDS[kind].format(expected=expected)}."
    return f"'{where}' is not valid."


def rules_error(exc: ValidationError) -> RulesError:
    """One sentence (or two) for a failed validation: the first problem, and how many more."""
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return RulesError("The sheet is not valid.")
    message = _describe(errors[0])
    if len(errors) > 1:
        more = len(errors) - 1
        message += f" ({more} more problem{'s' if more > 1 else ''} after that one.)"
    return RulesError(message)


def validated(model: type[_M], data: object) -> _M:
    """``model.model_validate(data)``, raising :class:`RulesError` instead of pydantic's errors."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise rules_error(exc) from None
    except (TypeError, ValueError, RecursionError) as exc:
        raise RulesError("The sheet could not be read; check it and try again.") from exc


def make_character(data: Mapping[str, Any] | None = None, /, **fields: Any) -> Character:
    """A checked new Character from a mapping and/or keyword fields (later ones win)."""
    merged: dict[str, Any] = dict(data or {})
    merged.update(fields)
    return validated(Character, merged)


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def revise_character(character: Character, **changes: Any) -> Character:
    """A copy of ``character`` with ``changes``, checked as a whole sheet.

    ``model_copy(update=...)`` skips validation; use this for any edit a player asked for, so
    a change that breaks a rule (a Standing lowered below what is spent, a Destiny on an Extra)
    is refused with a plain message.
    """
    data = character.model_dump()
    data.update({key: _plain(value) for key, value in changes.items()})
    return validated(Character, data)
