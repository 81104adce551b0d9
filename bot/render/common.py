"""Shared rendering pieces: colours, safe text, and Discord's size limits."""

import discord

from bot.text import inert

SUCCESS = discord.Colour(0x009E73)
FAILURE = discord.Colour(0xE0443E)
NEUTRAL = discord.Colour(0x8A8F98)
INFO = discord.Colour(0x4A80D9)
"""Accents of cards and embeds: each at least 3:1 against Discord's light (#FFFFFF) and dark
(#313338) backgrounds; success and failure are Okabe & Ito's bluish green and a red apart from it
in every common colour-vision deficiency (``bot/render/cards.py``; tests/bot/render/test_cards.py)."""

TITLE_LIMIT = 256
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000
MAX_FIELDS = 25


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def units(text: str) -> int:
    """Length in UTF-16 code units (one per character of ASCII text, the usual case)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` UTF-16 units with an ellipsis, never splitting a character or
    leaving half of an escape (a lone trailing backslash)."""
    if units(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for char in text:
        size = 2 if ord(char) > 0xFFFF else 1
        if used + size > limit - 1:
            break
        kept.append(char)
        used += size
    cut = "".join(kept)
    if (len(cut) - len(cut.rstrip("\\"))) % 2:
        cut = cut[:-1]
    return cut + "…"


def plain(text: str) -> str:
    """User text made inert (``bot.text.inert``, the one escaping path): Markdown shows as typed
    (``**Vin**``), a masked link ``[x](url)`` stays text, and ``@everyone`` or ``<@id>`` never
    render as a mention."""
    return inert(text)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def percent(chance: float) -> str:
    if 0 < chance < 0.001:
        return "<0.1%"
    if 0.999 < chance < 1:
        return ">99.9%"
    return f"{chance:.1%}"


def embed_size(embed: discord.Embed) -> int:
    return len(embed)


def add_field(embed: discord.Embed, name: str, value: str, *, inline: bool = True) -> None:
    """Add a field clipped to Discord's limits; fields past the 25th are dropped, never an error."""
    if len(embed.fields) >= MAX_FIELDS:
        return
    embed.add_field(
        name=clip(name, FIELD_NAME_LIMIT), value=clip(value or "—", FIELD_VALUE_LIMIT), inline=inline
    )
