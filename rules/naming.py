"""The one rule for when two names are the same, and for finding and ordering names.

Characters, Burdens, Powers, Props, Stunts and Traits are all named by players and typed
again later, often differently: another case, a doubled space, a full-width letter from a
phone keyboard, no accent. Every comparison of names in ``rules/`` and ``storage/`` goes
through this module, so a name one command finds every other command finds too.

Two keys, for two jobs:

* :func:`name_key` decides EQUALITY ("is this name taken?", "is this the Burden you meant?").
  It forgives only what a reader cannot tell apart: case, spacing and look-alike forms.
* :func:`search_key` is for FINDING and is looser: it also drops accents and folds
  typographic punctuation, so ``menard`` finds "Ménard d’Arc". It never decides that two
  names are the same, since "Élise" and "Elise" are two different characters' names.

Only the standard library is used, so storage and the bot compute the very same keys. Both
keys are cached: a command compares the same few names (a sheet's stats and Powers, a
server's characters) over and over, and normalizing is most of a comparison's cost.
"""

import difflib
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

_TYPOGRAPHIC = str.maketrans(
    {
        "\u2019": "'",  # ’ right single quotation mark (the usual apostrophe on phones)
        "\u2018": "'",  # ‘ left single quotation mark
        "\u02bc": "'",  # ʼ modifier letter apostrophe
        "\u201c": '"',  # “ left double quotation mark
        "\u201d": '"',  # ” right double quotation mark
        "\u2013": "-",  # – en dash
        "\u2014": "-",  # — em dash
    }
)
"""Punctuation that keyboards and phones substitute for the plain ASCII form."""


def _spaced(text: str) -> str:
    """Every run of white space as one space, none at either end."""
    return " ".join(text.split())


@lru_cache(maxsize=8192)
def name_key(text: str) -> str:
    """The form two names share exactly when a player would call them the same name.

    NFKC folds look-alike forms (full-width letters, ligatures such as "ﬁ") and ``casefold``
    folds case more thoroughly than ``lower`` (German "ß" matches "ss"); normalizing again
    after folding and collapsing white space runs makes the key stable: the key of a key is
    itself, so typing a key finds its owner.
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return _spaced(folded)


@lru_cache(maxsize=8192)
def search_key(text: str) -> str:
    """The looser form used to FIND names: :func:`name_key` without accents, ASCII punctuation.

    Accents go by decomposing (NFKD), dropping the combining marks and recomposing (NFC,
    which puts Hangul syllables back together). Curly apostrophes, quotes and dashes become
    ', " and -, so "d'Arc" typed on a desktop finds "d’Arc" typed on a phone.
    """
    decomposed = unicodedata.normalize("NFKD", name_key(text).translate(_TYPOGRAPHIC))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return _spaced(unicodedata.normalize("NFC", bare))


def name_matches(query: str, name: str) -> bool:
    """Whether ``query`` appears anywhere in ``name`` by :func:`search_key` ("str" finds "Lord
    Straff"); an empty query matches every name, so a blank search lists everything."""
    return search_key(query) in search_key(name)


def sort_key(name: str) -> tuple[str, str, str]:
    """Order names as people expect: by search key, so "Ériel" sorts among the E's before
    "Obligator", then by name key and the name itself, so the order is total and "ada" and
    "Ada" sit side by side in a fixed order."""
    return (search_key(name), name_key(name), name)


def find_named(query: str, items: Iterable[T], name_of: Callable[[T], str]) -> list[T]:
    """The items a typed name picks out.

    Items whose name is the same name as the query (equal :func:`name_key`) win outright, in
    their given order: typing "Vin" picks Vin even beside "Vin's Shadow". Only if there are
    none, every item whose name :func:`name_matches` the query, in :func:`sort_key` order.
    Callers read one item as found, none as "no such name" and several as "which one did you
    mean", listing them.
    """
    listed = list(items)
    key = name_key(query)
    exact = [item for item in listed if name_key(name_of(item)) == key]
    if exact:
        return exact
    wanted = search_key(query)
    found = [item for item in listed if wanted in search_key(name_of(item))]
    return sorted(found, key=lambda item: sort_key(name_of(item)))


CLOSE_ENOUGH = 0.6
"""How alike a typing and a name must be (``difflib``'s ratio) for "did you mean": "steal" and
"Steel", "pewtr" and "Pewter" pass; "iron" and "Tin" do not."""


def close_names(typed: str, names: Iterable[str], count: int = 3) -> list[str]:
    """The names most like a misspelt ``typed``, best first (compared by :func:`search_key`)."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(search_key(name), name)
    found = difflib.get_close_matches(search_key(typed), list(by_key), n=count, cutoff=CLOSE_ENOUGH)
    return [by_key[key] for key in found]


def did_you_mean(typed: str, names: "Iterable[str] | KnownNames", shown: Callable[[str], str] = str) -> str:
    """ " Did you mean Steel?" (or "Steel or Iron?") for a name nobody has; "" when nothing is close.

    The one place every refusal of a metal, stat, Attribute, Standing, Resilience, Power or
    character name gets its suggestion (docs/rulings.md §8.4). A :class:`KnownNames` (a server's
    characters, however many) suggests its one closest name, at a bounded cost. ``shown`` makes
    a name fit to show: a character's name is user text, which the bot makes inert.
    """
    if isinstance(names, KnownNames):
        closest = names.closest(typed)
        found = [closest] if closest is not None else []
    else:
        found = close_names(typed, names)
    if not found:
        return ""
    said = [shown(name) for name in found]
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]
    return f" Did you mean {listed}?"


class KnownNames:
    """Names to match many typed names against, their keys computed once.

    :func:`find_named` and :func:`close_names` for a list: a typed list of 50 names against a
    server's 2,000 Heroes costs 50 × 2,000 substring tests, not that many normalizations.
    """

    def __init__(self, names: Iterable[str], keys: Iterable[tuple[str, str]] | None = None) -> None:
        """``keys``: each name's :func:`name_key` and :func:`search_key`, when they were worked
        out already (``storage`` keeps them beside each name)."""
        self.names = list(names)
        self._keys = list(keys) if keys is not None else [(name_key(n), search_key(n)) for n in self.names]

    def find(self, typed: str) -> list[str]:
        """What :func:`find_named` finds for ``typed`` among the names, in its order."""
        key = name_key(typed)
        exact = [name for name, (found, _) in zip(self.names, self._keys, strict=True) if found == key]
        if exact:
            return exact
        wanted = search_key(typed)
        found = [name for name, (_, search) in zip(self.names, self._keys, strict=True) if wanted in search]
        return sorted(found, key=sort_key)

    def closest(self, typed: str) -> str | None:
        """The name most like a misspelt ``typed`` (:data:`CLOSE_ENOUGH`, as :func:`close_names`),
        at a bounded cost whatever was typed and however many names there are: ``typed`` is cut
        to :data:`CLOSE_TYPED` characters, difflib's cheap upper bounds pick at most
        :data:`CLOSE_POOL` names, and only the :data:`CLOSE_COMPARED` likeliest get the full
        comparison."""
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(search_key(typed[:CLOSE_TYPED]))
        pool: list[tuple[float, int]] = []
        for index, (_, search) in enumerate(self._keys):
            matcher.set_seq1(search)
            if (
                matcher.real_quick_ratio() >= CLOSE_ENOUGH
                and (bound := matcher.quick_ratio()) >= CLOSE_ENOUGH
            ):
                pool.append((bound, index))
                if len(pool) >= CLOSE_POOL:
                    break
        best: tuple[float, int] | None = None
        for _, index in sorted(pool, reverse=True)[:CLOSE_COMPARED]:
            matcher.set_seq1(self._keys[index][1])
            ratio = matcher.ratio()
            if ratio >= CLOSE_ENOUGH and (best is None or ratio > best[0]):
                best = (ratio, index)
        return None if best is None else self.names[best[1]]


CLOSE_TYPED = 64
"""Characters of a typing compared for "did you mean": a name is at most 64 (``limits.NAME_MAX``)."""
CLOSE_POOL = 200
CLOSE_COMPARED = 20
