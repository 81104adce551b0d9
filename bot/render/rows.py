"""Rows short enough for a phone: the board reads without sideways scrolling.

A phone shows about 60 characters of an embed's line; a longer line wraps wherever it happens
to, splitting "AD 5" from its number or a name from its arrow. So the board's lines are cut
here, at their own separators (" · ", " → ", " — ", ", "), into rows of at most :data:`ROW_WIDTH`
visible characters; a row that continues the one above starts with :data:`INDENT`, so the eye
can tell one participant from the next. Markdown and escapes do not count toward the width
(``**Vin**`` shows as 3 characters). A single piece longer than a row (a long name) is left
whole rather than cut.
"""

import re

ROW_WIDTH = 60
INDENT = "\u2003"
"""An em space: Discord keeps it at the start of a line, where it drops ordinary spaces."""
SEPARATORS = re.compile(r"( · | → | — |, )")
TAIL = 2
"""Room kept at a row's end for the arrow, dash or comma it may be cut at."""
_MARKUP = re.compile(r"\*\*|\\(?=[^\w\s])")


def visible(text: str) -> int:
    """How many characters ``text`` shows: without bold markers and escaping backslashes."""
    return len(_MARKUP.sub("", text))


def wrap_row(text: str, width: int = ROW_WIDTH) -> str:
    """``text`` cut at its separators into rows of at most ``width`` visible characters; each
    row after the first is indented. A row cut at " · " drops it (the new row says as much); one
    cut at an arrow, a dash or a comma keeps it at its end, so it still reads on."""
    pieces = SEPARATORS.split(text)
    words, seps = pieces[0::2], pieces[1::2]
    rows: list[str] = []
    row = words[0]
    for sep, word in zip(seps, words[1:], strict=True):
        if visible(row + sep + word) + TAIL <= width or not row.strip(INDENT):
            row += sep + word
            continue
        tail = "" if sep == " · " else sep.rstrip()  # "→" and "," stay: the row reads on
        rows.append(row + tail)
        row = INDENT + word
    rows.append(row)
    return "\n".join(rows)


def wrap_rows(lines: list[str], width: int = ROW_WIDTH) -> list[str]:
    return [wrap_row(line, width) for line in lines]


def one_line(text: str) -> str:
    """The rows :func:`wrap_row` cut, read as one line again (for checking what a board says
    without caring where a phone's rows end)."""
    for kept in (" →", " —", ","):
        text = text.replace(f"{kept}\n{INDENT}", f"{kept} ")
    return text.replace("\n" + INDENT, " · ")
