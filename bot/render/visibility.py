"""Whose numbers one rendering of a Conflict may show (docs/rulings.md §7.1).

A public message (the board, a move's reply, the prompt to defend) is read by everyone at the
table, so the Narrator's Villains and Extras that are not revealed show there as a name and a
plain state ("wounded"), never as their dice, ratings, Resiliences or Burdens. The Narrator's
own views (the board's "Narrator view", private replies) show everything.

This is plain data: who may see what is decided in ``bot.access`` (``visibility_of``), which
builds one of these; the renderers only obey it.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Visibility:
    """``shown``: the participants whose numbers this rendering may show (None: everyone's).

    ``states`` holds the plain state of each participant whose numbers are hidden
    ("unhurt", "wounded", "gravely wounded", "defeated").
    """

    shown: frozenset[int] | None = None
    states: Mapping[int, str] = field(default_factory=dict)

    def shows(self, participant_id: int | None) -> bool:
        """Whether this rendering may show the numbers of ``participant_id``."""
        return self.shown is None or (participant_id is not None and participant_id in self.shown)

    def state(self, participant_id: int | None) -> str:
        """The plain state shown in place of the numbers of a hidden participant."""
        if participant_id is None:
            return "unknown"
        return self.states.get(participant_id, "unknown")

    @property
    def full(self) -> bool:
        return self.shown is None


FULL = Visibility()
"""Everything: the Narrator's view, and what tests of the renderers compare against."""
