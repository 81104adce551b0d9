"""The web page's data: the server's live Conflicts and sheets as JSON, as far as the caller may see.

Visibility is decided by ``bot.access`` alone (docs/rulings.md §7.1). A player's page lists
only the Conflicts their own Heroes are in and the one of the channel they asked ``/web`` from
(:func:`lists_conflict`): the view knows no channel permissions, so a Conflict in a channel the
player cannot read, with its stakes, is never shown to them. A Conflict goes through
``visibility_of`` for players (the board's public view: the Narrator's secret Villains and
Extras as a name and a plain state, never a number) and the full view for a Narrator; a sheet
is listed when the caller both controls it and may read it (``Caller.controls`` and
``Caller.can_read``), which is every sheet for a Narrator and a player's own Heroes; the
sheets' JSON is kept from one page to the next (``sheets``).

User text goes out raw inside JSON, never as HTML or Markdown: the page puts it on screen
with ``textContent`` only, so a name like ``<b>Vin</b>`` shows as typed (§7.3). A portrait is
named by its path on this view (``bot.web.portraits``), beside a sheet the caller may read or
a fighter whose numbers they may see.
"""

import gzip
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from bot.access import Caller
from bot.render.conflict import FULL, Visibility
from bot.render.conflict_status import PHASES, status_word
from bot.render.conflict_words import declared
from bot.render.portraits import portrait_path
from bot.secrecy import visibility_of
from bot.web.sheets import SheetPages, members_data
from bot.web.work import WebWork
from bot.workers.board_state import Shown, stored_board
from rules.character import (
    Character,
    CharacterKind,
    Resilience,
    resilience_current,
    resilience_max,
)
from rules.conflict import Conflict, Participant, Phase, declaration_order, resolve_order, waiting
from rules.conflict.order import declaration_key
from rules.conflict.specs import Side
from storage import Storage

JSON = dict[str, Any]


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
    """One fighter; the numbers, what they burn and flare, their Pewter drag (and portrait) only
    where ``view`` shows them, else the plain state alone (docs/rulings.md §7.1, §9.9)."""
    data: JSON = {
        "id": participant.id,
        "name": participant.name,
        "kind": participant.kind.value,
        "up": up,
        "status": status_word(conflict, participant),
        "declared": declared(conflict, participant, conflict.name_of, lambda r: r.label),
        "surprised": participant.surprised,
        "shown": view.shows(participant.id),
    }
    if not data["shown"]:
        data["state"] = view.state(participant.id)
        return data
    state = participant.round
    data |= {
        "portrait": portrait,
        "burning": list(participant.burning),
        "flared": list(participant.flared),
        "drag": sheet is not None and sheet.allomancy.pewter.drag,
        "action_dice": state.action_dice,
        "defense_dice": state.defense_dice,
        "next_round_dice": participant.next_round_dice,
        "burdens": len(sheet.burdens) if sheet is not None else 0,
    }
    if participant.is_extra:
        data["members"] = members_data(participant.members_left, participant.size)
    elif sheet is not None:
        data["resiliences"] = _resiliences(participant, sheet)
    return data


def conflict_data(
    channel_id: int, shown: Shown, caller: Caller, portraits: Mapping[int, str] | None = None
) -> JSON:
    """One channel's Conflict as the caller may see it: the whole board for a Narrator, the
    public board for a player (``bot.secrecy.visibility_of``)."""
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
    sheets: bytes,
    portraits: Mapping[int, str],
) -> bytes:
    """The page's JSON, encoded and gzipped: its Conflicts built here, its sheets' JSON array
    (``sheets``) put in as it is. Pure work on what was read, run on the view's own workers
    (``work``). Gzipped since a page of 2,000 sheets is 2 MB, and writing that to every page's
    socket cost the loop more than building it; zlib lets go of the GIL while it works, and the
    page is kept (``pages``) and sent as it is."""
    found = {
        "guild": str(caller.guild_id),
        "narrator": caller.narrator,
        "mark": mark,
        "conflicts": [conflict_data(channel_id, shown, caller, portraits) for channel_id, shown in boards],
    }
    whole = orjson.dumps(found)[:-1] + b',"sheets":' + sheets + b"}"
    return gzip.compress(whole, compresslevel=1, mtime=0)


async def page_data(
    storage: Storage,
    caller: Caller,
    mark: str,
    asked_from: int | None,
    kept: SheetPages,
    work: WebWork,
) -> bytes:
    """Everything the page shows of ``caller``'s server, as it is saved now, as gzipped JSON.

    The reads stay on the event loop; the sheets are mostly kept from earlier pages and the
    few that changed built on the loop (``sheets``); the Conflicts and the whole are built on
    the view's own workers, so the bot's interactions never wait behind them."""
    boards = []
    for channel_id in await storage.conflicts.channels_in(caller.guild_id):
        found = await stored_board(storage, caller.guild_id, channel_id)
        live = found is not None and found[1].conflict is not None
        if found is not None and live and lists_conflict(caller, channel_id, found[1], asked_from):
            boards.append((channel_id, found[1]))
    tokens = await storage.portraits.tokens(caller.guild_id)
    portraits = {cid: portrait_path(caller.guild_id, cid, token) for cid, token in tokens.items()}
    sheets = await kept.sheets(storage, caller, portraits)
    return await work.run(build_page, caller, mark, boards, sheets, portraits)
