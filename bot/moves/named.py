"""What a move's options name, read against the Conflict the move just loaded.

A name typed in ``who`` or ``target`` is only cleaned when the command is parsed
(``bot.inputs.participants``); it is resolved here, inside the move's own transaction, so it is
judged on the state the move applies to, never on an older copy. Participants are found by the
same naming rule as characters. A player's own Circumstances are refused here too, before
anything is rolled (docs/rulings.md §1.6).
"""

from bot.errors import BotError, NotAllowed
from bot.render.common import clip, plain
from rules.character.limits import NAME_MAX
from rules.conflict import Conflict, Participant
from rules.naming import find_named

NARRATORS_ONLY = (
    "Circumstances are the Narrator's call: they set them for the scene (`/scene circumstances`) "
    "or on their request. Leave `circumstances` out; your roll carries the scene's."
)


def shown(typed: str) -> str:
    """What a user typed, repeated back inert and short (a raw payload can carry 6000 characters)."""
    return plain(clip(" ".join(typed.split()), NAME_MAX))


def refuse_players(narrator: bool, given: int | None) -> None:
    """A player's own Circumstances are refused, whatever their value."""
    if given is not None and not narrator:
        raise NotAllowed(NARRATORS_ONLY)


def find_participant(conflict: Conflict, typed: str) -> Participant:
    """The participant ``typed`` names, or a refusal listing who is in the Conflict."""
    found = find_named(typed, conflict.participants, lambda p: p.name)
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(plain(p.name) for p in found[:10])
        raise BotError(f"Several participants match {shown(typed)}: {names}. Type more of the name.")
    names = ", ".join(plain(p.name) for p in conflict.participants) or "nobody yet"
    raise BotError(f"Nobody called {shown(typed)} is in this Conflict. In it: {names}.")
