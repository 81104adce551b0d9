"""What a sheet's parts are called, said once for the sheet card and the web view (issue 39).

Plain text, no Markdown: the card escapes the player's text and bolds what it bolds around
these (``bot.render.sheet``); the web view sends them as JSON, shown with ``textContent``
(``bot.web.sheets``). A group of Extras counts its *members* still standing; "Standing" alone
is one of Resources, Influence and Spirit (docs/rulings.md §5).
"""

from rules.character import Burden, Character, Standing, Traits, standing_available

MEMBERS = "Members"
"""The part of an Extras group's sheet that says how many of it still stand."""

TRAIT_SLOTS = (
    ("Drive", "drive"),
    ("Profession", "profession"),
    ("Specialty", "specialty"),
    ("Feature", "feature"),
    ("Personality", "personality"),
)
"""The five named Traits, as the sheet calls them, and their fields."""


def members_standing(left: int, size: int) -> str:
    """How many of a group of Extras still stand: ``3 of 6 standing``."""
    return f"{left} of {size} standing"


def named_traits(traits: Traits) -> list[tuple[str, str]]:
    """Every Trait the sheet has, in the sheet's order: the named ones with their names, then
    the extra ones, named ``""``."""
    named = [(label, getattr(traits, field)) for label, field in TRAIT_SLOTS]
    return [(label, text) for label, text in named if text] + [("", text) for text in traits.extras]


def prop_bonuses(weapon: int | None, armour: int | None) -> str:
    """A Prop's weapon and armour bonuses (``weapon +2, armour 1``), empty when it has none."""
    bonuses = [
        f"weapon +{weapon}" if weapon is not None else "",
        f"armour {armour}" if armour is not None else "",
    ]
    return ", ".join(b for b in bonuses if b)


def burden_weight(burden: Burden) -> str:
    """How heavy a Burden is and what it costs: ``Serious (+2 against)``."""
    return f"{burden.severity.label} (+{burden.severity.dice} against)"


def standing_spent(character: Character, standing: Standing) -> str:
    """What of a Standing is spent this session (``1 spent: 2 left``), empty when none is."""
    spent = character.spent.get(standing)
    return f"{spent} spent: {standing_available(character, standing)} left" if spent else ""
