"""A Narrator's page data, built once per server and change mark for every Narrator's page.

Every change makes every open page fetch its data again. A Narrator's data depends on nothing
but the server and its change mark (every number, every sheet), so the pages of all the
Narrators watching one server share one build: the first fetch after a change builds it, the
others wait for that build or take it done. A player's data is their own and is not shared.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

KEPT = 64
"""Builds kept (the latest marks of the servers being watched); older ones are built again."""
Key = tuple[int, str]


class NarratorPages:
    """Each (server, change mark)'s Narrator data, built at most once while it is kept."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._held: OrderedDict[Key, asyncio.Future[bytes]] = OrderedDict()

    async def get(self, key: Key, build: Callable[[], Awaitable[bytes]]) -> bytes:
        found = self._held.get(key)
        if found is None:
            found = asyncio.ensure_future(build())
            self._held[key] = found
            while len(self._held) > self.kept:
                self._held.popitem(last=False)
        else:
            self._held.move_to_end(key)
        try:
            return await asyncio.shield(found)  # a page that goes away does not stop the others' build
        except Exception:
            if self._held.get(key) is found:
                del self._held[key]
            raise
