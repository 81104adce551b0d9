"""Who a Conflict command is about, and whether the user may speak for them.

Players act for the participants whose sheets they own; Narrators act for anyone. These checks
run inside the transaction (``run_transition``'s command builder), against the state and sheets
just loaded, so a permission is never judged on a stale copy of the round.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from bot.errors import NotAllowed
from rules.character import Character
from rules.conflict import Conflict, Participant
from rules.errors import RulesError


@dataclass(frozen=True)
class Caller:
    """The member sending a command: their id, and whether they are a Narrator here."""

    user_id: int
    narrator: bool


def controls(caller: Caller, participant: Participant, sheets: Mapping[int, Character]) -> bool:
    if caller.narrator:
        return True
    sheet = sheets.get(participant.id)
    return sheet is not None and sheet.owner_id == caller.user_id


def find_participant(conflict: Conflict, name: str) -> Participant:
    """The participant called ``name`` (any case), or an error listing who is in the Conflict."""
    key = name.strip().casefold()
    for participant in conflict.participants:
        if participant.name.casefold() == key:
            return participant
    names = ", ".join(p.name for p in conflict.participants) or "nobody yet"
    raise RulesError(f"Nobody called {name.strip()[:64]} is in this Conflict. In it: {names}.")


def pick(
    conflict: Conflict, sheets: Mapping[int, Character], caller: Caller, who: str | None, doing: str
) -> Participant:
    """The participant a command is for: the one named, or the caller's own when unnamed."""
    if who is not None and who.strip():
        participant = find_participant(conflict, who)
        if not controls(caller, participant, sheets):
            raise NotAllowed(f"{participant.name} is not yours, so you cannot {doing} for them.")
        return participant
    mine = [p for p in conflict.participants if controls(caller, p, sheets) and not p.defeated]
    if caller.narrator:
        mine = [
            p for p in mine if (s := sheets.get(p.id)) is not None and s.owner_id == caller.user_id
        ] or mine
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise RulesError("You have no character in this Conflict. Join with `/conflict join`.")
    names = ", ".join(p.name for p in mine[:10])
    raise RulesError(f"You speak for several characters here ({names}); say which with `who`.")
