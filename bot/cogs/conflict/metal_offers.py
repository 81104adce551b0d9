"""What a turn's prompt offers an Allomancer to burn, flare or drink (docs/rulings.md §9.2).

The buttons build the same engine commands as ``/burn``, ``/burn flare:`` and ``/drink``; this
module only says which to offer, read from the sheet, and how many fit on a message.
"""

from collections.abc import Sequence
from typing import Any, Literal

import discord

from rules.character import Character, PowerType
from rules.character.allomancy import Vial
from rules.character.names import canonical_metal
from rules.errors import RulesError
from rules.powers.burning import require_flarable

MetalVerb = Literal["burn", "flare", "drink"]
Offer = tuple[MetalVerb, str, str]
"""(verb, what: a metal or a vial's place among the Props, the button's label)."""

ROWS, ROW_WIDTH = 5, 5
"""Discord's limit: 5 rows of 5 buttons, a menu filling a row."""


def metal_offers(sheet: Character) -> tuple[Offer, ...]:
    """A vial not yet drunk (each name once), then each Allomantic metal unlit to burn, or lit
    and flarable to flare."""
    offers: list[Offer] = []
    names: set[str] = set()
    for index, prop in enumerate(sheet.props):
        if isinstance(prop.implement, Vial) and not prop.implement.used and prop.name not in names:
            names.add(prop.name)
            offers.append(("drink", str(index), f"Drink {prop.name}"[:80]))
    lit, flared = sheet.allomancy.burning, sheet.allomancy.flared
    for power in sheet.powers:
        metal = canonical_metal(power.name) if power.type is PowerType.ALLOMANCY else None
        if metal is None:
            continue
        if metal not in lit:
            offers.append(("burn", metal, f"Burn {metal}"))
        elif metal not in flared and _flarable(sheet, metal):
            offers.append(("flare", metal, f"Flare {metal}"))
    return tuple(offers)


def _flarable(sheet: Character, metal: str) -> bool:
    try:
        require_flarable(sheet, metal)
    except RulesError:
        return False
    return True


def room(items: Sequence[discord.ui.Item[Any]]) -> int:
    """How many more buttons fit after ``items``, placed as discord.py places them: each in the
    first row with room, a menu alone in its row."""
    rows = [0] * ROWS
    for item in items:
        width = ROW_WIDTH if isinstance(item, discord.ui.Select) else 1
        free = next((r for r in range(ROWS) if rows[r] + width <= ROW_WIDTH), None)
        if free is None:
            return 0
        rows[free] += width
    return sum(ROW_WIDTH - used for used in rows)
