"""Choosing the next night by a poll of the table (docs/rulings.md §6.15): which times won.

The bot counts nothing itself: Discord counts the votes and says when they are final. This is
what is made of the counts: the one time with the most votes wins; times sharing the most are
a tie the Narrator settles; a poll nobody answered chooses nothing.
"""

from collections.abc import Sequence

MIN_TIMES, MAX_TIMES = 2, 5
"""A poll offers two to five times: one is no choice, and more than five is no quick vote."""


def leaders(counts: Sequence[int]) -> tuple[int, ...]:
    """The places in ``counts`` (one per time offered) holding the most votes; none when no one
    voted. One place is a winner, more are a tie."""
    most = max(counts, default=0)
    if most <= 0:
        return ()
    return tuple(place for place, count in enumerate(counts) if count == most)
