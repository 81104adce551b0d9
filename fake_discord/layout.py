"""Layout messages (Discord's "components V2"), checked as Discord checks them.

A message sent with the flag ``IS_COMPONENTS_V2`` (``1 << 15``) is made of components only:
text displays, containers, sections, media galleries, separators and action rows. Discord then
refuses a ``content``, ``embeds``, a poll or stickers beside them (400, code 50035), counts at
most 40 components in the whole tree and at most 4,000 characters of text across all its text
displays, allows a thumbnail only as a section's accessory, and never lets a message lose the
flag once it has it: an edit may turn a message into a layout (resetting its content to null and
its embeds to an empty list), never back. Each function returns the problems it found (empty when
the body is fine), in the words of ``fake_discord.validate``; the routes refuse with them.

The OpenAPI description (``fake_discord.openapi``) holds each component's own shape; what is
here is what no schema of one component can say: totals over the message, where a component may
sit, what an edit may change, and that ``attachment://`` names a file the message uploads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

JSON = dict[str, Any]

IS_COMPONENTS_V2 = 1 << 15
MAX_COMPONENTS = 40
MAX_TEXT = 4000
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
TOP_LEVEL = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = TOP_LEVEL - {CONTAINER}
ACCESSORIES = {BUTTON, THUMBNAIL}
LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids")
NAMES = {
    ACTION_ROW: "action row",
    SECTION: "section",
    TEXT_DISPLAY: "text display",
    THUMBNAIL: "thumbnail",
    MEDIA_GALLERY: "media gallery",
    FILE: "file",
    SEPARATOR: "separator",
    CONTAINER: "container",
}


def is_layout(body: JSON) -> bool:
    return bool(int(body.get("flags") or 0) & IS_COMPONENTS_V2)


def walk(components: list[JSON]) -> Iterator[JSON]:
    """Every component in the tree, parents before children, an accessory after its section's text."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from walk([component["accessory"]])


def texts(components: list[JSON]) -> list[str]:
    """The text displays' contents, in the order they show."""
    return [str(c.get("content") or "") for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def message_text(body: JSON) -> str:
    """What a message says in words: its content, or its text displays for a layout message
    (where mentions live, and are pinged or not as ``allowed_mentions`` says)."""
    return "\n".join([str(body.get("content") or ""), *texts(body.get("components") or [])])


def interactive_rows(components: list[JSON]) -> list[JSON]:
    """The action rows anywhere in a layout, and each section's button as a row of its own: the
    buttons and selects, for the row checks every message's components go through."""
    found: list[JSON] = []
    for component in walk(components):
        if component.get("type") == ACTION_ROW:
            found.append(component)
        accessory = component.get("accessory")
        if (
            component.get("type") == SECTION
            and isinstance(accessory, dict)
            and accessory.get("type") == BUTTON
        ):
            found.append({"type": ACTION_ROW, "components": [accessory]})
    return found


def _legacy(body: JSON) -> list[str]:
    return [
        f"{field} cannot be used with the IS_COMPONENTS_V2 flag (a layout message is components only)"
        for field in LEGACY_FIELDS
        if body.get(field)
    ]


def layout_problems(body: JSON, *, creating: bool = True) -> list[str]:
    """A layout message's create or edit body (its flags have IS_COMPONENTS_V2)."""
    problems = _legacy(body)
    if "components" not in body:
        return problems + (["a layout message needs at least one component"] if creating else [])
    components = body.get("components") or []
    if not components:
        problems.append("a layout message needs at least one component")
    count = sum(1 for _ in walk(components))
    if count > MAX_COMPONENTS:
        problems.append(f"{count} components in the message, counted with every child (max {MAX_COMPONENTS})")
    size = sum(len(text) for text in texts(components))
    if size > MAX_TEXT:
        problems.append(f"text displays have {size} characters in total (max {MAX_TEXT})")
    for number, component in enumerate(components):
        problems += _placed(component, f"component {number}", TOP_LEVEL)
    problems += _attachments(body, components)
    return problems


def _placed(component: JSON, where: str, allowed: set[int]) -> list[str]:
    """``component`` where it sits (``allowed``: the types its parent may hold), and its children."""
    kind = component.get("type")
    if kind not in allowed:
        name = NAMES.get(kind, f"type {kind}") if isinstance(kind, int) else f"type {kind}"
        return [f"{where} is a {name}, which cannot sit there"]
    problems: list[str] = []
    children = component.get("components") or []
    if kind == CONTAINER:
        colour = component.get("accent_color")
        if colour is not None and (type(colour) is not int or not 0 <= colour <= 0xFFFFFF):
            problems.append(f"{where} accent_color {colour!r} must be an RGB integer 0-0xFFFFFF or null")
        if not children:
            problems.append(f"{where}: a container holds at least one component")
        for number, child in enumerate(children):
            problems += _placed(child, f"{where}.{number}", IN_CONTAINER)
    elif kind == SECTION:
        if not 1 <= len(children) <= 3 or any(c.get("type") != TEXT_DISPLAY for c in children):
            problems.append(f"{where}: a section holds one to three text displays")
        accessory = component.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in ACCESSORIES:
            problems.append(f"{where}: a section needs an accessory, a button or a thumbnail")
    elif kind == TEXT_DISPLAY:
        if not isinstance(component.get("content"), str) or not component["content"]:
            problems.append(f"{where}: a text display needs some content")
    elif kind == MEDIA_GALLERY and not 1 <= len(component.get("items") or []) <= 10:
        problems.append(f"{where}: a media gallery holds 1-10 items")
    return problems


def _media_urls(components: list[JSON]) -> Iterator[str]:
    for component in walk(components):
        kind = component.get("type")
        if kind == MEDIA_GALLERY:
            for item in component.get("items") or []:
                yield str((item.get("media") or {}).get("url") or "")
        elif kind == THUMBNAIL:
            yield str((component.get("media") or {}).get("url") or "")
        elif kind == FILE:
            yield str((component.get("file") or {}).get("url") or "")


def _attachments(body: JSON, components: list[JSON]) -> list[str]:
    """An ``attachment://name`` must name a file the body lists (when it lists its files)."""
    if "attachments" not in body:
        return []
    names = {str(a.get("filename")) for a in body.get("attachments") or [] if isinstance(a, dict)}
    return [
        f"{url} names no attachment of the message"
        for url in _media_urls(components)
        if url.startswith("attachment://") and url.removeprefix("attachment://") not in names
    ]


def edit_problems(message: JSON, body: JSON) -> list[str]:
    """An edit of ``message`` (as stored) with ``body``: the flag stays once set; a message
    turned into a layout must reset its content to null and its embeds to an empty list; and a
    layout message, whatever flags the edit sends, takes no content or embeds."""
    was = is_layout(message)
    if "flags" in body and was and not is_layout(body):
        return ["a message sent with IS_COMPONENTS_V2 keeps the flag: an edit cannot remove it"]
    if was and not is_layout(body):
        return layout_problems(body | {"flags": IS_COMPONENTS_V2}, creating=False)
    if is_layout(body) and not was:
        return [
            f"turning a message into a layout needs {field} reset to {empty} in the edit"
            for field, empty in (("content", "null"), ("embeds", "[]"))
            if message.get(field) and (field not in body or body[field])
        ]
    return []
