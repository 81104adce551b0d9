"""Discord's documented limits, checked on what the bot sends.

Real Discord rejects these payloads with 400 (code 50035) in production; checking them offline
turns "works in tests, fails on the server" into a failing test. Each function returns a list of
human-readable problems (empty when the payload is fine) so callers decide whether to reject,
record or assert.
"""

from __future__ import annotations

from typing import Any

from fake_discord import modal_parts, uploads
from fake_discord.layout import interactive_rows, is_layout, layout_problems, message_text
from fake_discord.polls import poll_problems

JSON = dict[str, Any]

SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN = 1, 2, 3, 4, 5
NUMBER = 10
CHOICE_TYPES = {STRING, INTEGER, NUMBER}
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
MAX_CHAT_INPUT, MAX_CONTEXT_MENUS = 100, 5
EMBED_LIMITS = {"title": 256, "description": 4096}
STRING_SELECT, TEXT_INPUT, LABEL = 3, 4, 18
SELECT_TYPES = {STRING_SELECT, 5, 6, 7, 8}
MAX_OPTIONS = 25


def is_valid_name(name: object) -> bool:
    """`^[-_'\\p{L}\\p{N}]{1,32}$`, lowercase: str.isalpha is exactly \\p{L}, isnumeric covers \\p{N}."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(ch in "-_'" or ch.isalpha() or ch.isnumeric() for ch in name)


def _text(value: object, where: str, low: int, high: int) -> list[str]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        size = len(value) if isinstance(value, str) else type(value).__name__
        return [f"{where} must be {low}-{high} characters (got {size})"]
    return []


def _chars(option: JSON) -> int:
    """What Discord counts toward the 4000-character command limit."""
    total = len(str(option.get("name", ""))) + len(str(option.get("description", "")))
    for choice in option.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(_chars(child) for child in option.get("options") or [])


def validate_command(command: JSON) -> list[str]:
    """One application command as sent in a bulk overwrite."""
    kind = command.get("type", CHAT_INPUT)
    name = command.get("name")
    if kind in (USER_COMMAND, MESSAGE_COMMAND):
        problems = _install_problems(command) + _text(name, f"context menu {name!r} name", 1, 32)
        if command.get("description"):
            problems.append(f"context menu {name!r} must not have a description")
        if command.get("options"):
            problems.append(f"context menu {name!r} must not have options")
        return problems
    problems = (
        [] if is_valid_name(name) else [f"command name {name!r} must match ^[-_'\\p{{L}}\\p{{N}}]{{1,32}}$"]
    )
    problems += _install_problems(command)
    problems += _text(command.get("description"), f"/{name} description", 1, 100)
    problems += _validate_options(command.get("options") or [], f"/{name}", depth=0)
    if (size := _chars(command)) > 4000:
        problems.append(f"/{name} has {size} characters of names, descriptions and choices (max 4000)")
    return problems


def _install_problems(command: JSON) -> list[str]:
    """Discord's rule on where a command is offered: a group DM (context 2) is reached only
    through a member's own install of the app (integration type 1)."""
    contexts = command.get("contexts") or []
    if 2 in contexts and 1 not in (command.get("integration_types") or [0]):
        return [f"{command.get('name')!r} allows group DMs (context 2) without a member's install (type 1)"]
    return []


def _validate_options(options: list[JSON], where: str, depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > 25:
        problems.append(f"{where} has {len(options)} options (max 25)")
    kinds = {option.get("type") for option in options}
    nested = kinds & {SUBCOMMAND, GROUP}
    if nested and kinds - {SUBCOMMAND, GROUP}:
        problems.append(f"{where} mixes subcommands with value options")
    seen_optional, names = False, set()
    for option in options:
        name, kind = option.get("name"), option.get("type")
        here = f"{where} {name}"
        if name in names:
            problems.append(f"{where} has two options named {name!r}")
        names.add(name)
        if not is_valid_name(name):
            problems.append(
                f"option name {here!r} must match ^[-_'\\p{{L}}\\p{{N}}]{{1,32}}$ and be lowercase"
            )
        problems += _text(option.get("description"), f"{here} description", 1, 100)
        if kind in (SUBCOMMAND, GROUP):
            allowed = depth == 0 or (depth == 1 and kind == SUBCOMMAND)
            if not allowed:
                problems.append(f"{here}: only command > group > subcommand nesting is allowed")
            if kind == GROUP and any(
                child.get("type") != SUBCOMMAND for child in option.get("options") or []
            ):
                problems.append(f"group {here} may only contain subcommands")
            problems += _validate_options(option.get("options") or [], here, depth + 1)
            continue
        if option.get("options"):
            problems.append(f"value option {here} must not have nested options")
        if option.get("required"):
            if seen_optional:
                problems.append(f"required option {here} comes after an optional one")
        else:
            seen_optional = True
        problems += _validate_choices(option, here)
    return problems


def _validate_choices(option: JSON, where: str) -> list[str]:
    problems: list[str] = []
    choices = option.get("choices") or []
    if choices and option.get("type") not in CHOICE_TYPES:
        problems.append(f"{where}: choices are only for string, integer and number options")
    if len(choices) > 25:
        problems.append(f"{where} has {len(choices)} choices (max 25)")
    if choices and option.get("autocomplete"):
        problems.append(f"{where} has both choices and autocomplete")
    if option.get("autocomplete") and option.get("type") not in CHOICE_TYPES:
        problems.append(f"{where}: autocomplete is only for string, integer and number options")
    for choice in choices:
        problems += _text(choice.get("name"), f"{where} choice name", 1, 100)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(f"{where} choice value {value[:20]!r}... exceeds 100 characters")
    return problems


def validate_command_set(commands: list[JSON]) -> list[str]:
    """A whole bulk overwrite: per-command rules plus counts and duplicate names per type."""
    problems = [problem for command in commands for problem in validate_command(command)]
    limits = {CHAT_INPUT: MAX_CHAT_INPUT, USER_COMMAND: MAX_CONTEXT_MENUS, MESSAGE_COMMAND: MAX_CONTEXT_MENUS}
    labels = {CHAT_INPUT: "slash", USER_COMMAND: "user", MESSAGE_COMMAND: "message"}
    for kind, limit in limits.items():
        names = [c.get("name") for c in commands if c.get("type", CHAT_INPUT) == kind]
        if len(names) > limit:
            problems.append(f"{len(names)} {labels[kind]} commands (max {limit})")
        if duplicates := sorted({str(n) for n in names if names.count(n) > 1}):
            problems.append(f"duplicate {labels[kind]} command names: {', '.join(duplicates)}")
    return problems


def validate_message(payload: JSON, *, creating: bool = True) -> list[str]:
    """Content, embed and component limits of a message create or edit body."""
    problems: list[str] = []
    content = payload.get("content")
    if isinstance(content, str) and len(content) > 2000:
        problems.append(f"content has {len(content)} characters (max 2000)")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for index, embed in enumerate(embeds):
        found, size = _validate_embed(embed, f"embed {index}")
        problems += found
        total += size
    if total > 6000:
        problems.append(f"embeds have {total} characters in total (max 6000)")
    components = payload.get("components") or []
    if is_layout(payload):
        problems += layout_problems(payload, creating=creating)
        problems += _validate_rows(interactive_rows(components), max_rows=None)
    else:
        problems += _validate_rows(components)
    problems += _mention_lists(payload.get("allowed_mentions"))
    problems += poll_problems(payload.get("poll")) if creating else []
    attachments = payload.get("attachments") or []
    if creating and not (content or embeds or components or attachments or payload.get("poll")):
        problems.append("cannot send an empty message (no content, embeds, components or files)")
    return problems


def _mention_lists(mentions: object) -> list[str]:
    """allowed_mentions' ``parse``, ``users`` and ``roles``: unique items, at most 100 ids."""
    problems: list[str] = []
    if not isinstance(mentions, dict):
        return problems
    for key in ("parse", "users", "roles"):
        items = mentions.get(key)
        if not isinstance(items, list):
            continue
        if len({str(item) for item in items}) != len(items):
            problems.append(f"allowed_mentions.{key} repeats an item (its items must be unique)")
        if key != "parse" and len(items) > 100:
            problems.append(f"allowed_mentions.{key} has {len(items)} ids (max 100)")
    return problems


def _validate_embed(embed: JSON, where: str) -> tuple[list[str], int]:
    problems: list[str] = []
    size = 0
    for key, limit in EMBED_LIMITS.items():
        value = embed.get(key) or ""
        size += len(value)
        if len(value) > limit:
            problems.append(f"{where} {key} has {len(value)} characters (max {limit})")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        problems.append(f"{where} has {len(fields)} fields (max 25)")
    for number, item in enumerate(fields):
        name, value = str(item.get("name") or ""), str(item.get("value") or "")
        size += len(name) + len(value)
        problems += _text(name, f"{where} field {number} name", 1, 256)
        problems += _text(value, f"{where} field {number} value", 1, 1024)
    for key, inner, limit in (("footer", "text", 2048), ("author", "name", 256)):
        text = str((embed.get(key) or {}).get(inner) or "")
        size += len(text)
        if len(text) > limit:
            problems.append(f"{where} {key} {inner} has {len(text)} characters (max {limit})")
    return problems, size


def _validate_rows(components: list[JSON], max_rows: int | None = 5) -> list[str]:
    """Action rows: a message's five, or (``max_rows`` None) those anywhere in a layout."""
    problems: list[str] = []
    if max_rows is not None and len(components) > max_rows:
        problems.append(f"{len(components)} action rows (max {max_rows})")
    custom_ids: list[str] = []
    for number, row in enumerate(components):
        if row.get("type") != 1:
            problems.append(f"top-level component {number} is type {row.get('type')}, not an action row")
            continue
        children = row.get("components") or []
        buttons = [child for child in children if child.get("type") == 2]
        if len(buttons) > 5:
            problems.append(f"action row {number} has {len(buttons)} buttons (max 5)")
        if len(buttons) != len(children) and len(children) != 1:
            problems.append(f"action row {number} mixes a select menu with other components")
        for child in children:
            label = child.get("label")
            if isinstance(label, str) and len(label) > 80:
                problems.append(f"button label {label[:20]!r}... exceeds 80 characters")
            if child.get("type") in SELECT_TYPES:
                problems += validate_select(child, f"select in row {number}")
            if (custom_id := child.get("custom_id")) is not None:
                custom_ids.append(str(custom_id))
                if len(str(custom_id)) > 100:
                    problems.append(f"custom_id {str(custom_id)[:20]!r}... exceeds 100 characters")
            elif child.get("type") == 2 and child.get("style") not in (5, 6):
                problems.append(f"button {label!r} in row {number} has no custom_id")
            if child.get("type") == 2 and child.get("style") == 5:
                problems += _link_button(child, f"link button {label!r} in row {number}")
    if duplicates := sorted({c for c in custom_ids if custom_ids.count(c) > 1}):
        problems.append(f"duplicate custom_ids: {', '.join(duplicates)}")
    return problems


def _link_button(button: JSON, where: str) -> list[str]:
    """A link button: an http(s) ``url`` of at most 512 characters, and no ``custom_id``."""
    url = button.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return [f"{where} needs an http(s) url"]
    problems = [f"{where} url exceeds 512 characters"] if len(url) > 512 else []
    if "custom_id" in button:
        problems.append(f"{where} must not have a custom_id")
    return problems


def _length(value: object, where: str, high: int, low: int = 0) -> list[str]:
    """An optional text: when present, a string of ``low``..``high`` characters."""
    return [] if value is None else _text(value, where, low, high)


def validate_select(select: JSON, where: str = "select") -> list[str]:
    """A select menu: at most 25 options with labels and values of 1-100 characters, values
    unique, 0-25 values to choose (never more than there are options), a 150-character
    placeholder."""
    problems = _length(select.get("placeholder"), f"{where} placeholder", 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= MAX_OPTIONS and high >= 1):
        problems.append(f"{where} min_values {low} / max_values {high} must satisfy 0 <= min <= max <= 25")
    if select.get("type") != STRING_SELECT:
        return problems
    options = select.get("options") or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        problems.append(f"{where} has {len(options)} options (1-25 allowed)")
    if isinstance(high, int) and high > len(options):
        problems.append(f"{where} max_values {high} is more than its {len(options)} options")
    values = [str(option.get("value")) for option in options]
    if duplicates := sorted({v for v in values if values.count(v) > 1}):
        problems.append(f"{where} has duplicate option values: {', '.join(duplicates)}")
    for option in options:
        problems += _text(option.get("label"), f"{where} option label", 1, 100)
        problems += _text(option.get("value"), f"{where} option value", 1, 100)
        problems += _length(option.get("description"), f"{where} option description", 100)
    defaults = sum(1 for option in options if option.get("default"))
    if isinstance(high, int) and defaults > high:
        problems.append(f"{where} has {defaults} default options but allows {high} values")
    return problems


def _text_input(component: JSON, where: str, label: object) -> list[str]:
    problems = _text(component.get("custom_id"), f"{where} custom_id", 1, 100)
    if component.get("style") not in (1, 2):
        problems.append(f"{where} style must be 1 (short) or 2 (paragraph)")
    if label is not None:
        problems += _text(label, f"{where} label", 1, 45)
    problems += _length(component.get("placeholder"), f"{where} placeholder", 100)
    low, high = component.get("min_length", 0), component.get("max_length", 4000)
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= 4000 and 1 <= high <= 4000):
        problems.append(f"{where} min_length {low} / max_length {high} must be 0-4000 and 1-4000")
    value = component.get("value")
    if value is not None and isinstance(high, int) and (not isinstance(value, str) or len(value) > high):
        problems.append(f"{where} value is longer than its max_length {high}")
    return problems


def validate_modal(modal: JSON) -> list[str]:
    """A modal: a 1-45 character title, a custom_id, 1-5 top-level components, each an action
    row holding one text input or a label wrapping one; text inputs within their limits."""
    problems = _text(modal.get("title"), "modal title", 1, 45)
    problems += _text(modal.get("custom_id"), "modal custom_id", 1, 100)
    components = modal.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(f"modal has {len(components)} components (1-5 allowed)")
    custom_ids: list[str] = []
    for number, top in enumerate(components):
        where = f"modal component {number}"
        if top.get("type") == 1:
            children = top.get("components") or []
            if len(children) != 1 or children[0].get("type") != TEXT_INPUT:
                problems.append(f"{where}: an action row in a modal holds exactly one text input")
                continue
            inner, label = children[0], children[0].get("label")
            if label is None:
                problems.append(f"{where}: a text input in an action row needs a label")
        elif top.get("type") == LABEL and isinstance(top.get("component"), dict):
            inner, label = top["component"], top.get("label")
            problems += modal_parts.label_problems(top, where)
            if inner.get("type") == uploads.FILE_UPLOAD:
                problems += uploads.upload_problems(inner, where)
            if inner.get("type") != TEXT_INPUT:
                custom_ids.append(str(inner.get("custom_id")))
                continue
            label = None  # the Label's text is checked above; the input carries none of its own
        else:
            problems += modal_parts.misplaced(top)
            problems.append(f"{where} is type {top.get('type')}, not an action row or a label")
            continue
        problems += _text_input(inner, where, label)
        custom_ids.append(str(inner.get("custom_id")))
    if duplicates := sorted({c for c in custom_ids if custom_ids.count(c) > 1}):
        problems.append(f"modal has duplicate custom_ids: {', '.join(duplicates)}")
    return problems


def mention_problems(payload: JSON) -> list[str]:
    """House rule, not Discord's: message content says allowed_mentions and lets no text ping.

    ``parse`` (pings whatever the text mentions, user text included), role pings and reply
    pings are problems. An explicit ``users`` list is allowed: the bot naming exactly who it
    notifies (a player whose character must defend) cannot be hijacked by user text.
    """
    if not message_text(payload).strip():
        return []
    mentions = payload.get("allowed_mentions")
    if mentions is None:
        return ["message content sent without allowed_mentions"]
    pings = [f"{key}={mentions[key]}" for key in ("parse", "roles") if mentions.get(key)]
    if mentions.get("replied_user"):
        pings.append("replied_user=True")
    return [f"allowed_mentions may ping ({', '.join(pings)})"] if pings else []


def validate_autocomplete(data: JSON | None) -> list[str]:
    choices = (data or {}).get("choices")
    if not isinstance(choices, list):
        return ["autocomplete response has no choices list"]
    problems = [f"{len(choices)} autocomplete choices (max 25)"] if len(choices) > 25 else []
    for choice in choices:
        problems += _text(choice.get("name"), "autocomplete choice name", 1, 100)
    return problems
