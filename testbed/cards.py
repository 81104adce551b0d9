"""What a message says, for tests that check words and numbers, whether it is an embed or a card.

A roll, a Contest, a request or an ``/odds`` answer used to be an embed and is now a layout message
(``bot/render/cards.py``): its words live in text displays inside a container. :func:`card_text`
reads either kind the same way, so a test asserts what the table reads, not where Discord keeps it.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.components import _component_factory
from discord.ui.view import _component_to_item

from bot.render.rows import one_line
from fake_discord.layout import IS_COMPONENTS_V2, texts, walk
from testbed.bot_env import embeds_text

JSON = dict[str, Any]
HEADING = re.compile(r"^#{1,3} (.+)$", re.M)


def card_text(message: JSON) -> str:
    """A message's content, its embeds (as :func:`testbed.bot_env.embeds_text` reads them) and
    every text display of a layout (in the order shown, nested ones too), as one text with the
    board's phone rows read as one line (``bot.render.rows.one_line``)."""
    parts = [str(message.get("content") or "")]
    if embeds := message.get("embeds") or []:
        parts.append(embeds_text(embeds))
    parts += texts(message.get("components") or [])
    return one_line("\n".join(part for part in parts if part))


def card_title(message: JSON) -> str:
    """The heading of a message's first card (``### …``), or the title of its first embed."""
    for text in texts(message.get("components") or []):
        if found := HEADING.search(text):
            return found[1]
    embeds = message.get("embeds") or [{}]
    return str(embeds[0].get("title") or "")


FACT = re.compile(r"^\*\*([^*\n]+):\*\*[ \n](.*?)(?=\n\*\*[^*\n]+:\*\*|\Z)", re.M | re.S)
"""A card's ``**Name:** value`` (the value runs on to the next such line)."""


def card_fields(message: JSON) -> dict[str, str]:
    """Every ``**Name:** value`` of a message's cards, and every field of its embeds."""
    found = {
        match[1]: match[2] for text in texts(message.get("components") or []) for match in FACT.finditer(text)
    }
    for embed in message.get("embeds") or []:
        found |= {str(item.get("name")): str(item.get("value")) for item in embed.get("fields") or []}
    return found


def card_field(message: JSON, name: str) -> str:
    """The value a card gives ``name`` (``**name:** value``, up to the next such line), or the
    value of an embed's field of that name."""
    found = card_fields(message)
    if name not in found:
        raise AssertionError(f"no {name!r} in {card_text(message)}")
    return found[name]


def accent(message: JSON) -> int | None:
    """The accent colour of a message's first card."""
    return next(
        (c.get("accent_color") for c in walk(message.get("components") or []) if c.get("type") == 17), None
    )


def card_images(message: JSON) -> list[str]:
    """The media a message's cards show (media galleries and thumbnails), by their urls."""
    urls: list[str] = []
    for component in walk(message.get("components") or []):
        items = component.get("items") or [] if component.get("type") == 12 else [component]
        urls += [str(item["media"]["url"]) for item in items if component.get("type") in (11, 12)]
    return urls


def is_card(message: JSON | None) -> bool:
    """Whether ``message`` is a layout message (a card), as a roll's answer is."""
    return message is not None and bool(int(message.get("flags") or 0) & IS_COMPONENTS_V2)


def shows(message: JSON | None) -> bool:
    """Whether ``message`` shows more than a line of text: an embed or a card (a refusal does not)."""
    return message is not None and (bool(message.get("embeds")) or is_card(message))


def card_lead(message: JSON) -> str:
    """What a card says under its heading (a roll's verdict, how a Contest was settled), or the
    description of its first embed."""
    for text in texts(message.get("components") or []):
        if found := HEADING.search(text):
            return text[found.end() :].strip("\n")
    embeds = message.get("embeds") or [{}]
    return str(embeds[0].get("description") or "")


def as_discord_py_writes_it(components: list[JSON]) -> list[JSON]:
    """``components`` read into discord.py's own items and serialised by discord.py again (its
    path from a message's components to a view's items, as ``View.from_message`` takes): the
    body a card drawn as JSON must equal (``bot.render.cards``), key for key, as it was sent when
    discord.py's items drew it. (Private discord.py API, in tests only: a rename fails here.)"""
    layout = discord.ui.LayoutView(timeout=None)
    for component in components:
        read = _component_factory(component)  # type: ignore[arg-type]
        assert read is not None, component
        layout.add_item(_component_to_item(read))
    written: list[JSON] = layout.to_components()  # type: ignore[no-untyped-call]
    return written
