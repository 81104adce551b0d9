"""What a message says, as plain text, whether it is an embed message or a card (a layout
message): for tests that check words without caring how a message is built.

A stand-in: the fake Discord's console drawing of cards lands with its own ``card_text`` of the
same signature, which replaces this one.
"""

from typing import Any

from bot.render.rows import one_line

JSON = dict[str, Any]
TEXT_DISPLAY = 10


def card_text(message: JSON) -> str:
    """The message's content, its embeds (title, description, fields, footer) and every text
    display of its components, nested ones too, in order; phone rows read as one line
    (``bot.render.rows.one_line``)."""
    content = str(message.get("content") or "")
    parts: list[str] = [content] if content else []
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))
    parts += _texts(message.get("components") or [])
    return one_line("\n".join(parts))


def _texts(components: list[JSON]) -> list[str]:
    found: list[str] = []
    for component in components:
        if component.get("type") == TEXT_DISPLAY:
            found.append(str(component.get("content") or ""))
        found += _texts(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                found += _texts([component[key]])
    return found
