"""How much player-written text a sheet holds, section by section.

The sections are the embed fields a renderer is expected to use; the caps in
``rules.character.limits`` keep each section within ``SECTION_TEXT_BUDGET`` and the whole
within ``USER_TEXT_BUDGET``. A renderer that escapes markdown can add a backslash per special
character, so it should escape with care or trim with ``text_units`` as a last guard.
"""

from rules.character.limits import text_units
from rules.character.model import Character


def sheet_sections(character: Character) -> dict[str, list[str]]:
    """Every piece of text a player wrote, grouped by the section it is shown in.

    A Stunt is listed with its Power's name, as a renderer shows which Power it belongs to.
    """
    traits = character.traits
    return {
        "title": [character.name],
        "concept": [character.concept],
        "traits": [
            traits.drive,
            traits.profession,
            traits.specialty,
            traits.feature,
            traits.personality,
            *traits.extras,
        ],
        "destiny": [character.destiny],
        "tragedy": [character.tragedy],
        "burdens": [b.name for b in character.burdens],
        "powers": [p.name for p in character.powers],
        "stunts": [f"{p.name}{s}" for p in character.powers for s in p.stunts],
        "props": [p.name for p in character.props],
        "notes": [character.notes],
    }


def section_lengths(character: Character) -> dict[str, int]:
    """Player text per section, in Discord's units."""
    return {name: sum(text_units(t) for t in texts) for name, texts in sheet_sections(character).items()}


def user_text_length(character: Character) -> int:
    """All the player text a rendered sheet shows, a Power's name again beside each Stunt."""
    return sum(section_lengths(character).values())
