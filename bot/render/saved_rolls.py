"""Saved rolls in words, and the roll panel's card (docs/rulings.md §6.14).

A saved roll reads as ``/roll`` would be typed for it, in one short line a phone shows whole:
"**Sneak:** Physique + 1 Trait − Tool, Difficulty 3". The panel is a card with a button per
saved roll and per Attribute (its rows come from the cog, whose ``DynamicItem``s they are).
"""

from collections.abc import Sequence

from bot.render.cards import INFO, Card, Row, card, line
from bot.render.common import plain
from rules.saved_roll import SavedRoll
from rules.words import count_of
from storage.saved_rolls import StoredRoll


def signed(value: int, what: str) -> str:
    return f"{'+' if value > 0 else '−'} {what}"


def roll_words(roll: SavedRoll) -> str:
    """ "Physique + 1 Trait − Tool + 2, Difficulty 3, as “Quietly”": what it rolls, as typed."""
    parts = [plain(roll.stat)]
    if roll.traits:
        parts.append(signed(roll.traits, count_of(abs(roll.traits), "Trait")))
    if roll.tool:
        parts.append(signed(roll.tool, "Tool"))
    if roll.modifier:
        parts.append(signed(roll.modifier, str(abs(roll.modifier))))
    text = " ".join(parts)
    if roll.difficulty > 1:
        text += f", Difficulty {roll.difficulty}"
    if roll.label:
        text += f", as “{plain(roll.label)}”"
    return text


def roll_lines(rolls: Sequence[StoredRoll]) -> str:
    return "\n".join(line(plain(r.roll.name), roll_words(r.roll)) for r in rolls)


PANEL_HELP = "Tap to roll, with this channel's Circumstances, as `/roll` does."
NONE_YET = "No saved rolls yet: `/rolls save` adds one. The Attributes roll as they are."


def panel_card(name: str, rolls: Sequence[StoredRoll], rows: Sequence[Row], *, secret: bool) -> Card:
    """The roll panel of ``name`` (user text, made inert here): what each button rolls, and the
    buttons. ``secret``: a Narrator's hidden character, whose rolls go to the Narrators only."""
    who = "Only the Narrators" if secret else "Only its player and the Narrators"
    shown = "secret, as `/gmroll`'s: to you and the GM channel" if secret else "in the open"
    return card(
        f"{plain(name)}'s rolls",
        accent=INFO,
        lead=PANEL_HELP,
        blocks=[roll_lines(rolls) or NONE_YET],
        note=f"{who} can roll from these buttons; the rolls are {shown}.\n"
        "`/rolls save` adds a roll; `/rolls panel` posts this panel again with the latest.",
        rows=rows,
    )


def list_card(name: str, rolls: Sequence[StoredRoll], limit: int) -> Card:
    """``/rolls list``: every saved roll of ``name``, and how to use them."""
    return card(
        f"{plain(name)}'s saved rolls",
        accent=INFO,
        lead=f"{count_of(len(rolls), 'saved roll')} of {limit}.",
        blocks=[roll_lines(rolls) or NONE_YET],
        note="Roll one with `/roll saved:<name>`, or tap it on `/rolls panel`.",
    )
