"""What a sheet's Powers hold in play, in a few lines (docs/rulings.md §9): what burns and is
flared, an emotion held, the reserves, the vials and metalminds carried, what is being stored. One place draws
it for the sheet, the card and every ``/power`` answer."""

from collections.abc import Callable

from bot.render.common import plain
from rules.character import Character
from rules.character.allomancy import PEWTER_HOURS, Vial
from rules.character.feruchemy import Metalmind
from rules.powers.metal_effects import hold_dice
from rules.words import count_of


def burning_line(character: Character) -> str | None:
    """ "Burning: Steel (flared), Pewter", or None when nothing burns."""
    allomancy = character.allomancy
    if not allomancy.burning:
        return None
    shown = [f"{m} (flared)" if m in allomancy.flared else m for m in allomancy.burning]
    return "Burning: " + ", ".join(shown)


def held_emotion(character: Character) -> tuple[str, int] | None:
    """("Rioting", 2): the emotion a Zinc or Brass success holds and its dice on Charm and
    Influence rolls, while the metal burns (docs/rulings.md §9.3)."""
    return hold_dice(character, "charm")


def holding_line(character: Character) -> str | None:
    """ "Holding: Rioting (Zinc), +2 dice on Charm and Influence rolls", or None."""
    held, hold = held_emotion(character), character.allomancy.hold
    if held is None or hold is None:
        return None
    name, dice = held
    return f"Holding: {name} ({hold.metal}), +{count_of(dice, 'die')} on Charm and Influence rolls"


def reserve_line(character: Character) -> str | None:
    """The reserves, when they are counted ("Reserves: Steel 2 · Tin 1 (impure)")."""
    allomancy = character.allomancy
    if not allomancy.tracked:
        return None
    held = [f"{r.metal} {r.charges}" + (" (impure)" if r.impure else "") for r in allomancy.reserves]
    return "Reserves: " + (" · ".join(held) if held else "empty")


def implement_lines(character: Character, escape: Callable[[str], str] = plain) -> list[str]:
    """A line per vial and metalmind carried (``escape``: how a Prop's name is made inert)."""
    lines: list[str] = []
    for prop in character.props:
        implement = prop.implement
        if isinstance(implement, Metalmind):
            mind, cap = f"{implement.metal}mind", implement.size.capacity
            named = "" if prop.name == mind else f"{escape(prop.name)}: "
            lines.append(f"• {named}{mind} {implement.charges}/{cap}")
        elif isinstance(implement, Vial):
            state = " (drunk)" if implement.used else " (impure)" if implement.impure else ""
            lines.append(f"• {escape(prop.name)}: {implement.label}{state}")
    return lines


def storing_line(character: Character) -> str | None:
    feruchemy = character.feruchemy
    parts = [f"{s.metal} {s.rate} an hour" for s in feruchemy.storing]
    if not parts:
        return None
    return "Storing: " + ", ".join(parts)


def drag_line(character: Character) -> str:
    """ "Pewter drag: Physique halved, until 6 h 30 min more of Pewter" (docs/rulings.md §9.3)."""
    hours, minutes = divmod(PEWTER_HOURS - character.allomancy.pewter.rested, 60)
    owed = f"{hours} h" + (f" {minutes} min" if minutes else "")
    return f"Pewter drag: Physique halved, until {owed} more of Pewter"


def metal_lines(character: Character, escape: Callable[[str], str] = plain) -> list[str]:
    """Every line, or none for a sheet with nothing of the kind (``escape``: for Discord, or
    ``str`` for the web page, which escapes as it shows)."""
    lines = [
        burning_line(character),
        holding_line(character),
        reserve_line(character),
        storing_line(character),
    ]
    shown = [line for line in lines if line is not None]
    hemalurgy = character.hemalurgy
    if hemalurgy.spikes:
        shown.append(
            "Spikes: " + ", ".join(s.label + ("" if s.power else f" {s.rating}") for s in hemalurgy.spikes)
        )
    if hemalurgy.blessings:
        shown.append("Blessings: " + ", ".join(b.label for b in hemalurgy.blessings))
    if character.allomancy.savants:
        shown.append("Savant of " + ", ".join(character.allomancy.savants))
    if character.allomancy.pewter.drag:
        shown.append(drag_line(character))
    if character.feruchemy.gold_health:
        shown.append(f"Health tapped from Gold: +{character.feruchemy.gold_health} for the hour")
    return [*shown, *implement_lines(character, escape)]


def metal_section(character: Character) -> list[str]:
    """``metal_lines``, or a line saying there is nothing in play (for a change's answer)."""
    return metal_lines(character) or ["Nothing burning, stored or carried."]
