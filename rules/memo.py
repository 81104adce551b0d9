"""Remembering what a pure function gave for a frozen model, by the model's identity.

A move reads the same sheets and the same log entries many times (its engine command, its
reply, its journal entries, its board), and the next move reads most of them again: storage
hands back the very objects it parsed before (``storage.character_rows``), and a Conflict's
log is a tuple whose entries each new state shares. The models are frozen, so the same object
always gives the same answer: what was worked out for it once is kept here, keyed by ``id``.

Frozen pydantic models hash by their fields (slow, and equal copies would share a key), and
cannot keep an answer on themselves (``model_copy(update=...)`` would carry it to a changed
copy), so the memo holds each object with its answer: an id is never reused while it is held.
The memo keeps two generations of at most ``size`` objects each; when the young one fills, the
old one is dropped, so what is still read stays and the rest is let go. Every pair kept holds
its object, so even threads racing (the web view's) can lose an answer, never get a wrong one.
"""

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
V = TypeVar("V")


class IdentityMemo(Generic[T, V]):
    """Answers remembered per object (and a small hashable ``key``), in two generations."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._young: dict[tuple[int, Hashable], tuple[T, V]] = {}
        self._old: dict[tuple[int, Hashable], tuple[T, V]] = {}

    def get(self, obj: T, key: Hashable, work: Callable[[], V]) -> V:
        """The answer remembered for ``obj`` and ``key``, or ``work()``'s, remembered."""
        slot = (id(obj), key)
        found = self._young.get(slot)
        if found is None:
            found = self._old.pop(slot, None) or (obj, work())
            self._keep(slot, found)
        return found[1]

    def _keep(self, slot: tuple[int, Hashable], found: tuple[T, V]) -> None:
        if len(self._young) >= self.size:
            self._old, self._young = self._young, {}
        self._young[slot] = found
