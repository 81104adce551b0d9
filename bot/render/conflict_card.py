"""The Conflict board as a card: a layout message (``IS_COMPONENTS_V2``) instead of an embed.

One container whose accent colour tells the phase at a glance; a header (round, kind, stakes,
phase, the order with ▶ on whoever is up, what is in progress, who moves next); per side a
heading and a section (or text display) per participant with the rows the embed board showed
(``conflict_status.participant_line``: the same words and numbers, as far as the
:class:`Visibility` shows them, docs/rulings.md §7.1), a portrait beside them when they have one
(``portraits``: addresses by participant, ``bot.render.portraits.portrait_urls``; like their
numbers, only where the view shows them), the turn's
buttons right under whoever is up, and at the bottom the board's own buttons (Begin round 1,
Narrator view).

Discord allows 40 components and 4000 characters of text in such a message; what gives way
first is decided in ``bot.render.card_plan`` (a 25-participant Conflict always fits), and
names are shortened step by step as the embed board did, before anyone is cut to "…and N more".

Like every card (``bot.render.cards``), the board is drawn as the JSON its message body carries,
key for key as discord.py would serialise the same items (tests/bot/render/test_render_conflict_card.py
holds them equal), and sent as that JSON (``SentLayout``): every move redraws the board, and
building discord.py's items only to have each serialised back was most of its drawing.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.render.card_plan import Entry, Plan, more_line, plan_card
from bot.render.cards import ACTION_ROW, SentLayout, container, text, with_thumbnail
from bot.render.common import fit, plain, units
from bot.render.components import JSON
from bot.render.conflict_status import (
    MARK,
    NAME_LIMITS,
    PHASES,
    PUBLIC_FOOTER,
    STAKES_LIMIT,
    STATUS_FOOTER,
    _health_text,
    _order_line,
    _pending_line,
    participant_line,
    status_word,
)
from bot.render.conflict_words import TITLE_LIMIT, bold, next_step_line
from bot.render.rows import wrap_row
from bot.render.visibility import FULL, Visibility
from rules.character import Character
from rules.conflict import Conflict, EndReason, Participant, Phase, Side, waiting
from rules.conflict.order import declaration_key

Item = discord.ui.Item[Any]
PHASE_ACCENT: dict[Phase, discord.Colour] = {
    Phase.GATHER: discord.Colour.from_rgb(88, 101, 242),
    Phase.DECLARE: discord.Colour.from_rgb(212, 160, 23),
    Phase.RESOLVE: discord.Colour.from_rgb(204, 85, 51),
    Phase.ENDED: discord.Colour.from_rgb(128, 132, 142),
}
"""Gathering blue, declaring gold, acting red, ended grey: each reads on a light and a dark theme."""
HEADER_LIMIT = 1200
"""The header's share of the 4000 characters (its order line names everyone)."""
NOTE_LIMIT = 800
"""A note for the Narrator under the header (ties settled by join order, docs/rulings.md §4.2)."""
ROW_BUTTONS = 5
ENDED_TEXT = "### Conflict over\nThe summary is in the channel above."


@dataclass(frozen=True)
class CardButtons:
    """The buttons the card carries: ``turn`` go right under participant ``up`` (whoever must
    answer now), ``bottom`` under everything (the board's own: Begin round 1, Narrator view)."""

    up: int | None = None
    turn: Sequence[Item] = ()
    bottom: Sequence[Item] = field(default_factory=tuple)


def _grouped(items: Sequence[Item]) -> list[list[Item]]:
    """``items`` as rows: a select alone in its row, buttons five to a row."""
    rows: list[list[Item]] = []
    for item in items:
        alone = isinstance(item, discord.ui.Select)
        last = rows[-1] if rows else None
        if alone or last is None or len(last) >= ROW_BUTTONS or isinstance(last[0], discord.ui.Select):
            rows.append([item])
        else:
            last.append(item)
    return rows


def _item_rows(items: Sequence[Item]) -> list[JSON]:
    """Action rows for ``items`` (see :func:`_grouped`), as the card holds them."""
    return [
        {"type": ACTION_ROW, "components": [item.to_component_dict() for item in row]}
        for row in _grouped(items)
    ]


def _card(phase: Phase, parts: list[JSON]) -> SentLayout:
    """The card: one container, its accent the phase's."""
    return SentLayout([container(PHASE_ACCENT[phase], parts)])


def rows_size(items: Sequence[Item]) -> int:
    """Components ``items`` take in their rows (the rows count too)."""
    return len(_grouped(items)) + len(items)


def compact_line(
    conflict: Conflict,
    participant: Participant,
    sheet: Character | None,
    marked: bool,
    limit: int | None,
    view: Visibility,
) -> str:
    """One short line for a participant the card has no room to show in full: who, their state,
    and their dice and Resiliences if ``view`` shows them (else their plain state)."""
    name = (MARK if marked else "") + bold(participant.name, limit)
    who = f"{name} · {status_word(conflict, participant)}"
    if not view.shows(participant.id):
        return f"{who} · {view.state(participant.id)}"
    state = participant.round
    return f"{who} · AD {state.action_dice} · DD {state.defense_dice} · {_health_text(participant, sheet)}"


def header_text(conflict: Conflict, limit: int | None, view: Visibility) -> str:
    now = waiting(conflict)
    title = fit(f"Conflict — round {conflict.round} · {conflict.type.label}", TITLE_LIMIT)
    phase = f"Phase: {PHASES[conflict.phase]}"
    if conflict.ended is not None:
        phase += " (by the Narrator)" if conflict.ended is EndReason.NARRATOR else " (a side was defeated)"
    lines = [f"### {title}", f"Stakes: {plain(conflict.stakes[:STAKES_LIMIT])}", phase]
    order, pending = _order_line(conflict, now.participants, limit, view), _pending_line(conflict, limit)
    lines += [line for line in (wrap_row(order), pending) if line]  # the attack in progress: a sentence
    lines.append(wrap_row("Next: " + next_step_line(conflict, now, limit, view)))
    return fit("\n".join(lines), HEADER_LIMIT)


def footer_text(conflict: Conflict, view: Visibility) -> str:
    nobody = not conflict.participants and conflict.phase is not Phase.GATHER
    rows = wrap_row(STATUS_FOOTER if view.full else PUBLIC_FOOTER).split("\n")
    legend = "\n".join(f"-# {row}" for row in rows)  # small print, each row
    return ("Nobody yet.\n" if nobody else "") + legend


@dataclass(frozen=True)
class Drawn:
    """A card and the plan it was drawn with (for tests and for choosing the name length)."""

    view: SentLayout
    plan: Plan


@dataclass(frozen=True)
class _Planned:
    """The card's texts at one name length, and the plan they fit (nothing drawn yet)."""

    phase: Phase
    people: list[Participant]
    sides: list[Side]
    headings: dict[Side, str]
    header: str
    footer: str
    note: str
    fulls: list[str]
    compacts: list[str]
    thumbnails: list[str | None]
    up: int | None
    plan: Plan


def _plan(
    conflict: Conflict,
    sheets: Mapping[int, Character],
    view: Visibility,
    buttons: CardButtons,
    portraits: Mapping[int, str],
    limit: int | None,
    note: str,
) -> _Planned:
    now = waiting(conflict).participants
    people = sorted(conflict.participants, key=declaration_key)
    sides = [side for side in Side if any(p.side is side for p in people)]
    headings = {side: f"**{side.label} ({sum(p.side is side for p in people)})**" for side in sides}
    header, footer = header_text(conflict, limit, view), footer_text(conflict, view)
    note = fit(note, NOTE_LIMIT)
    fulls = [participant_line(conflict, p, sheets.get(p.id), p.id in now, limit, view) for p in people]
    compacts = [compact_line(conflict, p, sheets.get(p.id), p.id in now, limit, view) for p in people]
    thumbnails = [portraits.get(p.id) if view.shows(p.id) else None for p in people]  # as the web view
    up = buttons.up if any(p.id == buttons.up for p in people) else None
    turn_size = rows_size(buttons.turn)
    entries = [
        Entry(
            full=units(fulls[i]),
            compact=units(compacts[i]),
            portrait=thumbnails[i] is not None,
            buttons=turn_size if p.id == up else 0,
            side=sides.index(p.side),
        )
        for i, p in enumerate(people)
    ]
    fixed_components = 3 + len(sides) + rows_size(buttons.bottom) + bool(note)  # container, header, footer
    fixed_components += turn_size if up is None else 0
    fixed_text = units(header) + units(footer) + units(note) + sum(units(h) for h in headings.values())
    plan = plan_card(entries, fixed_components=fixed_components, fixed_text=fixed_text)
    return _Planned(
        conflict.phase, people, sides, headings, header, footer, note, fulls, compacts, thumbnails, up, plan
    )


def _build(planned: _Planned, buttons: CardButtons) -> SentLayout:
    """The card of ``planned``, drawn once the name length is chosen."""
    plan, people, up = planned.plan, planned.people, planned.up
    parts = [text(planned.header)]
    if planned.note:
        parts.append(text(planned.note))
    for number, side in enumerate(planned.sides):
        parts.append(text(planned.headings[side]))
        for i, p in enumerate(people):
            if p.side is not side or i not in plan.full:
                continue
            url = planned.thumbnails[i]
            if i in plan.portraits and url is not None:
                parts.append(with_thumbnail(planned.fulls[i], url))
            else:
                parts.append(text(planned.fulls[i]))
            if p.id == up:
                parts += _item_rows(buttons.turn)
        lines = [planned.compacts[i] for i in plan.compact if people[i].side is side]
        if plan.more.get(number):
            lines.append(more_line(plan.more[number]))
        if lines:
            parts.append(text("\n".join(lines)))
    if up is None:
        parts += _item_rows(buttons.turn)
    parts.append(text(planned.footer))
    parts += _item_rows(buttons.bottom)
    # Sent stopped, as every view: a click reaches the cog's DynamicItem by custom id.
    return _card(planned.phase, parts)


def draw_board(
    conflict: Conflict,
    sheets: Mapping[int, Character],
    view: Visibility = FULL,
    buttons: CardButtons | None = None,
    portraits: Mapping[int, str] | None = None,
    note: str = "",
) -> Drawn:
    """The card with the longest names that leaves nobody to "…and N more" (else the shortest).
    ``portraits`` are the participants' portrait addresses by id (none: no thumbnails); ``note``
    is a line under the header. Each name length is planned on the texts' lengths alone; the
    card is drawn once, at the length chosen."""
    portraits = portraits or {}
    buttons = buttons or CardButtons()
    planned = _plan(conflict, sheets, view, buttons, portraits, NAME_LIMITS[0], note)
    for names in NAME_LIMITS[1:]:
        if not planned.plan.more:
            break
        planned = _plan(conflict, sheets, view, buttons, portraits, names, note)
    return Drawn(_build(planned, buttons), planned.plan)


def board_card(
    conflict: Conflict,
    sheets: Mapping[int, Character],
    view: Visibility = FULL,
    buttons: CardButtons | None = None,
    portraits: Mapping[int, str] | None = None,
    note: str = "",
) -> SentLayout:
    """THE status board as a card (see the module): public, or a Narrator's with every number."""
    return draw_board(conflict, sheets, view, buttons, portraits, note).view


def ended_card() -> SentLayout:
    """What a board becomes when its Conflict is over (the summary is posted on its own)."""
    return _card(Phase.ENDED, [text(ENDED_TEXT)])
