"""What players may see (docs/rulings.md §7.1; docs/architecture.md, "Access").

Villains and Extras are the Narrator's. Anyone in the server reads a Hero; a Villain or Extra is
read by Narrators, or by anyone once a Narrator revealed it. Players see the others only as a
name and a plain state (:func:`plain_state`), and a Conflict through a
:class:`~bot.render.visibility.Visibility` that shows everyone's numbers but the secret sheets'
(:func:`visibility_of`). Everything here is a pure function of plain data; who is asking, and
so whether they are a Narrator, is ``bot.access``.
"""

from collections import deque
from collections.abc import Collection, Mapping
from enum import StrEnum

from bot.render.visibility import Visibility
from rules.burdens import Severity
from rules.character import Character, CharacterKind, Resilience, resilience_current, resilience_max
from rules.conflict import Conflict, Participant

RESILIENCES = tuple(Resilience)


class PlainState(StrEnum):
    """What players see of a character whose sheet is secret (docs/rulings.md §7.1)."""

    UNHURT = "unhurt"
    WOUNDED = "wounded"
    GRAVELY_WOUNDED = "gravely wounded"
    DEFEATED = "defeated"


def is_secret(kind: CharacterKind, revealed: bool) -> bool:
    """A sheet only Narrators read: a Villain or Extra the Narrator has not revealed (§7.1)."""
    return kind is not CharacterKind.HERO and not revealed


def plain_state(character: Character, *, burning_pewter: bool = False) -> PlainState:
    """Unhurt, wounded, gravely wounded or defeated, by the thresholds of docs/rulings.md §7.1.

    * defeated: a Resilience at 0 (§5.8), or every member of an Extras group down;
    * gravely wounded: a Resilience at half its maximum or less, half or more of a group down,
      or a Grave or Mortal Burden held;
    * wounded: a Resilience below its maximum, a member of a group down, or any Burden held;
    * unhurt: none of these.
    """
    grave = any(b.severity in (Severity.GRAVE, Severity.MORTAL) for b in character.burdens)
    if character.is_extra:
        left, size = character.members_left, character.size
        if left == 0:
            return PlainState.DEFEATED
        if grave or left * 2 <= size:
            return PlainState.GRAVELY_WOUNDED
        return PlainState.WOUNDED if left < size or character.burdens else PlainState.UNHURT
    down = halved = hurt = False
    for resilience in RESILIENCES:  # one pass: every public reply asks this of each hidden sheet
        now = resilience_current(character, resilience, burning_pewter)
        top = resilience_max(character, resilience, burning_pewter)
        down, halved, hurt = down or now == 0, halved or now * 2 <= top, hurt or now < top
    if down:
        return PlainState.DEFEATED
    if grave or halved:
        return PlainState.GRAVELY_WOUNDED
    if character.burdens or hurt:
        return PlainState.WOUNDED
    return PlainState.UNHURT


def participant_state(participant: Participant, sheet: Character | None) -> PlainState:
    """A participant's plain state: defeated in the Conflict stays defeated (§7.4), whatever the
    sheet says since; an Extras group counts the members the Conflict has left standing."""
    if participant.defeated or (participant.is_extra and participant.members_left == 0):
        return PlainState.DEFEATED
    if sheet is None:
        return PlainState.UNHURT
    if participant.is_extra:
        sheet = sheet.model_copy(update={"members_down": participant.size - participant.members_left})
    return plain_state(sheet, burning_pewter=participant.burning_pewter)


_SEEN: "deque[tuple[Conflict, dict[int, Character], frozenset[int], Visibility]]" = deque(maxlen=8)
"""The last few visibilities worked out, with what they were worked out from (held, so an id
is never reused while it is here)."""


def visibility_of(
    conflict: Conflict, sheets: Mapping[int, Character], revealed: Collection[int]
) -> Visibility:
    """What the whole table may see of ``conflict``: everyone's numbers but the secret sheets',
    which show as plain states. Someone who left shows their numbers only if ``sheets`` holds
    their sheet and it is not secret.

    One move asks this of the same state several times (its reply, its journal entries, its
    board and the board's buttons); the models are frozen, so the same objects give the same
    answer and it is worked out once."""
    shown_to = frozenset(revealed)
    for seen, seen_sheets, seen_revealed, view in _SEEN:
        if seen is conflict and seen_revealed == shown_to and _same_sheets(seen_sheets, sheets):
            return view
    view = _visibility(conflict, sheets, shown_to)
    _SEEN.append((conflict, dict(sheets), shown_to, view))
    return view


def _same_sheets(seen: Mapping[int, Character], sheets: Mapping[int, Character]) -> bool:
    return len(seen) == len(sheets) and all(sheets.get(cid) is sheet for cid, sheet in seen.items())


def _visibility(conflict: Conflict, sheets: Mapping[int, Character], revealed: frozenset[int]) -> Visibility:
    shown = {p.id for p in conflict.participants if not is_secret(p.kind, p.id in revealed)}
    shown |= {
        cid
        for cid, sheet in sheets.items()
        if conflict.find(cid) is None and not is_secret(sheet.kind, cid in revealed)
    }
    states = {
        p.id: participant_state(p, sheets.get(p.id)).value for p in conflict.participants if p.id not in shown
    }
    return Visibility(shown=frozenset(shown), states=states)
