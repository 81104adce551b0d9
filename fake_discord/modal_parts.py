"""The parts a modal holds inside a Label (type 18) besides a text input, as Discord does them.

Discord 2025 modals wrap each field in a Label (``label`` 1-45 characters, ``description``
1-100) around one part: a text input (``validate``), a string select (3), a radio group (21), a
checkbox group (22) or a checkbox (23). The OpenAPI description gives the shapes; Discord's
documented limits it cannot say are checked here, and a modal breaking one is refused with 400
as Discord refuses it:

- a string select in a modal: 1-25 options, ``disabled`` not allowed (it errors in a modal);
- a radio group: 2-10 options, values unique, at most one chosen by default;
- a checkbox group: 1-10 options, ``min_values`` 0-10 ≤ ``max_values`` 1-10 ≤ options, no more
  defaults than ``max_values``;
- a checkbox: a custom id and a ``default`` flag;
- radio groups, checkbox groups and checkboxes only inside a Label.

A submitted modal echoes each part with what was picked, in the shapes discord.py parses
(``types/interactions.py``): a select and a checkbox group ``values`` (a list of option values),
a radio group ``value`` (the option's value, or null when nothing is picked), a checkbox
``value`` (a boolean), each with the part's ``id``. :func:`answer` builds those; :func:`fields`
lists a modal's parts for the harness and the console, which fill them by label as a person
would, and refuse what Discord's client would not send (a required part left empty).
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]
STRING_SELECT, TEXT_INPUT, LABEL = 3, 4, 18
RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 21, 22, 23
PICKED = {STRING_SELECT, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX}
"""The parts answered by picking, not typing."""
Given = str | list[str] | bool


class NotSendable(ValueError):
    """What Discord's client would not let a person send; the harness reports it as a typing error."""


def _text(value: object, where: str, low: int, high: int) -> list[str]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        size = len(value) if isinstance(value, str) else type(value).__name__
        return [f"{where} must be {low}-{high} characters (got {size})"]
    return []


def _options(options: object, where: str, low: int, high: int) -> list[str]:
    if not isinstance(options, list) or not low <= len(options) <= high:
        count = len(options) if isinstance(options, list) else 0
        return [f"{where} has {count} options ({low}-{high} allowed)"]
    problems: list[str] = []
    for option in options:
        problems += _text(option.get("label"), f"{where} option label", 1, 100)
        problems += _text(option.get("value"), f"{where} option value", 1, 100)
        if option.get("description") is not None:
            problems += _text(option.get("description"), f"{where} option description", 0, 100)
    values = [str(o.get("value")) for o in options]
    if duplicates := sorted({v for v in values if values.count(v) > 1}):
        problems.append(f"{where} has duplicate option values: {', '.join(duplicates)}")
    return problems


def _or(component: JSON, key: str, default: int) -> Any:
    """A field that is absent or null takes Discord's default."""
    value = component.get(key)
    return default if value is None else value


def _defaults(component: JSON) -> int:
    return sum(1 for option in component.get("options") or [] if option.get("default"))


def label_problems(label: JSON, where: str) -> list[str]:
    """A Label's own text, and its part when that is not a text input (``validate`` checks those)."""
    problems = _text(label.get("label"), f"{where} label", 1, 45)
    if label.get("description") is not None:
        problems += _text(label.get("description"), f"{where} description", 1, 100)
    inner = label["component"]
    kind = inner.get("type")
    if kind != TEXT_INPUT:
        problems += _text(inner.get("custom_id"), f"{where} custom_id", 1, 100)
    if kind == STRING_SELECT:
        problems += _options(inner.get("options"), f"{where} select", 1, 25)
        if inner.get("disabled"):
            problems.append(f"{where}: a select in a modal cannot be disabled")
        low, high = _or(inner, "min_values", 1), _or(inner, "max_values", 1)
        count = len(inner.get("options") or [])
        if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= min(25, count)):
            problems.append(
                f"{where} select min_values {low} / max_values {high} must fit its {count} options"
            )
        if _defaults(inner) > (high if isinstance(high, int) else 1):
            problems.append(f"{where} select has more default options than max_values")
    elif kind == RADIO_GROUP:
        problems += _options(inner.get("options"), f"{where} radio group", 2, 10)
        if _defaults(inner) > 1:
            problems.append(f"{where} radio group has {_defaults(inner)} default options (at most 1)")
    elif kind == CHECKBOX_GROUP:
        problems += _options(inner.get("options"), f"{where} checkbox group", 1, 10)
        count = len(inner.get("options") or [])
        low, high = _or(inner, "min_values", 1), _or(inner, "max_values", count)
        if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high and 1 <= high <= 10):
            problems.append(
                f"{where} checkbox group min_values {low} / max_values {high} must be 0-10 and 1-10"
            )
        elif high > count:
            problems.append(f"{where} checkbox group max_values {high} is more than its {count} options")
        elif _defaults(inner) > high:
            problems.append(f"{where} checkbox group has more default options than max_values {high}")
    elif kind == CHECKBOX:
        if not isinstance(inner.get("default", False), bool):
            problems.append(f"{where} checkbox default must be true or false")
    elif kind not in (TEXT_INPUT, 5, 6, 7, 8, 19):
        problems.append(f"{where}: a Label cannot hold a component of type {kind}")
    return problems


def misplaced(component: JSON) -> list[str]:
    """A radio group, checkbox group or checkbox anywhere but directly in a Label."""
    kind = component.get("type")
    if kind in (RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX):
        return [f"a component of type {kind} must be inside a Label"]
    return []


def fields(modal: JSON) -> list[JSON]:
    """A modal's parts that are picked, each {custom_id, label, type, required, options, value}:
    ``value`` is what it opens with (option values chosen by default; a checkbox's flag)."""
    found: list[JSON] = []
    for top in modal.get("components") or []:
        inner = top.get("component") if top.get("type") == LABEL else None
        if not isinstance(inner, dict) or inner.get("type") not in PICKED:
            continue
        options = inner.get("options") or []
        opened: Given = [str(o["value"]) for o in options if o.get("default")]
        if inner["type"] == CHECKBOX:
            opened = bool(inner.get("default"))
        low = 1 if inner["type"] in (STRING_SELECT, CHECKBOX_GROUP) else 0
        found.append(
            {
                "custom_id": inner["custom_id"],
                "label": str(top.get("label") or inner["custom_id"]),
                "type": inner["type"],
                "required": inner["type"] != CHECKBOX and inner.get("required") is not False,
                "options": options,
                "min": _or(inner, "min_values", low),
                "max": _or(inner, "max_values", len(options) if inner["type"] == CHECKBOX_GROUP else 1),
                "value": opened,
            }
        )
    return found


def picked(field: JSON, given: Given) -> list[str] | bool:
    """What a person picks in ``field``: option labels or values (a list, or one string; a
    comma-separated string for a checkbox group), or yes/no for a checkbox. Refuses what
    Discord's client cannot send: an option it does not offer, too many or too few."""
    if field["type"] == CHECKBOX:
        if isinstance(given, bool):
            return given
        word = str(given).strip().lower()
        if word not in ("yes", "no", "true", "false", "on", "off"):
            raise NotSendable(f"{field['label']}: a checkbox is yes or no, not {given!r}")
        return word in ("yes", "true", "on")
    if isinstance(given, bool):
        raise NotSendable(f"{field['label']}: pick options, not {given!r}")
    if isinstance(given, str):
        given = [g.strip() for g in given.split(",")] if field["type"] == CHECKBOX_GROUP else [given]
    given = [g for g in given if g]
    values = []
    for wanted in given:
        option = next(
            (
                o
                for o in field["options"]
                if wanted in (o["value"], o["label"]) or wanted.lower() == o["label"].lower()
            ),
            None,
        )
        if option is None:
            offered = ", ".join(o["label"] for o in field["options"])
            raise NotSendable(f"{field['label']}: {wanted!r} is not an option ({offered})")
        values.append(str(option["value"]))
    return checked(field, values)


def _names(option: JSON, wanted: str) -> bool:
    return wanted in (option["value"], option["label"]) or wanted.lower() == option["label"].lower()


def checked(field: JSON, values: list[str] | bool) -> list[str] | bool:
    """Refuse a pick Discord's client would not send: a required part left empty, too many."""
    if isinstance(values, bool):
        return values
    if not values and field["required"]:
        raise NotSendable(f"modal field required: {field['label']}")
    if values and not field["min"] <= len(values) <= field["max"]:
        raise NotSendable(f"{field['label']}: pick {field['min']}..{field['max']}, got {len(values)}")
    return values


def answer(component: JSON, chosen: list[str] | bool | None) -> JSON:
    """One picked part as a submitted modal carries it (``chosen`` None: as it opened)."""
    kind = component["type"]
    if chosen is None:
        defaults = [str(o["value"]) for o in component.get("options") or [] if o.get("default")]
        chosen = bool(component.get("default")) if kind == CHECKBOX else defaults
    data: JSON = {"type": kind, "custom_id": component["custom_id"]}
    if component.get("id") is not None:
        data["id"] = component["id"]
    if kind == CHECKBOX:
        data["value"] = bool(chosen)
    elif kind == RADIO_GROUP:
        data["value"] = chosen[0] if isinstance(chosen, list) and chosen else None
    else:
        data["values"] = list(chosen) if isinstance(chosen, list) else []
    return data
