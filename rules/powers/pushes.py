"""Steelpushes and Ironpulls, and deflecting a metal attack (docs/rulings.md §9.3).

Functions the Conflict engine and the roll commands call: the weapon bonus of a pushed object,
the rating each side of a Contest rolls, the price of anchoring, and who may deflect with what.
"""

from pydantic import BaseModel, ConfigDict

from rules.character import Attribute, Character, Resilience
from rules.character.names import Named
from rules.character.power_stats import allomantic_rating
from rules.character.stats import rating_for
from rules.character.stunts import working
from rules.errors import RulesError

PUSHERS = ("Steel", "Iron")
PUSH_VERBS = {"Steel": "push", "Iron": "pull"}
"""What each metal does to a metal object: Steel pushes it, Iron pulls it (§9.3)."""
ANCHOR_HEALTH = 1
"""Health lost anchoring between two very heavy objects (§9.3)."""
IN_BODY_OUTCOME = 5
"""A Contest to push or pull metal inside a body must be won by this Outcome or more."""
REFLECT_NUDGES = 2


class ObjectSize(Named):
    """A loose metal object pushed or pulled as an attack, and the weapon bonus it gives."""

    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def bonus(self) -> int:
        return {"small": 1, "medium": 2, "large": 3}[self.value]

    @property
    def example(self) -> str:
        return {"small": "a coin", "medium": "a spike or a horseshoe", "large": "a door or a lantern post"}[
            self.value
        ]


def pushing_metal(character: Character, name: str) -> str:
    """Steel or Iron, if the character burns it (a push needs it burning, §9.3)."""
    found = name.strip().capitalize()
    if found not in PUSHERS:
        raise RulesError("Only Steel pushes and Iron pulls.")
    if found not in character.allomancy.burning:
        raise RulesError(
            f"{character.name} must be burning {found} to {'push' if found == 'Steel' else 'pull'}."
        )
    return found


class PushAttack(BaseModel):
    """A loose object as an attack: the metal's rating against the target's Physique, and the
    object's weapon bonus (Increased Velocity adds 1); the object is no Tool (§9.3, §9.7)."""

    model_config = ConfigDict(frozen=True)

    metal: str
    rating: int
    weapon: int
    defence: Attribute = Attribute.PHYSIQUE


def push_attack(character: Character, name: str, size: ObjectSize) -> PushAttack:
    found = pushing_metal(character, name)
    flared = found in character.allomancy.flared
    return PushAttack(
        metal=found,
        rating=allomantic_rating(character, found, flared=flared),
        weapon=push_bonus(character, size),
    )


def push_bonus(character: Character, size: ObjectSize) -> int:
    """The damage a pushed object adds: its size's bonus, and Increased Velocity's +1 while its
    metal burns (§9.3, §9.7)."""
    return size.bonus + working(character, "Increased Velocity")


def burning_pusher(character: Character) -> str | None:
    """The metal a push or pull in a Conflict uses: Steel if it burns, else Iron, else None (§9.3)."""
    return next((name for name in PUSHERS if name in character.allomancy.burning), None)


def pusher(character: Character) -> str:
    """The metal a push or pull in a Conflict uses, refusing anyone burning neither (§9.3)."""
    found = burning_pusher(character)
    if found is None:
        raise RulesError(
            f"{character.name} must be burning Steel or Iron to push or pull an object at someone."
        )
    return found


def held_contest_rating(holder: Character) -> tuple[str, int]:
    """What the holder of a pushed or pulled object rolls against it: Physique, or Steel or Iron
    when they burn it (the higher), as an Allomancer holds on with the metal (§9.3)."""
    best = ("Physique", rating_for(holder, "Physique"))
    for name in PUSHERS:
        if name in holder.allomancy.burning:
            rating = allomantic_rating(holder, name, flared=name in holder.allomancy.flared)
            if rating > best[1]:
                best = (name, rating)
    return best


def anchoring(character: Character) -> Character:
    """Anchored between two very heavy objects: 1 Health lost, no wound (§9.3)."""
    damage = character.damage.with_value(Resilience.HEALTH, character.damage.health + ANCHOR_HEALTH)
    return character.model_copy(update={"damage": damage})


def in_body_moves(outcome: int) -> bool:
    """Whether a Contest won with ``outcome`` moves metal inside a body."""
    return outcome >= IN_BODY_OUTCOME


class Deflection(BaseModel):
    """A deflection: the metal defended with and its dice (Improved Redirection adds them with
    Iron), and whether 2 Nudges on a win send the attack back (Reflect Ranged Attack)."""

    model_config = ConfigDict(frozen=True)

    metal: str
    rating: int
    bonus: int
    reflects: bool


def deflection(character: Character) -> Deflection:
    """How ``character`` deflects a metal attack: only a Steel or Iron burner may (§9.3); the
    better of the two, with Improved Redirection's dice when Iron (§9.7)."""
    options = [
        (name, allomantic_rating(character, name, flared=name in character.allomancy.flared))
        for name in PUSHERS
        if name in character.allomancy.burning
    ]
    if not options:
        raise RulesError(f"Only a Steel or Iron burner deflects: {character.name} burns neither.")
    name, rating = max(options, key=lambda option: (option[1], option[0] == "Iron"))
    bonus = working(character, "Improved Redirection") if name == "Iron" else 0
    return Deflection(
        metal=name, rating=rating, bonus=bonus, reflects=bool(working(character, "Reflect Ranged Attack"))
    )
