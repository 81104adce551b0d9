"""User text made inert: the one escaping path for every name, label and note the bot shows.

Players type names, labels, Burdens, notes and Conflict stakes; the bot repeats them in message
content, embed titles, descriptions, field names and values, and error replies, all of which
Discord reads as Markdown. Anything a user typed goes through :func:`inert` before it is put
there, so it shows exactly as typed and does nothing (docs/rulings.md §7.3):

* Markdown (``**bold**``, ``||spoiler||``, backticks, ``# heading``, ``-# subtext``, ``> quote``,
  lists) is backslash-escaped;
* a masked link ``[verify](https://evil.example/x)`` cannot form: every ``[`` and ``]`` is
  escaped, so no label can open or close (parentheses alone make no link, so they stay as
  typed: the bot's own Burden names, "Wounded (Health)", read the same in every message);
* mentions, channel links, timestamps and custom emoji cannot form: ``<`` and ``>`` are escaped,
  and ``@everyone`` / ``@here`` get a zero-width space (``discord.utils.escape_mentions``).

Discord shows an escaped character as the character itself, so nothing visible changes.

Embed footers and author names are not Markdown (Discord shows them as typed, mentions and all
as plain text), so text goes there as it is: escaping would only add visible backslashes.

This module sits below every other one of the bot (even ``bot.errors``), so the error handler
uses the same function for the messages of ``rules`` and ``storage``.
"""

import functools
import re

import discord

ESCAPED = frozenset("[]<>#")
"""Escaped wherever they appear, beyond what ``discord.utils.escape_markdown`` escapes."""
LIST_MARK = re.compile(r"^(\s*\d+)\.(\s)", re.MULTILINE)
"""A numbered list item ("1. x") at the start of a line."""


CACHED_LENGTH = 200
"""Texts up to this long are escaped once and remembered: the same names, stats and labels
come back in nearly every reply, and the escape walks the text a character at a time."""


def inert(text: str) -> str:
    """``text`` as Discord should show it: literally, with no Markdown, link or mention."""
    return _inert_cached(text) if len(text) <= CACHED_LENGTH else _inert(text)


@functools.lru_cache(maxsize=4096)
def _inert_cached(text: str) -> str:
    return _inert(text)


def _inert(text: str) -> str:
    escaped = discord.utils.escape_markdown(discord.utils.escape_mentions(text))
    out: list[str] = []
    index = 0
    while index < len(escaped):
        char = escaped[index]
        if char == "\\" and index + 1 < len(escaped):
            out.append(escaped[index : index + 2])  # an escape escape_markdown already made
            index += 2
            continue
        out.append("\\" + char if char in ESCAPED else char)
        index += 1
    return LIST_MARK.sub(r"\1\\.\2", "".join(out))
