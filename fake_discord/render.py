"""Discord messages as plain text, for the offline console and for readable test failures.

Works on the raw JSON the bot sent, so what a person reads in the console is exactly what would
have reached Discord, limits and all.
"""

from __future__ import annotations

import contextlib
import re
from datetime import UTC, datetime
from typing import Any, Protocol

from fake_discord import modal_parts
from fake_discord.layout import is_layout
from fake_discord.payloads import text_inputs

JSON = dict[str, Any]

EPHEMERAL, LOADING = 1 << 6, 1 << 7
BUTTON_STYLES = {1: "", 2: "", 3: "+", 4: "!", 5: "link ", 6: "premium "}
SELECT_TYPES = {3: "select", 5: "user select", 6: "role select", 7: "mentionable select", 8: "channel select"}


class Answered(Protocol):
    """What render_record needs from an interaction record (kept structural to avoid a cycle)."""

    @property
    def response_type(self) -> int | None: ...
    @property
    def choices(self) -> list[JSON]: ...
    @property
    def modal(self) -> JSON | None: ...
    @property
    def messages(self) -> list[JSON]: ...

    original: JSON | None
    errors: list[JSON]


def render_message(message: JSON) -> str:
    """Content, embeds, attachments and components of one message, with an ephemeral marker."""
    lines: list[str] = []
    flags = int(message.get("flags") or 0)
    if flags & EPHEMERAL:
        lines.append("[ephemeral]")
    if flags & LOADING:
        lines.append("(thinking...)")
    if speaker := webhook_speaker(message):
        lines.append(f"[{speaker}]")
    if content := message.get("content"):
        lines.extend(str(content).splitlines())
    for embed in message.get("embeds") or []:
        lines.extend(render_embed(embed))
    layout = is_layout(message)
    for attachment in [] if layout else message.get("attachments") or []:  # a layout shows its own
        lines.append(f"[file: {attachment.get('filename')} ({attachment.get('size', '?')} bytes)]")
    for component in message.get("components") or []:
        lines.extend(render_component(component))
    if message.get("edited_timestamp"):
        lines.append("(edited)")
    return "\n".join(lines) if lines else "(empty message)"


def webhook_speaker(message: JSON) -> str | None:
    """The name a channel webhook posted ``message`` under (its author's ``username``); None for
    the bot's own messages and its answers to interactions."""
    if not message.get("webhook_id") or "interaction_metadata" in message:
        return None
    return str((message.get("author") or {}).get("username") or "") or None


def render_embed(embed: JSON) -> list[str]:
    """An embed as bordered lines. A field shows as ``name: value``, as one line reads; a blank
    name (Discord's zero-width space, for a list carried on from the field above) shows only its
    value, and a name that already ends in ``:`` has its value on the lines below, as Discord
    lays out every field. The footer's lines and the timestamp close it."""
    lines: list[str] = []
    if author := (embed.get("author") or {}).get("name"):
        lines.append(f"| {author}")
    if title := embed.get("title"):
        lines.append(f"| == {title} ==")
    for line in str(embed.get("description") or "").splitlines():
        lines.append(f"| {line}")
    for item in embed.get("fields") or []:
        name = field_name(item)
        value_lines = str(item.get("value") or "").splitlines() or [""]
        if not name or name.endswith(":"):
            lines.extend([f"| {name}"] if name else [])
            lines.extend(f"|   {line}" for line in value_lines)
            continue
        lines.append(f"| {name}: {value_lines[0]}")
        lines.extend(f"|   {line}" for line in value_lines[1:])
    footer = footer_lines(embed)
    lines.extend(f"| -- {line}" if index == 0 else f"|    {line}" for index, line in enumerate(footer))
    return ["+" + "-" * 40, *lines, "+" + "-" * 40] if lines else []


BLANK = "\u200b\u200c\u200d\u2060\ufeff"
"""Zero-width characters: a field named only with these has no name to show."""


def field_name(item: JSON) -> str:
    return str(item.get("name") or "").strip(BLANK + " ")


def footer_lines(embed: JSON) -> list[str]:
    """The footer's lines, then the embed's timestamp as a time (Discord shows it after the footer)."""
    lines = str((embed.get("footer") or {}).get("text") or "").splitlines()
    if stamp := embed.get("timestamp"):
        with contextlib.suppress(ValueError):
            lines.append(local_time(datetime.fromisoformat(str(stamp)), "f"))
    return lines


MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
"""A backslash before ASCII punctuation: Discord shows the character itself, unstyled."""


def unescaped(text: str) -> str:
    """``text`` as Discord shows it once its markdown escapes are read (``\\*`` shows ``*``)."""
    return MARKDOWN_ESCAPE.sub(r"\1", text)


TIME_MARKUP = re.compile(r"<t:(-?\d{1,13})(?::([tTdDfFR]))?>")
"""Discord's timestamp markup, ``<t:1700000000:R>``: each reader sees it in their own time."""


def show_times(text: str, now: datetime | None = None) -> str:
    """``<t:…>`` markup as the time Discord shows for it, in this machine's time zone."""

    def shown(match: re.Match[str]) -> str:
        try:
            when = datetime.fromtimestamp(int(match[1]), UTC)
        except (OverflowError, OSError, ValueError):
            return match[0]
        return local_time(when, match[2] or "f", now)

    return TIME_MARKUP.sub(shown, text)


def local_time(when: datetime, style: str, now: datetime | None = None) -> str:
    """One of Discord's timestamp styles: t, T, d, D, f, F, or R (relative to `now`)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if style == "R":
        return relative(when, now or datetime.now(UTC))
    local = when.astimezone()
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%Y-%m-%d",
        "D": "%d %B %Y",
        "f": "%d %B %Y %H:%M",
        "F": "%A, %d %B %Y %H:%M",
    }
    return local.strftime(formats[style]).lstrip("0")


RELATIVE = (
    (45, 1, "a few seconds", ""),
    (90, 60, "a minute", ""),
    (45 * 60, 60, "", "minutes"),
    (90 * 60, 3600, "an hour", ""),
    (22 * 3600, 3600, "", "hours"),
    (36 * 3600, 86400, "a day", ""),
    (26 * 86400, 86400, "", "days"),
    (45 * 86400, 30 * 86400, "a month", ""),
    (320 * 86400, 30 * 86400, "", "months"),
    (548 * 86400, 365 * 86400, "a year", ""),
)


def relative(when: datetime, now: datetime) -> str:
    """ "5 minutes ago", "in an hour": Discord's relative style (``<t:…:R>``)."""
    seconds = (when - now).total_seconds()
    span = abs(seconds)
    words = f"{round(span / (365 * 86400))} years"
    for limit, unit, single, plural in RELATIVE:
        if span < limit:
            words = single or f"{max(2, round(span / unit))} {plural}"
            break
    return f"in {words}" if seconds > 0 else f"{words} ago"


BAR = "▌"
"""A container's accent, as Discord draws it: a bar down its left side."""
HEADING = re.compile(r"^#{1,3} (.+)$")
SUBTEXT = re.compile(r"^-# (.+)$")


def render_component(component: JSON) -> list[str]:
    """One component as lines: a container's lines behind its accent bar, with the accent's
    colour named first (a terminal without colour still tells success from failure); a text
    display's headings as ``== title ==`` and its small print as ``-- note``, as an embed's
    title and footer show; an image as ``[image: name]``."""
    kind = component.get("type")
    children = component.get("components") or []
    if kind == 1:
        parts = [_inline(child) for child in children]
        return [" ".join(parts)] if parts else []
    if kind == 10:
        return [text_line(line) for line in str(component.get("content") or "").splitlines()]
    if kind == 14:
        return ["-" * 20] if component.get("divider", True) is not False else [""]
    if kind == 17:
        inner = [line for child in children for line in render_component(child)]
        colour = component.get("accent_color")
        named = [f"({colour_name(int(colour))})"] if isinstance(colour, int) else []
        return [f"{BAR} {line}".rstrip() for line in [*named, *inner]]
    if kind == 9:
        lines = [line for child in children for line in render_component(child)]
        if accessory := component.get("accessory"):
            lines.extend(render_component(accessory))
        return lines
    if kind == 11:
        return [_media(component.get("media"), "image")]
    if kind == 12:
        return [_media(item.get("media"), "image") for item in component.get("items") or []]
    if kind == 13:
        return [_media(component.get("file"), "file")]
    return [_inline(component)]


def text_line(line: str) -> str:
    if heading := HEADING.match(line):
        return f"== {heading[1]} =="
    if small := SUBTEXT.match(line):
        return f"-- {small[1]}"
    return line


def _media(media: object, what: str) -> str:
    """``[image: odds.png]``: the file's name (an ``attachment://`` name, or a link's last part)."""
    url = str((media or {}).get("url") if isinstance(media, dict) else "")
    return f"[{what}: {url.removeprefix('attachment://').rsplit('/', 1)[-1] or '?'}]"


HUES = (
    (15, "red"),
    (45, "orange"),
    (70, "yellow"),
    (170, "green"),
    (200, "teal"),
    (260, "blue"),
    (330, "purple"),
    (360, "red"),
)
"""Where each colour word ends, in degrees of hue."""


def colour_name(rgb: int) -> str:
    """A colour in a word, for a terminal without colour: its hue, or grey when it has little."""
    red, green, blue = (rgb >> 16 & 255) / 255, (rgb >> 8 & 255) / 255, (rgb & 255) / 255
    high, low = max(red, green, blue), min(red, green, blue)
    if high - low < 0.15:
        return "grey"
    if high == red:
        hue = 60 * (((green - blue) / (high - low)) % 6)
    elif high == green:
        hue = 60 * ((blue - red) / (high - low) + 2)
    else:
        hue = 60 * ((red - green) / (high - low) + 4)
    return next(name for limit, name in HUES if hue < limit)


def _inline(component: JSON) -> str:
    kind = component.get("type")
    if kind == 2:
        label = (
            component.get("label") or (component.get("emoji") or {}).get("name") or component.get("custom_id")
        )
        style = BUTTON_STYLES.get(int(component.get("style") or 1), "")
        disabled = " (disabled)" if component.get("disabled") else ""
        url = f" {component['url']}" if component.get("url") else ""  # a link to open in a browser
        return f"[{style}{label}{disabled}]{url}"
    if kind in SELECT_TYPES:
        options = " | ".join(str(option.get("label")) for option in component.get("options") or [])
        placeholder = component.get("placeholder") or component.get("custom_id")
        return f"<{SELECT_TYPES[kind]} {placeholder}{': ' + options if options else ''}>"
    if kind == 4:
        return f"{{{component.get('label') or component.get('custom_id')}}}"
    return f"<component type {kind}>"


def render_choices(choices: list[JSON]) -> str:
    if not choices:
        return "(no suggestions)"
    return "\n".join(
        f"  {c.get('name')}" + ("" if str(c.get("value")) == c.get("name") else f"  = {c.get('value')!r}")
        for c in choices
    )


def render_modal(modal: JSON) -> str:
    lines = [f"[modal] {modal.get('title')} (custom_id {modal.get('custom_id')})"]
    for field in text_inputs(modal):
        required = "required" if field["required"] else "optional"
        filled = f", now {field['value']!r}" if field["value"] else ""
        lines.append(f"  {field['label']}: field {field['custom_id']} ({required}{filled})")
    for part in modal_parts.fields(modal):
        required = "required" if part["required"] else "optional"
        what = {3: "pick one", 21: "pick one", 22: "pick some, a,b", 23: "yes or no"}[part["type"]]
        lines.append(f"  {part['label']}: field {part['custom_id']} ({what}, {required})")
        chosen = part["value"] if isinstance(part["value"], list) else []
        lines += [f"    {'*' if o['value'] in chosen else '-'} {o['label']}" for o in part["options"]]
    lines.append("answer with: !submit field:value ...")
    return "\n".join(lines)


def render_record(record: Answered) -> str:
    """Everything the bot answered to one interaction, in the order a person would see it."""
    return "\n".join([*record_notes(record), *(render_message(m) for m in record.messages)])


def record_notes(record: Answered) -> list[str]:
    """What an answer says besides its messages (refusals, suggestions, a form), shown first."""
    parts = [f"(rejected by Discord: {error.get('message')})" for error in record.errors]
    kind = record.response_type
    if kind is None:
        parts.append("(no response: Discord would show 'The application did not respond')")
    elif kind == 8:
        parts.append(render_choices(record.choices))
    elif kind == 9 and record.modal is not None:
        parts.append(render_modal(record.modal))
    messages = record.messages
    if kind == 5 and record.original is not None and record.original["flags"] & LOADING:
        parts.append("(thinking...)")
    if kind == 6 and not messages:
        parts.append("(acknowledged)")
    return parts
