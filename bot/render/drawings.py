"""Pictures drawn once per input and kept: the cache behind the odds charts.

The odds never change, so a chart is drawn the first time its figures are asked for and kept.
``functools.lru_cache`` would keep them too, but it cannot say whether a picture is drawn without
drawing it; this can (:attr:`Chart.drawn`), so the bot answers from it on the event loop and
sends only a first drawing to a worker thread. The hop to a thread and back costs 0.2–0.4 ms on
a busy 2-core machine, a fifth of an ``/odds`` answer (docs/benchmarks.md).

Workers may draw at the same time (one per ``asyncio.to_thread``), so the store is locked; two
workers drawing the same figures both draw, and the first picture stored is the one kept.
"""

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

Figures = TypeVar("Figures", bound=Hashable)


class Drawings(Generic[Figures]):
    """Pictures by their figures, at most ``keep`` of them (the oldest is dropped first)."""

    def __init__(self, draw: Callable[[Figures], bytes], keep: int) -> None:
        self._draw = draw
        self._keep = keep
        self._drawn: dict[Figures, bytes] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._drawn)

    def get(self, figures: Figures) -> bytes | None:
        """The picture of ``figures`` if it was drawn already; never draws."""
        with self._lock:
            return self._drawn.get(figures)

    def png(self, figures: Figures) -> bytes:
        """The picture of ``figures``, drawn now unless it was drawn before."""
        found = self.get(figures)
        if found is not None:
            return found
        drawn = self._draw(figures)
        with self._lock:
            kept = self._drawn.setdefault(figures, drawn)
            while len(self._drawn) > self._keep:
                del self._drawn[next(iter(self._drawn))]
        return kept

    def forget(self) -> None:
        with self._lock:
            self._drawn.clear()


@dataclass(frozen=True)
class Chart(Generic[Figures]):
    """One chart to show: its figures and where its pictures are kept."""

    drawings: Drawings[Figures]
    figures: Figures

    @property
    def drawn(self) -> bytes | None:
        """The PNG if it was drawn before (cheap enough for the event loop), else ``None``."""
        return self.drawings.get(self.figures)

    def png(self) -> bytes:
        """The PNG, drawn now if need be (10–40 ms the first time: call it in a worker thread)."""
        return self.drawings.png(self.figures)
