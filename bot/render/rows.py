"""Rows short enough for a phone: the board reads without sideways scrolling.

A phone shows about 60 characters of an embed's line; a longer line wraps wherever it happens
to, splitting "AD 5" from its number or a name from its arrow. So the board's lists are cut
here, into rows of at most :data:`ROW_WIDTH` visible characters, at their own separators and
never inside a sentence (docs/rulings.md §8.7): first at " · ", between the items of a list, and
only an item still too long at " → ". The separator stays at the row's end ("waiting ·"), so the
row reads on; a row that continues the one above starts with :data:`INDENT`, so the eye can
tell one participant from the next. Nothing inside a name (bold), a command (code) or
parentheses is a place to cut, and a sentence ("Next: …") has no separator to cut at: a piece
longer than a row is left whole for the phone to wrap as it wraps any text. Markdown and escapes
do not count toward the width (``**Vin**`` shows as 3 characters).
"""

import re

ROW_WIDTH = 60
INDENT = "\u2003"
"""An em space: Discord keeps it at the start of a line, where it drops ordinary spaces."""
CUTS = (" · ", " → ")
"""Where a row may be cut, the list's own separator first."""
TAIL = 2
"""Room kept at a row's end for the separator it is cut at."""
_MARKUP = re.compile(r"\*\*|\\(?=[^\w\s])")
_SPANS = re.compile(r"\\.|\*\*|`[^`]*`|[()]| · | → ", re.S)
"""What the cutter reads: an escaped character, bold markers, code, parentheses, separators."""


def visible(text: str) -> int:
    """How many characters ``text`` shows: without bold markers and escaping backslashes."""
    return len(_MARKUP.sub("", text))


def _split(text: str, cut: str) -> list[str]:
    """``text`` split at ``cut`` where it stands outside bold, code and parentheses."""
    pieces, start, bold, depth = [], 0, False, 0
    for found in _SPANS.finditer(text):
        token = found[0]
        if token == "**":
            bold = not bold
        elif token == "(" and not bold:
            depth += 1
        elif token == ")" and not bold:
            depth = max(0, depth - 1)
        elif token == cut and not bold and not depth:
            pieces.append(text[start : found.start()])
            start = found.end()
    return [*pieces, text[start:]]


def _items(text: str, width: int) -> list[tuple[str, str]]:
    """The pieces a row may be cut into, each with the separator before it: the list's items,
    and an item too long for a row cut at its arrows."""
    items: list[tuple[str, str]] = []
    for number, item in enumerate(_split(text, CUTS[0])):
        before = CUTS[0] if number else ""
        parts = _split(item, CUTS[1]) if visible(item) + TAIL > width else [item]
        items += [(before if i == 0 else CUTS[1], part) for i, part in enumerate(parts)]
    return items


def wrap_row(text: str, width: int = ROW_WIDTH) -> str:
    """``text`` cut at its separators into rows of at most ``width`` visible characters (a
    piece longer than that stays whole); each row after the first is indented, and a row ends
    with the separator it was cut at ("waiting ·", "attack →"), so nothing is dropped."""
    items = _items(text, width)
    rows: list[str] = []
    row = items[0][1]
    for sep, piece in items[1:]:
        if visible(row + sep + piece) + TAIL <= width or not row.strip(INDENT):
            row += sep + piece
            continue
        rows.append(row + sep.rstrip())
        row = INDENT + piece
    rows.append(row)
    return "\n".join(rows)


def one_line(text: str) -> str:
    """The rows :func:`wrap_row` cut, read as one line again (for checking what a board says
    without caring where a phone's rows end); a participant's numbers row, which starts a row
    of its own, joins with " · "."""
    for kept in CUTS:
        text = text.replace(f"{kept.rstrip()}\n{INDENT}", kept)
    return text.replace("\n" + INDENT, " · ")
