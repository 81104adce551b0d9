"""What a turn's prompt offers an Allomancer to burn, flare, drink, let down or stop
(docs/rulings.md §9.2).

The buttons build the same engine commands as ``/burn``, ``/burn flare:``, ``/drink``,
``/burn flare:false`` and ``/burn burning:false``; this module only says which to offer, read
from the sheet, and how many fit on a message.
"""

from collections.abc import Sequence
from typing import Any, Literal

import discord

from rules.character import Character, PowerType
from rules.character.allomancy import Vial
from rules.character.names import canonical_metal
from rules.errors import RulesError
from rules.powers.burning import require_flarable

MetalVerb = Literal["burn", "flare", "drink", "unflare", "stop"]
METAL_VERBS: dict[str, MetalVerb] = {
    "burn": "burn",
    "flare": "flare",
    "drink": "drink",
    "unflare": "unflare",
    "stop": "stop",
}
"""A button's verb read back from its custom id (``bot.render.buttons.METAL``)."""
Offer = tuple[MetalVerb, str, str]
"""(verb, what: a metal or a vial's place among the Props, the button's label)."""

ROWS, ROW_WIDTH = 5, 5
"""Discord's limit: 5 rows of 5 buttons, a menu filling a row."""


def metal_offers(sheet: Character) -> tuple[Offer, ...]:
    """A vial not yet drunk (each name once), each Allomantic metal unlit to burn, each lit and
    flarable to flare (with the charges left, when counted), then each flared to let down, then
    each lit to stop.

    The order is what gets cut when the message is full (:func:`room`): what changes this
    round's dice comes first, then the flare let down, which saves a charge every round, and
    last the stop, which in a Conflict saves nothing but Atium's (its one charge is paid for the
    whole Conflict, docs/rulings.md §9.2); the rest are typed."""
    offers: list[Offer] = []
    names: set[str] = set()
    for index, prop in enumerate(sheet.props):
        if isinstance(prop.implement, Vial) and not prop.implement.used and prop.name not in names:
            names.add(prop.name)
            offers.append(("drink", str(index), f"Drink {prop.name}"[:80]))
    lit, flared = sheet.allomancy.burning, sheet.allomancy.flared
    metals = dict.fromkeys(
        metal
        for power in sheet.powers
        if power.type is PowerType.ALLOMANCY and (metal := canonical_metal(power.name)) is not None
    )
    for metal in metals:
        if metal not in lit:
            offers.append(("burn", metal, f"Burn {metal}{_left(sheet, metal)}"))
        elif metal not in flared and _flarable(sheet, metal):
            offers.append(("flare", metal, f"Flare {metal}{_left(sheet, metal)}"))
    offers += [("unflare", m, f"Stop flaring {m}") for m in metals if m in lit and m in flared]
    offers += [("stop", m, f"Stop burning {m}") for m in metals if m in lit]
    return tuple(offers)


def _left(sheet: Character, metal: str) -> str:
    """ " (3 left)": the charges a burn or flare draws on, where the reserves are counted, so the
    table sees them without ``/character show``; only a shown character gets the buttons
    (docs/rulings.md §7.1, §9.2)."""
    return f" ({sheet.allomancy.charges(metal)} left)" if sheet.allomancy.tracked else ""


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
