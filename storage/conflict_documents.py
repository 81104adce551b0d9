"""The state of each channel's newest stored Conflict document, so a move parses only what is new.

Parsing a stored Conflict is most of a move's CPU time, and the document read is nearly always
the one the previous move wrote (``bot.cogs.conflict.transaction`` remembers each it saves): only
what another process (or an older bot) wrote is parsed again.
"""

from collections import OrderedDict

from rules.conflict import Conflict, load_conflict
from storage.conflicts import StoredConflict


class Documents:
    """The newest document of the last few channels' Conflicts, and the state each holds (an LRU
    over channels).

    One per channel: once a move saves a newer document, nothing reads the older one again (every
    read takes the row as it is now), so keeping it only held memory: a long fight's 100 KB a
    move (docs/benchmarks.md, "A long fight"). A hit is checked against
    the document's text, so it is always right: the same text is the same state, and the states
    are frozen, so sharing one is safe (as ``storage.characters`` shares parsed sheets).
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._states: OrderedDict[int, tuple[str, Conflict]] = OrderedDict()

    def load(self, channel_id: int, document: str) -> Conflict:
        """The state ``document`` holds, parsed unless it is the channel's newest one known."""
        found = self._states.get(channel_id)
        if found is not None and found[0] == document:
            self._states.move_to_end(channel_id)
            return found[1]
        state = load_conflict(document)
        self.remember(document, state)
        return state

    def remember(self, document: str, state: Conflict) -> None:
        """``document`` is now the newest of its channel's Conflict (``state`` says which)."""
        self._states[state.channel_id] = (document, state)
        self._states.move_to_end(state.channel_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)


DOCUMENTS = Documents()


def load_stored(stored: StoredConflict) -> Conflict:
    """The state a stored Conflict holds (parsed once per new document)."""
    return DOCUMENTS.load(stored.channel_id, stored.document)
