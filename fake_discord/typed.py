"""What a person types at the console, before it means anything: echoes, comments and names.

People copy examples from README and from transcripts, where each line is shown after a ``> ``
prompt and explained by a trailing ``# comment``; :func:`clean_line` takes both away, so a line
pasted as printed runs as typed. :func:`fold` is the one way the console compares a typed word
with a name (a choice, a button's label): case, accents and look-alike forms do not count.
"""

from __future__ import annotations

import unicodedata

PROMPT = "> "


def fold(text: str) -> str:
    """``text`` without case, accents or look-alike forms: "Ménard" and "menard" fold alike."""
    # Compatibility forms first ("𝗔" is "A"), then case: casefolding first would miss them.
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(unicodedata.normalize("NFC", bare).split())


def matches(typed: str, name: str) -> bool:
    """Whether ``typed`` appears anywhere in ``name``, folded (an empty typing matches all)."""
    return fold(typed) in fold(name)


def strip_comment(line: str) -> str:
    """``line`` up to a ``#`` that stands alone as a word outside double quotes: ``#table`` (a
    channel) stays, and so does a quoted ``"# 2"``."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"' and (index == 0 or line[index - 1] != "\\"):
            quoted = not quoted
        elif char == "#" and not quoted:
            starts = index == 0 or line[index - 1].isspace()
            ends = index + 1 == len(line) or line[index + 1].isspace()
            if starts and ends:
                return line[:index].rstrip()
    return line


def clean_line(line: str) -> str:
    """The command in a typed or pasted line: no ``> `` prompt echo, no comment, no edge spaces."""
    text = line.strip()
    if text == PROMPT.strip() or text.startswith(PROMPT):
        text = text[len(PROMPT) :].strip() if text != ">" else ""
    return strip_comment(text).strip()
