"""A push or pull braced on anchors, in a Conflict (docs/rulings.md §9.3).

Anchoring between two very heavy objects costs the pusher 1 Health as the push is made (when
the action is taken, each time it is), no wound with it. *We chose:* Health brought to 0 this
way defeats them after the push, which still flies, and knocks them out as any blow to 0 does:
every burn ends (§9.2); an Extra pays nothing, having no Health counted point by point.
"""

from rules.character import Resilience, resilience_current
from rules.character.names import RESILIENCE_DEFEAT
from rules.conflict.events import Anchored, Defeated
from rules.conflict.metals import knocked_out_burns
from rules.conflict.state import Conflict
from rules.conflict.work import Work
from rules.powers.pushes import anchoring


def anchor(conflict: Conflict, work: Work, pid: int) -> Conflict:
    """Charge the anchoring's Health to ``pid``'s sheet; at 0 (Pewter counted while it burns)
    fell them and end their burns (§5.5, §9.2)."""
    participant = conflict.participant(pid)
    if participant.is_extra:
        return conflict
    after = anchoring(work.sheet(participant))
    work.save_sheet(pid, after)
    health = resilience_current(after, Resilience.HEALTH, participant.burning_pewter)
    work.emit(Anchored(participant=pid, health=health))
    if health > 0:
        return conflict
    if not participant.defeated:
        work.emit(Defeated(participant=pid, condition=RESILIENCE_DEFEAT[Resilience.HEALTH]))
        conflict = conflict.with_participant(participant.model_copy(update={"defeated": True}))
    return knocked_out_burns(conflict, work, pid)  # unconscious: no burn goes on (§9.2)
