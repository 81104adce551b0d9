"""What a Contest over metal did, in words (docs/rulings.md §9.3, §9.7): metal torn from a body,
whose spike the Narrator removes; a won deflection that misses, and the deflector catches it with 2
Nudges of their own, or may draw it in when burning Iron. A deflection sent back by Reflect Ranged
Attack is told by its hit instead."""

from bot.render.conflict_words import does, who
from rules.conflict import Conflict
from rules.conflict import events as ev


def in_body_text(c: Conflict, e: ev.Resolved) -> str:
    """Metal pulled from a body by Outcome 5 or more: a spike's removal is the Narrator's move
    (``/power spike remove:true``), as which spike it was is theirs to say (§9.3, §9.5)."""
    if not (e.wrested and e.in_body and e.target is not None):
        return ""
    return (
        f" The metal tears free of {who(c, e.target)}'s body. If it was a spike, the Narrator removes "
        "it with `/power spike remove:true` (5 Health, and its Power)."
    )


def deflection_text(c: Conflict, e: ev.Resolved, shows: bool = True) -> str:
    """``shows`` False for a hidden deflector: their Iron is named only when they deflected with it,
    which the table saw (§7.1)."""
    if not e.deflected or e.target is None:
        return ""
    if e.caught:
        return f" {does(c, e.target, 'deflects')} it with {e.deflected} and catches it, with 2 Nudges."
    if e.draws and (shows or e.deflected == "Iron"):
        return f" {does(c, e.target, 'deflects')} it with {e.deflected}: it misses, and Iron may draw it in."
    return ""
