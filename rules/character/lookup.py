"""Picking a part of a sheet (a Burden, a Prop, a rating) by the name a player typed.

Every lookup follows ``rules.naming.find_named``, the rule the bot and storage use for
characters too: the same name wins outright, else any name the typing appears in. A blank
name picks nothing here: a player who typed nothing meant no Burden, not the only one.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from rules.naming import find_named, name_key

T = TypeVar("T")


def pick(typed: str, items: Iterable[T], name_of: Callable[[T], str]) -> list[T]:
    """``find_named(typed, items, name_of)``, except that blank typing picks nothing."""
    if not name_key(typed):
        return []
    return find_named(typed, items, name_of)


def same_name(typed: str, name: str) -> bool:
    """Whether ``name`` is the very name typed, not just one that contains it."""
    return name_key(typed) == name_key(name)


def one_of(options: Sequence[str]) -> str:
    """Options for a "which one did you mean" message: "A", "A or B", "A, B or C"."""
    if len(options) < 2:
        return "".join(options)
    return ", ".join(options[:-1]) + " or " + options[-1]
