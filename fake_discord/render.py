"""Discord messages as plain text, for the offline console and for readable test failures.

Works on the raw JSON the bot sent, so what a person reads in the console is exactly what would
have reached Discord, limits and all.
"""

from __future__ import annotations

from typing import Any, Protocol

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
    if content := message.get("content"):
        lines.extend(str(content).splitlines())
    for embed in message.get("embeds") or []:
        lines.extend(render_embed(embed))
    for attachment in message.get("attachments") or []:
        lines.append(f"[file: {attachment.get('filename')} ({attachment.get('size', '?')} bytes)]")
    for component in message.get("components") or []:
        lines.extend(_render_component(component))
    if message.get("edited_timestamp"):
        lines.append("(edited)")
    return "\n".join(lines) if lines else "(empty message)"


def render_embed(embed: JSON) -> list[str]:
    lines: list[str] = []
    if author := (embed.get("author") or {}).get("name"):
        lines.append(f"| {author}")
    if title := embed.get("title"):
        lines.append(f"| == {title} ==")
    for line in str(embed.get("description") or "").splitlines():
        lines.append(f"| {line}")
    for item in embed.get("fields") or []:
        value_lines = str(item.get("value") or "").splitlines() or [""]
        lines.append(f"| {item.get('name')}: {value_lines[0]}")
        lines.extend(f"|   {line}" for line in value_lines[1:])
    if footer := (embed.get("footer") or {}).get("text"):
        lines.append(f"| -- {footer}")
    return ["+" + "-" * 40, *lines, "+" + "-" * 40] if lines else []


def _render_component(component: JSON) -> list[str]:
    kind = component.get("type")
    children = component.get("components") or []
    if kind == 1:
        parts = [_inline(child) for child in children]
        return [" ".join(parts)] if parts else []
    if kind == 10:
        return str(component.get("content") or "").splitlines()
    if kind == 14:
        return ["-" * 20]
    if kind in (9, 17):
        lines = [line for child in children for line in _render_component(child)]
        if accessory := component.get("accessory"):
            lines.append(_inline(accessory))
        return lines
    return [_inline(component)]


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
