"""The web page's data: the server's live Conflicts and sheets as JSON, as far as the caller may see.

Visibility is decided by ``bot.access`` alone (docs/rulings.md §7.1). A player's page lists
only the Conflicts their own Heroes are in and the one of the channel they asked ``/web`` from
(:func:`lists_conflict`): the view knows no channel permissions, so a Conflict in a channel the
player cannot read, with its stakes, is never shown to them. A Conflict goes through
``visibility_of`` for players (the board's public view: the Narrator's secret Villains and
Extras as a name and a plain state, never a number) and the full view for a Narrator; a sheet
is listed when the caller both controls it and may read it (``Caller.controls`` and
``Caller.can_read``), which is every sheet for a Narrator and a player's own Heroes.

User text goes out raw inside JSON, never as HTML or Markdown: the page puts it on screen
with ``textContent`` only, so a name like ``<b>Vin</b>`` shows as typed (§7.3). A portrait is
named by its path on this view (``bot.web.portraits``), beside a sheet the caller may read or
a fighter whose numbers they may see.
"""

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.access import Caller, visibility_of
from bot.render.conflict import FULL, Visibility
from bot.render.conflict_status import PHASES, status_word
from bot.render.portraits import portrait_path
from bot.workers.board_state import Shown, stored_board
from rules.character import (
    Attribute,
    Character,
    CharacterKind,
    Resilience,
    Standing,
    resilience_current,
    resilience_max,
    standing_available,
)
from rules.conflict import ActionKind, Conflict, Participant, Phase, declaration_order, resolve_order, waiting
from rules.conflict.order import declaration_key
from rules.conflict.specs import Side
from storage import Storage, StoredCharacter

JSON = dict[str, Any]


def _declared(conflict: Conflict, participant: Participant) -> str:
    declaration = participant.round.declaration
    if declaration is None:
        return ""
    action = declaration.action
    if action.kind is ActionKind.ATTACK:
        kind = f"{action.attack_kind.value} " if action.attack_kind is not None else ""
        aim = f" ({action.resilience.label})" if action.resilience is not None else ""
        return f"{kind}attack → {conflict.name_of(action.target)}{aim}"
    if action.kind is ActionKind.ACTION:
        return "action" + (f" → {conflict.name_of(action.target)}" if action.target is not None else "")
    return "full defence" if action.kind is ActionKind.FULL_DEFENCE else "no roll"


def _resiliences(participant: Participant, sheet: Character) -> list[JSON]:
    pewter = participant.burning_pewter
    return [
        {
            "name": r.label,
            "current": resilience_current(sheet, r, pewter),
            "max": resilience_max(sheet, r, pewter),
        }
        for r in Resilience
    ]


def participant_data(
    conflict: Conflict,
    participant: Participant,
    sheet: Character | None,
    up: bool,
    view: Visibility,
    portrait: str | None = None,
) -> JSON:
    """One fighter; the numbers (and portrait) only where ``view`` shows them, else the plain
    state alone."""
    data: JSON = {
        "id": participant.id,
        "name": participant.name,
        "kind": participant.kind.value,
        "up": up,
        "status": status_word(conflict, participant),
        "declared": _declared(conflict, participant),
        "surprised": participant.surprised,
        "burning": list(participant.burning),
        "shown": view.shows(participant.id),
    }
    if not data["shown"]:
        data["state"] = view.state(participant.id)
        return data
    state = participant.round
    data |= {
        "portrait": portrait,
        "action_dice": state.action_dice,
        "defense_dice": state.defense_dice,
        "next_round_dice": participant.next_round_dice,
        "burdens": len(sheet.burdens) if sheet is not None else 0,
    }
    if participant.is_extra:
        data |= {"members_left": participant.members_left, "size": participant.size}
    elif sheet is not None:
        data["resiliences"] = _resiliences(participant, sheet)
    return data


def conflict_data(
    channel_id: int, shown: Shown, caller: Caller, portraits: Mapping[int, str] | None = None
) -> JSON:
    """One channel's Conflict as the caller may see it: the whole board for a Narrator, the
    public board for a player (``bot.access.visibility_of``)."""
    conflict = shown.conflict
    assert conflict is not None
    view = FULL if caller.narrator else visibility_of(conflict, shown.sheets, shown.revealed)
    now = waiting(conflict)
    up = set(now.participants)
    if conflict.phase in (Phase.GATHER, Phase.DECLARE):
        order = [[p.name] for p in declaration_order(conflict)]
    elif conflict.phase is Phase.RESOLVE:
        order = [[conflict.name_of(pid) for pid in step] for step in resolve_order(conflict)]
    else:
        order = []
    people = sorted(conflict.participants, key=declaration_key)
    pending = conflict.pending
    return {
        "channel": str(channel_id),
        "version": shown.version,
        "round": conflict.round,
        "type": conflict.type.label,
        "stakes": conflict.stakes,
        "phase": PHASES[conflict.phase],
        "step": now.step.value,
        "up": [conflict.name_of(pid) for pid in now.participants],
        "order": order,
        "pending": None
        if pending is None
        else {
            "attacker": conflict.name_of(pending.attacker),
            "target": conflict.name_of(pending.target) if pending.target is not None else None,
            "awaiting": pending.awaiting.value,
            "pool": pending.pool if view.shows(pending.attacker) else None,
        },
        "sides": [
            {
                "label": side.label,
                "participants": [
                    participant_data(
                        conflict, p, shown.sheets.get(p.id), p.id in up, view, (portraits or {}).get(p.id)
                    )
                    for p in people
                    if p.side is side
                ],
            }
            for side in Side
        ],
    }


def sheet_data(stored: StoredCharacter) -> JSON:
    """A whole sheet; only ever built for a caller who may read it (:func:`page_data`)."""
    c = stored.character
    return {
        "id": stored.id,
        "name": c.name,
        "kind": c.kind.value,
        "kind_label": c.kind.label,
        "owner": str(c.owner_id),
        "revealed": stored.revealed,
        "concept": c.concept,
        "attributes": [{"name": a.label, "rating": c.attributes.get(a)} for a in Attribute],
        "standings": [
            {"name": s.label, "rating": c.standings.get(s), "left": standing_available(c, s)}
            for s in Standing
        ],
        "resiliences": []
        if c.is_extra
        else [
            {"name": r.label, "current": resilience_current(c, r), "max": resilience_max(c, r)}
            for r in Resilience
        ],
        "members": {"left": c.members_left, "size": c.size} if c.is_extra else None,
        "burdens": [{"name": b.name, "severity": b.severity.label} for b in c.burdens],
        "powers": [{"name": p.full_label, "rating": p.rating, "stunts": list(p.stunts)} for p in c.powers],
        "traits": [t for t in (c.traits.drive, c.traits.profession, c.traits.specialty) if t]
        + list(c.traits.extras),
        "props": [p.name for p in c.props],
        "destiny": c.destiny,
        "tragedy": c.tragedy,
        "notes": c.notes,
    }


def listed(caller: Caller, stored: StoredCharacter) -> bool:
    """The page lists sheets the caller controls and may read: all for a Narrator, a player's
    own Heroes (both judged by ``bot.access``, docs/rulings.md §6.9, §7.1)."""
    return caller.controls(stored.character) and caller.can_read(stored.character, stored.revealed)


def takes_part(caller: Caller, shown: Shown) -> bool:
    """Whether one of the caller's own Heroes is in the Conflict ``shown``."""
    conflict = shown.conflict
    assert conflict is not None
    return any(
        (sheet := shown.sheets.get(p.id)) is not None
        and sheet.kind is CharacterKind.HERO
        and caller.owns(sheet)
        for p in conflict.participants
    )


def lists_conflict(caller: Caller, channel_id: int, shown: Shown, asked_from: int | None) -> bool:
    """A Narrator's page lists every Conflict; a player's only those their Heroes are in and
    the one in the channel they asked ``/web`` from: a channel they cannot read stays unseen."""
    return caller.narrator or channel_id == asked_from or takes_part(caller, shown)


def build_page(
    caller: Caller,
    mark: str,
    boards: Sequence[tuple[int, Shown]],
    sheets: Sequence[StoredCharacter],
    tokens: Mapping[int, str] | None = None,
) -> bytes:
    """The page's JSON, encoded: pure work on what was read, run in a thread (:func:`page_data`).
    ``tokens``: each character with a portrait and its token (``storage.portraits``)."""
    portraits = {cid: portrait_path(caller.guild_id, cid, token) for cid, token in (tokens or {}).items()}
    found = {
        "guild": str(caller.guild_id),
        "narrator": caller.narrator,
        "mark": mark,
        "conflicts": [conflict_data(channel_id, shown, caller, portraits) for channel_id, shown in boards],
        "sheets": [sheet_data(s) | {"portrait": portraits.get(s.id)} for s in sheets if listed(caller, s)],
    }
    return json.dumps(found, separators=(",", ":")).encode("utf-8")


async def page_data(storage: Storage, caller: Caller, mark: str, asked_from: int | None = None) -> bytes:
    """Everything the page shows of ``caller``'s server, read fresh from storage, as JSON bytes.

    The reads stay on the event loop; building and encoding (2.6 MB for a Narrator on a server
    of 2,000 sheets) run in a worker thread, so the bot's interactions never wait behind them."""
    boards = []
    for channel_id in await storage.conflicts.channels_in(caller.guild_id):
        found = await stored_board(storage, caller.guild_id, channel_id)
        live = found is not None and found[1].conflict is not None
        if found is not None and live and lists_conflict(caller, channel_id, found[1], asked_from):
            boards.append((channel_id, found[1]))
    owner = None if caller.reads_secret_sheets else caller.user_id
    sheets = await storage.characters.list_by_guild(caller.guild_id, owner)
    tokens = await storage.portraits.tokens(caller.guild_id)
    return await asyncio.to_thread(build_page, caller, mark, boards, sheets, tokens)
