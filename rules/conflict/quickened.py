"""A Zinc or Bronze tap for the declaring order (docs/rulings.md §9.4, §4.2).

Tapped on a declaration (``tap_for:wits``), each charge adds 1 to the Wits its Keeper declares by.
*We chose:* it counts in the next round's order, as a round's order is set when it opens and the
tapper has just taken their place in this one by declaring; it lasts that one round, as each tap
is for one use. Its charges are spent at the declaration, like any tap's. A switch cannot tap for
it (nothing is declared), and a tap for Wits buys no dice for the action.
"""

from rules.conflict.state import Participant
from rules.powers.feruchemy import TapEffect


def quickened(actor: Participant, tapped: TapEffect | None) -> dict[str, int]:
    """The participant's update for a declaration's tap: its Wits waiting for next round."""
    if tapped is None or not tapped.wits:
        return {}
    return {"next_round_wits": actor.next_round_wits + tapped.wits}


def next_round_wits(participant: Participant) -> dict[str, int]:
    """The update as a round opens: last round's tapped Wits now count, and only this round."""
    return {"wits_tapped": participant.next_round_wits, "next_round_wits": 0}
