"""What a move's options name, read against the Conflict the move just loaded.

A name typed in ``who`` or ``target`` is only cleaned when the command is parsed
(``bot.inputs.participants``); it is resolved here, inside the move's own transaction, so it is
judged on the state the move applies to, never on an older copy. Participants are found by the
same naming rule as characters.
"""

from collections.abc import Mapping

from bot.access import Caller
from bot.cogs.conflict.turns import movers
from bot.errors import BotError, NotAllowed
from bot.inputs.characters import shown
from bot.render.common import plain
from rules.character import Character
from rules.conflict import Conflict, Participant
from rules.naming import did_you_mean, find_named
from rules.words import verb

Sheets = Mapping[int, Character]


def find_participant(conflict: Conflict, typed: str) -> Participant:
    """The participant ``typed`` names, or a refusal listing who is in the Conflict."""
    found = find_named(typed, conflict.participants, lambda p: p.name)
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(plain(p.name) for p in found[:10])
        raise BotError(f"Several participants match {shown(typed)}: {names}. Type more of the name.")
    names = ", ".join(plain(p.name) for p in conflict.participants) or "nobody yet"
    hint = did_you_mean(typed, [p.name for p in conflict.participants], shown=plain)
    raise BotError(f"Nobody called {shown(typed)} is in this Conflict.{hint} In it: {names}.")


def controls(caller: Caller, participant: Participant, sheets: Sheets) -> bool:
    """Whether the caller may move ``participant`` (``Caller.controls_participant``)."""
    return caller.controls_participant(participant, sheets.get(participant.id))


def pick(conflict: Conflict, sheets: Sheets, caller: Caller, who: str | None, doing: str) -> Participant:
    """The participant a move is for: the one named, or the caller's own when unnamed: their only
    character standing, or the only one of theirs that can move now (``bot.cogs.conflict.turns.movers``).

    A defeated character's player is told so (docs/rulings.md §5.8), not sent to join again."""
    if who is not None and who.strip():
        participant = find_participant(conflict, who)
        if not controls(caller, participant, sheets):
            is_ = verb("is", participant.many)
            raise NotAllowed(f"{plain(participant.name)} {is_} not yours, so you cannot {doing} for them.")
        return participant
    standing = [p for p in conflict.participants if controls(caller, p, sheets)]
    mine = [p for p in standing if not p.defeated]
    if caller.narrator:
        mine = [p for p in mine if (s := sheets.get(p.id)) is not None and caller.owns(s)] or mine
    moving = [p for p in mine if p.id in movers(conflict)]
    if len(mine) == 1:
        return mine[0]
    if len(moving) == 1:  # the one of the caller's characters that can move now
        return moving[0]
    if not mine and standing:
        names = ", ".join(plain(p.name) for p in standing[:10])
        raise BotError(
            f"{names} {'is' if len(standing) == 1 else 'are'} defeated: no more turns in this Conflict."
        )
    if not mine:
        raise BotError("You have no character in this Conflict. Join with `/conflict join`.")
    names = ", ".join(plain(p.name) for p in mine[:10])
    raise BotError(f"You speak for several characters here ({names}); say which with `who`.")
