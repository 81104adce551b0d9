"""The Narrator's own opposition (docs/rulings.md §10.4): a Villain or Extra saved as a template of
the server, and new characters made from it as from the built-in ones (§6.11).

A template is the character as written, not as the night left it: saving it clears the wear
of play (damage, members down, Standings spent, Burdens) and a subplot's stage, so every
Villain made from it starts whole. Its Powers, Props, Traits, texts and portrait are kept.
"""

from collections.abc import Mapping

from rules.character import Attribute, Character, CharacterKind, Standing, revise_character
from rules.character.advancement import Advancements
from rules.character.model import Harm, Spent
from rules.character.story import Story
from rules.errors import RulesError

TEMPLATES_MAX = 200
"""Templates a server keeps."""
TEMPLATE_OWNER = 0
"""A template belongs to the server, not a member: whoever makes a character from it owns that."""


def as_template(character: Character) -> Character:
    """``character`` as a template: a Villain's or Extra's sheet without the wear of play."""
    if character.kind is CharacterKind.HERO:
        raise RulesError("Templates are for the Narrator's Villains and Extras; a Hero is a player's.")
    return character.model_copy(
        update={
            "owner_id": TEMPLATE_OWNER,
            "damage": Harm(),
            "spent": Spent(),
            "members_down": 0,
            "burdens": (),
            "advancements": Advancements(),
            "story": Story(),
        }
    )


def from_template(
    template: Character,
    *,
    name: str,
    owner_id: int,
    concept: str | None = None,
    size: int | None = None,
    ratings: Mapping[Attribute | Standing, int] | None = None,
) -> Character:
    """A new character from a saved template; ``concept``, ``size`` and ``ratings`` replace the
    template's, as with the built-in templates (§6.11)."""
    chosen = dict(ratings or {})
    attributes = template.attributes
    for attribute in Attribute:
        attributes = attributes.with_value(attribute, chosen.get(attribute, attributes.get(attribute)))
    standings = template.standings
    for standing in Standing:
        standings = standings.with_value(standing, chosen.get(standing, standings.get(standing)))
    return revise_character(
        template,
        name=name,
        owner_id=owner_id,
        concept=template.concept if concept is None else concept,
        size=template.size if size is None else size,
        attributes=attributes,
        standings=standings,
    )
