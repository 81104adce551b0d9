"""One error type for everything a player can get wrong.

The bot shows ``str(error)`` to the player as it is, so every message is a full sentence in
plain words that says what to change. Nothing but :class:`RulesError` leaves ``rules/`` on bad
input.
"""


class RulesError(ValueError):
    """A request the rules do not allow; the message is meant for the player."""
