"""The character sheet as a card: a layout message (docs/rulings.md §5, §6).

One container, its accent the character's kind: a heading section (the name, concept and whose
it is) with the portrait as its thumbnail when there is one, then one text block per part of
the sheet: a kind's three ratings on one short line, each item of a list on its own, so it
reads down a phone's narrow screen as well as a desktop.
It stays within Discord's limits for a layout message, 40 components and 4,000 characters of
text in all: the card is 25 components at most, and its text is shaved, the longest
first, to one common length so every part stays visible (as the embed's fields were).

What the embed did that the card does not: inline fields side by side (the card puts a kind's
ratings on one line instead), and a footer in smaller type, which is a ``-#`` subtext line here.
In both themes the text is Discord's own colour; only the accent bar is ours.
"""

import io
from collections.abc import Sequence

import discord

from bot.render.cards import SentLayout, container, separator, text, with_thumbnail
from bot.render.common import NEUTRAL, fit, plain, units
from bot.render.metals import metal_lines
from bot.render.portraits import FILE_NAME
from bot.render.sheet import (
    KIND_COLOURS,
    _description,
    _footer,
    _water_level,
    attribute_lines,
    burden_lines,
    power_lines,
    prop_line,
    resilience_lines,
    standing_lines,
    subplot_title,
    trait_lines,
)
from bot.render.sheet_words import MEMBERS
from rules.character import Character
from rules.character.advancement import ledger_line
from rules.character.story import Subplot

TEXT_LIMIT = 4000
"""Discord's cap on the text of all of a layout message's text displays together."""
HEADING_LIMIT = 600
"""The heading's share (the name, concept and owner), cut before the parts are fitted."""


def sheet_parts(character: Character) -> list[tuple[str, list[str]]]:
    """The sheet's parts in reading order, each a title and its lines."""
    parts = [
        ("Attributes", [" · ".join(attribute_lines(character))]),
        ("Standings", [" · ".join(standing_lines(character))]),
        (MEMBERS if character.is_extra else "Resiliences", [" · ".join(resilience_lines(character))]),
    ]
    if traits := trait_lines(character):
        parts.append(("Traits", traits))
    if character.destiny:
        parts.append((subplot_title(character, Subplot.DESTINY), [plain(character.destiny)]))
    if character.tragedy:
        parts.append((subplot_title(character, Subplot.TRAGEDY), [plain(character.tragedy)]))
    if not character.advancements.empty:
        parts.append(("Advancements", [ledger_line(character.advancements)]))
    if character.burdens:
        parts.append(("Burdens", burden_lines(character)))
    if character.powers:
        parts.append(("Powers", power_lines(character)))
        stunts = [f"• {plain(p.name)}: {plain(s)}" for p in character.powers for s in p.stunts]
        if stunts:
            parts.append(("Stunts", stunts))
    if metals := metal_lines(character):
        parts.append(("Metals", metals))
    if character.story.secrets_known:
        parts.append(("Secrets known", [f"• {plain(t)}" for t in character.story.secrets_known]))
    if character.props:
        parts.append(("Props", [prop_line(p.name, p.weapon, p.armour) for p in character.props]))
    if character.notes:
        parts.append(("Notes", plain(character.notes).split("\n")))
    return parts


def fitted(blocks: Sequence[str], budget: int) -> list[str]:
    """``blocks`` shaved, the longest first, to one common length so all fit ``budget`` units."""
    sizes = [units(block) for block in blocks]
    if sum(sizes) <= budget:
        return list(blocks)
    cap = _water_level(sizes, budget)
    return [fit(block, cap) if size > cap else block for block, size in zip(blocks, sizes, strict=True)]


EXTRA_LIMIT = 1500
"""The most text a box below the sheet holds (build advice, what an import left out)."""
Extra = tuple[str, Sequence[str]]
"""A box below the sheet: its title and its lines, already escaped."""


def sheet_card(
    character: Character,
    *,
    portrait: bool = False,
    notes: Sequence[str] = (),
    extras: Sequence[Extra] = (),
) -> SentLayout:
    """The sheet as a layout message, drawn as its JSON as every card is (``bot.render.cards``).
    ``portrait``: the reply attaches the portrait as :data:`~bot.render.portraits.FILE_NAME`,
    shown as the heading's thumbnail. ``notes``: short lines above the card (what was just
    done), ``extras``: boxes below it (build advice, what an import left out), all already
    escaped."""
    title = plain(character.name) + f" — {character.kind.label}"
    heading = fit(f"## {title}\n{_description(character)}", HEADING_LIMIT)
    footer = _footer(character)
    top = [fit(note, 500) for note in notes]
    boxes = [fit(f"**{name}**\n" + "\n".join(lines), EXTRA_LIMIT) for name, lines in extras]
    fixed = sum(units(t) for t in [heading, *top, *boxes]) + (units(footer) + 3 if footer else 0)
    blocks = fitted(
        ["**" + name + "**\n" + "\n".join(lines) for name, lines in sheet_parts(character)],
        TEXT_LIMIT - fixed - 50,
    )
    if portrait:
        description = fit(f"Portrait of {character.name}", 256)
        parts = [with_thumbnail(heading, f"attachment://{FILE_NAME}", description)]
    else:
        parts = [text(heading)]
    parts += [separator(), *(text(block) for block in blocks)]
    if footer:
        parts += [separator(visible=False), text("-# " + footer.replace("\n", "\n-# "))]
    shown = [text(note) for note in top]
    shown.append(container(KIND_COLOURS[character.kind], parts))
    shown += [container(NEUTRAL, [text(box)]) for box in boxes]
    return SentLayout(shown)


def portrait_file(image: bytes) -> discord.File:
    """The portrait attached to a card, as its thumbnail names it."""
    return discord.File(io.BytesIO(image), filename=FILE_NAME, description="Portrait")
