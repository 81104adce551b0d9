"""Conflict rendering: the one module the Conflict cog imports.

* :func:`events_embed` is the reply to one command: a line per event (:func:`event_lines`,
  written in ``conflict_events``) and who moves next (:func:`next_step_line`).
* :func:`status_embed` is the status board kept up to date in the channel,
  :func:`summary_embed` the closing summary and :func:`defence_prompt` the question to the
  target of an attack (all in ``conflict_status``).

Everything here is a pure function of rules data; nothing talks to Discord.
"""

from collections.abc import Sequence

import discord

from bot.render.common import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FAILURE,
    FIELD_VALUE_LIMIT,
    INFO,
    NEUTRAL,
    SUCCESS,
    fit,
    plain,
    units,
)
from bot.render.conflict_events import (
    DEFEAT,
    TITLE_LIMIT,
    bold,
    event_line,
    event_lines,
    next_step_line,
    plural,
)
from bot.render.conflict_status import defence_prompt, status_embed, summary_embed
from bot.render.dice import faces_in_use
from bot.render.sheet import fit_embed
from bot.render.visibility import FULL, Visibility
from rules.conflict import Conflict, Event, Phase, Side, Waiting, waiting
from rules.conflict.events import Resolved

__all__ = [
    "FULL",
    "Visibility",
    "defence_prompt",
    "event_line",
    "event_lines",
    "events_colour",
    "events_embed",
    "next_step_line",
    "status_embed",
    "summary_embed",
]


def events_colour(events: Sequence[Event]) -> discord.Colour:
    kinds = {e.type for e in events}
    if "conflict_ended" in kinds:
        return NEUTRAL
    if "defeated" in kinds:
        return DEFEAT
    if "damage_dealt" in kinds:
        return FAILURE
    if any(isinstance(e, Resolved) and e.success for e in events):
        return SUCCESS
    return INFO


def tail(lines: Sequence[str], limit: int = DESCRIPTION_LIMIT) -> str:
    """The last lines that fit ``limit``, saying how many earlier ones were cut."""
    kept: list[str] = []
    used = 0
    note = units(f"… {len(lines)} earlier lines not shown\n")
    for line in reversed(lines):
        line = fit(line, limit // 2)
        size = units(line) + (1 if kept else 0)
        if used + size + (note if len(kept) + 1 < len(lines) else 0) > limit:
            break
        kept.append(line)
        used += size
    cut = len(lines) - len(kept)
    text = "\n".join(reversed(kept))
    return f"… {plural(cut, 'earlier line')} not shown\n{text}" if cut else text


def about(conflict: Conflict) -> str:
    """What the Conflict is and who is in it: the reply to a move that changed nothing else
    (starting one), so the table reads what began rather than "Nothing changed"."""
    sides = [
        f"{side.label}: " + ", ".join(bold(p.name, 60) for p in conflict.participants if p.side is side)
        for side in Side
        if any(p.side is side for p in conflict.participants)
    ]
    within = "; ".join(sides) if sides else "nobody yet"
    return f"A {conflict.type.value} Conflict. Stakes: {plain(conflict.stakes)}. In it: {within}."


NEXT = "Next"
HIDDEN_TITLE = "The Narrator's move"
HIDDEN_MOVE = "The Narrator made a move the table does not see."
"""A public reply to a move whose every line is a hidden character's (docs/rulings.md §7.1)."""


def events_embed(
    conflict: Conflict,
    events: Sequence[Event],
    *,
    title: str,
    limit: int = EMBED_TOTAL_LIMIT,
    view: Visibility = FULL,
) -> discord.Embed:
    """The reply to one command: what happened, and who moves next, with the numbers ``view``
    may show (a public reply hides the Narrator's secret ones, docs/rulings.md §7.1).

    ``limit`` is this embed's share of the message's 6000 characters, for a reply that also
    carries the closing summary (``summary_embed(..., limit=...)`` takes the rest).
    """
    embed = discord.Embed(title=fit(title, TITLE_LIMIT), colour=events_colour(events))
    if conflict.phase is Phase.ENDED:
        step = "The Conflict has ended."
    else:
        last = events[-1] if events else None
        step = next_step_line(conflict, last if isinstance(last, Waiting) else waiting(conflict), view=view)
    value = fit(step, FIELD_VALUE_LIMIT)
    embed.add_field(name=NEXT, value=value, inline=False)
    head = units(NEXT) + units(value)  # the embed's units but its title and description
    room = min(DESCRIPTION_LIMIT, limit - head - units(embed.title or ""))
    lines = event_lines(conflict, events, view, faces_in_use())
    if not lines and view is not FULL and event_lines(conflict, events, FULL, faces_in_use()):
        # All of it the Narrator's: the title and colour would tell what kind of move it was.
        embed.title, embed.colour, lines = HIDDEN_TITLE, INFO, [HIDDEN_MOVE]
    embed.description = tail(lines, max(room, 1)) or about(conflict)
    if head + units(embed.title or "") + units(embed.description) <= limit:
        return embed  # fit_embed would find nothing to shave: the usual case, counted once
    return fit_embed(embed, limit)
