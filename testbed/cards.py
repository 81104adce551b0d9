"""What a message says as plain text, however it says it: content, embeds, or layout components.

Tests that assert a reply's words and numbers read them through :func:`card_text`, so they hold
whether the bot answers with an embed or a layout message (``IS_COMPONENTS_V2``).
"""

from typing import Any

JSON = dict[str, Any]
TEXT_DISPLAY = 10


def card_text(message: JSON) -> str:
    """The message's content, its embeds' text and its text displays, one block per line."""
    parts: list[str] = [str(message.get("content") or "")]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for field in embed.get("fields") or []:
            parts += [str(field.get("name") or ""), str(field.get("value") or "")]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    _texts(message.get("components") or [], parts)
    return "\n".join(part for part in parts if part)


def _texts(components: list[Any], into: list[str]) -> None:
    for component in components:
        if not isinstance(component, dict):
            continue
        if component.get("type") == TEXT_DISPLAY:
            into.append(str(component.get("content") or ""))
        inner = [component.get("accessory"), component.get("component")]
        _texts([c for c in inner if isinstance(c, dict)] + list(component.get("components") or []), into)
