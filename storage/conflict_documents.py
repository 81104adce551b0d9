"""The states of the last few stored Conflict documents, so a move parses only what is new.

Parsing a stored Conflict is most of a move's CPU time, and the document read is nearly always
the one the previous move wrote (``bot.cogs.conflict.transaction`` remembers each it saves): only
what another process (or an older bot) wrote is parsed again.
"""

from collections import OrderedDict

from rules.conflict import Conflict, load_conflict
from storage.conflicts import StoredConflict


class Documents:
    """The last few stored Conflict documents and the states they hold (a small LRU).

    Keyed by the document text itself, so a hit is always right: the same text is the same
    state, and the states are frozen, so sharing one is safe (as ``storage.characters``
    shares parsed sheets).
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._states: OrderedDict[str, Conflict] = OrderedDict()

    def load(self, document: str) -> Conflict:
        found = self._states.get(document)
        if found is None:
            found = load_conflict(document)
            self.remember(document, found)
        else:
            self._states.move_to_end(document)
        return found

    def remember(self, document: str, state: Conflict) -> None:
        self._states[document] = state
        self._states.move_to_end(document)
        while len(self._states) > self.size:
            self._states.popitem(last=False)


DOCUMENTS = Documents()


def load_stored(stored: StoredConflict) -> Conflict:
    """The state a stored Conflict holds (parsed once per distinct document)."""
    return DOCUMENTS.load(stored.document)
