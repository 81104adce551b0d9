"""Emotional Allomancy and Feruchemical storing as a Conflict figures them (docs/rulings.md
§9.3, §9.4, §9.7): what the Conflict's pools, its declaring order and its defences ask of a
sheet. Pure functions over one sheet (and the target's size), so ``rules.conflict`` calls them
without knowing the metals.

- Flared Zinc or Brass is a mental attack, the metal against Spirit, on Willpower; a group
  larger than the rating is reached only with Affect Crowd, at 2 dice fewer (up to 20 × the
  rating (Focused Emotion, on any soothing or rioting, is ``rules.powers.rolls``').
- Storing Zinc or Bronze costs its rate in the Wits one declares by, which spikes and
  Blessings raise (``declaring_wits``, §9.5, §9.6). (A held emotion's dice and storing Steel's
  Action Dice are ``rules.powers.rolls.sheet_parts``', shared with ``/roll``.)
"""

from rules.character import Attribute, Character, PowerType, Resilience, Standing
from rules.character.stats import find_stat, rating_for
from rules.character.stunts import working
from rules.errors import RulesError
from rules.powers.feruchemy import storing_declare_wits
from rules.powers.hemalurgy import awareness_order
from rules.powers.metal_effects import (
    CROWD_DICE,
    CROWD_PER_RATING,
    EMOTION_METALS,
    emotional_shield,
    lit_rating,
)

Part = tuple[str, int]

EMOTIONAL_DEFENCE = Standing.SPIRIT
EMOTIONAL_RESILIENCE = Resilience.WILLPOWER
"""A flared soothing or rioting is resisted with Spirit and harms Willpower (§9.3)."""


def emotional_metal(character: Character, stat: str) -> str | None:
    """Zinc or Brass when ``stat`` is the character's own Allomantic Zinc or Brass."""
    power = find_stat(character, stat).power
    if power is None or power.type is not PowerType.ALLOMANCY or power.name not in EMOTION_METALS:
        return None
    return power.name


def flared_emotion(character: Character, stat: str) -> str | None:
    """Zinc or Brass when ``stat`` is the character's Allomantic Zinc or Brass and it is flared:
    the roll is then a mental attack (§9.3); None for any other roll."""
    metal = emotional_metal(character, stat)
    return metal if metal is not None and metal in character.allomancy.flared else None


def shield_parts(target: Character, metal: str) -> list[Part]:
    """What a target's Copper takes off emotional Allomancy aimed at them; Brass cannot touch a
    kandra blessed with Stability (§9.3, §9.6)."""
    copper = emotional_shield(target, metal)
    return [("Copper cloud", -copper)] if copper else []


def emotion_attack_parts(character: Character, metal: str, target_size: int) -> list[Part]:
    """What a flared soothing or rioting adds to its dice for its target: Affect Crowd's −2
    against a group larger than the rating; a group past the reach is refused (§9.3, §9.7).
    (Focused Emotion is any soothing's or rioting's, ``rules.powers.rolls.sheet_parts``.)"""
    parts: list[Part] = []
    rating = lit_rating(character, metal)
    if target_size > rating:
        if not working(character, "Affect Crowd"):
            raise RulesError(
                f"{character.name}'s {metal} reaches {rating} people at most; a group of "
                f"{target_size} needs the Affect Crowd Stunt."
            )
        if target_size > CROWD_PER_RATING * rating:
            raise RulesError(
                f"Even with Affect Crowd, {character.name}'s {metal} reaches "
                f"{CROWD_PER_RATING * rating} people at most; the group is {target_size}."
            )
        parts.append(("Affect Crowd", CROWD_DICE))
    return parts


def declaring_wits(character: Character) -> int:
    """The Wits a character declares by, the one place a Conflict reads it: Wits as Powers leave
    it (a Copper spike +1, Presence +2 up to 8, ``rules.character.power_stats``), Awareness +2
    for the order (§9.6), less the rate of storing Zinc or Bronze (§9.4), never below 0. A Zinc
    or Bronze tap for the order is the Conflict's own, added a round later
    (``rules.conflict.quickened``)."""
    wits = rating_for(character, Attribute.WITS.value) + awareness_order(character)
    return max(0, wits - storing_declare_wits(character))
