"""Lists of names typed in one option, such as the declaration order ``Ignus, Cordal, Koel``.

A name may itself hold a comma ("Dox, the Brave"), so commas cannot simply split the text: the
parts between separators are joined back wherever that spells a known name exactly, longest
first; a part that spells none is read as a short form of one name ("Cordal" for "Cordal
Bylerum") when only one name contains it. Whatever is left over is named in the refusal.
"""

import re
from collections.abc import Sequence

from bot.errors import BotError
from bot.render.common import clip, plain
from rules.naming import find_named, name_key

SEPARATOR = re.compile(r"([,;])")


def split_names(text: str, known: Sequence[str]) -> list[str]:
    """The known names ``text`` lists, in its order, or a refusal naming what matched none."""
    by_key = {name_key(name): name for name in known}
    pieces = SEPARATOR.split(text)
    words, seps = pieces[0::2], pieces[1::2]
    found: list[str] = []
    unknown: list[str] = []
    start = 0
    while start < len(words):
        for end in range(len(words), start, -1):
            joined = "".join(words[i] + (seps[i] if i < end - 1 else "") for i in range(start, end))
            if name_key(joined) in by_key:
                found.append(by_key[name_key(joined)])
                start = end
                break
        else:
            part = words[start].strip()
            matches = find_named(part, known, lambda name: name) if part else []
            if len(matches) == 1:
                found.append(matches[0])
            elif part:
                unknown.append(part)
            start += 1
    if unknown:
        listed = ", ".join(plain(clip(u, 64)) for u in unknown[:5])
        names = clip(", ".join(known), 1500)
        raise BotError(f"Not one name each: {listed}. The names are: {plain(names)}.")
    return found
