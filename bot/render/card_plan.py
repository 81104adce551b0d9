"""How much of a Conflict the board card can show within Discord's limits for one message.

A layout message holds at most :data:`MAX_COMPONENTS` components, counted recursively (the
container, each text display, section, thumbnail, action row and button), and at most
:data:`MAX_TEXT` characters of text across its text displays. A Conflict holds up to 25
participants (``rules.conflict.MAX_PARTICIPANTS``), and the one who is up brings up to 14
components of buttons, so not everyone can have a section of their own.

:func:`plan_card` is the one place that decides, from sizes alone:

1. whoever is up is always shown in full, their buttons under them;
2. then the rest in the board's order, each in full (a section with their portrait when there
   is room for it, else a text display) while components and text last;
3. from the first who does not fit, everyone left is a compact line in their side's one text
   display, while text lasts;
4. whoever is left after that is counted in "…and N more" at the end of that display.

Pure: sizes in, indexes out, so it is tested over every participant count and name length.
"""

from collections.abc import Sequence
from dataclasses import dataclass

MAX_COMPONENTS = 40
MAX_TEXT = 4000
SECTION_WITH_PORTRAIT = 3
"""A section, its text display and its thumbnail."""
MORE_RESERVE = len("\n…and 25 more")
"""Text kept for the "…and N more" line of each side."""


@dataclass(frozen=True)
class Entry:
    """One participant's sizes: its full text and compact line (in characters), whether it has a
    portrait, the components of the buttons shown under it (0: not up), and its side."""

    full: int
    compact: int
    portrait: bool = False
    buttons: int = 0
    side: int = 0


@dataclass(frozen=True)
class Plan:
    """Which entries (by index) show in full, which of them with their portrait, which as compact
    lines, and how many are left for "…and N more" (per side, by side number)."""

    full: frozenset[int]
    portraits: frozenset[int]
    compact: tuple[int, ...]
    more: dict[int, int]


def more_line(count: int) -> str:
    return f"…and {count} more"


def plan_card(
    entries: Sequence[Entry],
    *,
    fixed_components: int,
    fixed_text: int,
    max_components: int = MAX_COMPONENTS,
    max_text: int = MAX_TEXT,
) -> Plan:
    """The shape of the card (see the module): ``fixed_components`` and ``fixed_text`` are what
    the card holds besides the participants (container, header, side headings, footer, the
    bottom row of buttons)."""
    sides = sorted({entry.side for entry in entries})
    # One compact display per side may be needed, and room for its "…and N more".
    components = max_components - fixed_components - len(sides)
    text = max_text - fixed_text - MORE_RESERVE * len(sides)
    components -= sum(entry.buttons for entry in entries)
    up = [i for i, entry in enumerate(entries) if entry.buttons]
    order = up + [i for i, entry in enumerate(entries) if not entry.buttons]
    full: set[int] = set()
    portraits: set[int] = set()
    compact: list[int] = []
    more: dict[int, int] = {}
    cutting = False
    for index in order:
        entry = entries[index]
        must = bool(entry.buttons)
        if not cutting and (must or (components >= 1 and entry.full <= text)):
            full.add(index)
            text -= entry.full
            if entry.portrait and components >= SECTION_WITH_PORTRAIT:
                portraits.add(index)
                components -= SECTION_WITH_PORTRAIT
            else:
                components -= 1
            continue
        cutting = True
        if not more.get(entry.side) and entry.compact + 1 <= text:
            compact.append(index)
            text -= entry.compact + 1
        else:
            more[entry.side] = more.get(entry.side, 0) + 1
    return Plan(frozenset(full), frozenset(portraits), tuple(sorted(compact)), more)
