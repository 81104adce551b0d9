"""Lists of names typed in one option, such as the declaration order ``Ignus, Cordal, Koel``.

A name may itself hold a comma ("Dox, the Brave"), so commas cannot simply split the text: the
parts between separators are joined back wherever that spells a known name exactly, longest
first; a part that spells none is read as a short form of one name ("Cordal" for "Cordal
Bylerum") when only one name contains it. Whatever is left over is named in the refusal, with
the closest name when one is close ("did you mean Vin?").

The option is anyone's text, up to Discord's 6,000 characters, read on the event loop, so the
reading is linear in it: each part is compared once per separator a known name could span (a
trie of the known names' parts, :class:`_Spans`), never by rejoining every span of parts, and a
list stops at :data:`MAX_LISTED` names.
"""

import re
from collections.abc import Sequence

from bot.errors import BotError
from bot.render.common import clip, plain
from rules.naming import KnownNames, name_key

SEPARATOR = re.compile(r"([,;])")
MAX_LISTED = 50
"""Names one list may hold: twice the largest Conflict (25 participants), past a request's 20
rollers and a sheet's Burdens; a longer list is refused before any more of it is read."""
SUGGESTED = 3
"""Unknown parts that get a "did you mean" (each compares against every name once)."""
_END = ""
"""The trie's key for "a known name ends here" (no part's key is empty there)."""

Trie = dict[str, "Trie | str"]


def _tokens(key: str) -> list[str]:
    """A name key cut at its separators: its parts, stripped, and the separators between them."""
    pieces = SEPARATOR.split(key)
    return [piece if i % 2 else piece.strip() for i, piece in enumerate(pieces)]


class _Spans:
    """The known names as a trie of their keys' parts, so a run of typed parts is matched by
    walking forward once: a name key ``k`` can only equal the key of typed parts whose own
    stripped keys, cut at separators, equal ``k``'s (the key is taken part by part: NFKC, case
    and space folding never reach across an ASCII comma or semicolon)."""

    def __init__(self, known: Sequence[str]) -> None:
        self.by_key = {name_key(name): name for name in known}
        self.root: Trie = {}
        for key, name in self.by_key.items():
            node = self.root
            for token in _tokens(key):
                child = node.setdefault("\0" + token, {})
                assert isinstance(child, dict)
                node = child
            node[_END] = name

    def longest(self, words: list[str], seps: list[str], start: int) -> tuple[str, int] | None:
        """The known name spelled by the most typed parts from ``start``, and where it ends."""
        node: Trie = self.root
        best: tuple[str, int] | None = None
        for end in range(start, len(words)):
            if end > start:
                child = node.get("\0" + seps[end - 1])
                if not isinstance(child, dict):
                    return best
                node = child
            for token in _tokens(name_key(words[end])):
                child = node.get("\0" + token)
                if not isinstance(child, dict):
                    return best
                node = child
            found = node.get(_END)
            if isinstance(found, str):
                joined = "".join(w + s for w, s in zip(words[start:end], seps[start:end], strict=True))
                if name_key(joined + words[end]) == name_key(found):
                    best = (found, end + 1)
        return best


def split_names(text: str, known: Sequence[str]) -> list[str]:
    """The known names ``text`` lists, in its order, or a refusal naming what matched none."""
    spans, names = _Spans(known), KnownNames(known)
    pieces = SEPARATOR.split(text)
    words, seps = pieces[0::2], pieces[1::2]
    found: list[str] = []
    unknown: list[str] = []
    start = 0
    while start < len(words):
        if len(found) + len(unknown) >= MAX_LISTED:
            if any(word.strip() for word in words[start:]):
                raise BotError(
                    f"That lists more than {MAX_LISTED} names: list each name once, at most {MAX_LISTED}."
                )
            break
        match = spans.longest(words, seps, start)
        if match is not None:
            found.append(match[0])
            start = match[1]
            continue
        part = words[start].strip()
        matches = names.find(part) if part else []
        if len(matches) == 1:
            found.append(matches[0])
        elif part:
            unknown.append(part)
        start += 1
    if unknown:
        listed = ", ".join(
            plain(clip(u, 64)) + (f" (did you mean {plain(m)}?)" if (m := _closest(names, u, i)) else "")
            for i, u in enumerate(unknown[:5])
        )
        every = clip(", ".join(known), 1500)
        raise BotError(f"Not one name each: {listed}. The names are: {plain(every)}.")
    return found


def _closest(names: KnownNames, typed: str, index: int) -> str | None:
    if index >= SUGGESTED:
        return None
    return names.closest(typed)
