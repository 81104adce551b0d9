"""What each burning metal does besides its own roll (docs/rulings.md §9.3): functions the roll
commands and the Conflict engine call, each answering from the sheet's state.
"""

import re

from pydantic import BaseModel, ConfigDict

from rules.burdens import Severity
from rules.character import Character, PowerType, Resilience
from rules.character.allomancy import HOLD_DICE_MAX, Hold
from rules.character.hemalurgy import Blessing
from rules.character.parts import Burden
from rules.character.power_gifts import make_savant
from rules.character.power_stats import allomantic_rating
from rules.character.stats import find_stat
from rules.character.stunts import BY_KEY, catalogued, working
from rules.errors import RulesError
from rules.naming import name_key
from rules.roll import Reading

__all__ = ["make_savant"]  # the Narrator's /power savant calls it from here; the rule is power_gifts'

TIN_BLAST_DICE = -2
"""A Tineye who fails the Physique roll against a sudden blast loses this on their next pool."""
ALERTS_TARGET = 2
REVEALS_SOURCE = 4
"""Complications on a failed soothing or rioting: 2 alert the target, 4 reveal who did it."""
CROWD_DICE = -2
CROWD_PER_RATING = 20
EMOTIONAL_RANGE = 10
BRONZE_PIERCES_AT = 5
BRONZE_OVER_COPPER = 2
ATIUM_ADVANTAGE = -2
SAVANT_NUDGES = 2
EMOTION_METALS = ("Zinc", "Brass")


def lit_rating(character: Character, name: str) -> int:
    """A metal's rating while it burns (flared +1, impure halved), 0 when it does not burn."""
    if name not in character.allomancy.burning:
        return 0
    return allomantic_rating(character, name, flared=name in character.allomancy.flared)


def tin_sense_dice(character: Character) -> int:
    """Tin adds its rating to sense-based Wits rolls while it burns (§9.3)."""
    return lit_rating(character, "Tin")


def tin_shrugs_off(character: Character) -> bool:
    """Flared Tin: sleep and nausea are shrugged off, and 0 Health costs no dice (§9.3)."""
    return "Tin" in character.allomancy.flared


def pewter_eases(character: Character) -> tuple[str, Severity | None] | None:
    """Flared Pewter carries one physical Burden a step lighter while it is flared (§9.3, our
    ruling): the worst Burden from Health (a wound or the defeat), as (name, what it counts as)."""
    if "Pewter" not in character.allomancy.flared:
        return None
    physical = [b for b in character.burdens if "Health" in b.name or b.name.startswith("Incapacitated")]
    if not physical:
        return None
    worst = max(physical, key=lambda b: b.severity.dice)
    lighter = {Severity.MORTAL: Severity.GRAVE, Severity.GRAVE: Severity.SERIOUS, Severity.SERIOUS: None}
    return worst.name, lighter[worst.severity]


PEWTER_EASED = "Flared Pewter: Burden a step lighter"


def pewter_eased_dice(character: Character, burden: Burden) -> tuple[str, int] | None:
    """What flared Pewter takes off the dice an opponent claims for ``burden`` of ``character``
    (§9.3): the Burden counts a step lighter (a Serious one for nothing), named in the pool;
    None when Pewter does not ease this Burden."""
    eased = pewter_eases(character)
    if eased is None or eased[0] != burden.name:
        return None
    lighter = eased[1]
    return PEWTER_EASED, (lighter.dice if lighter is not None else 0) - burden.severity.dice


def focused_emotion(character: Character, metal: str, label: str) -> list[tuple[str, int]]:
    """Focused Emotion's +1 on a soothing or rioting whose words name the emotion the Stunt names
    ("Focused Emotion: fear", a roll "stir their fear"), *we chose*, as the bot cannot tell an
    emotion otherwise; only while the metal burns, as every catalogued Stunt (§9.7). The one
    rule ``/roll`` and a Conflict's pools share (``rules.powers.rolls.sheet_parts``)."""
    if metal not in EMOTION_METALS or metal not in character.allomancy.burning:
        return []
    words = name_key(label)
    named = any(emotion and name_key(emotion) in words for emotion in _focused_emotions(character, metal))
    return [("Focused Emotion", 1)] if named else []


def _focused_emotions(character: Character, metal: str) -> list[str]:
    """The emotions the sheet's Focused Emotion Stunts on ``metal`` name ("Focused Emotion:
    fear", "Focused Emotion (grief)")."""
    stunt = BY_KEY[name_key("Focused Emotion")]
    found: list[str] = []
    for power in character.powers:
        if power.type is not PowerType.ALLOMANCY or power.name != metal:
            continue
        for text in power.stunts:
            if catalogued(text) == stunt:
                found.append(
                    re.split(r"[:(]", text, maxsplit=1)[-1].strip(" )") if re.search(r"[:(]", text) else ""
                )
    return found


def emotion_hold(metal: str, reading: Reading) -> Hold | None:
    """A successful soothing or rioting holds the emotion: +1 die per Outcome point (at least 1)
    on Charm and Influence rolls against those held (§9.3, our ruling on Outcome 0)."""
    if not reading.success:
        return None
    return Hold(
        metal="Zinc" if metal == "Zinc" else "Brass", dice=min(HOLD_DICE_MAX, max(1, reading.outcome))
    )


def emotion_failure(reading: Reading) -> str:
    """What a failed soothing or rioting's Complications mean (§9.3)."""
    if reading.success:
        return ""
    if reading.complications >= REVEALS_SOURCE:
        return "The target feels it, and knows who is doing it."
    if reading.complications >= ALERTS_TARGET:
        return "The target feels their emotions pushed."
    return ""


class EmotionRoll(BaseModel):
    """What a roll of Zinc or Brass outside a Conflict did (§9.3): the sheet with the emotion held
    (None when nothing is held) and a line for the card."""

    model_config = ConfigDict(frozen=True)

    character: Character | None
    note: str


def emotion_roll(character: Character, stat: str, reading: Reading) -> EmotionRoll | None:
    """A ``/roll`` of the character's own Allomantic Zinc or Brass is a rioting or soothing
    (§9.3): a success while the metal burns holds the emotion (replacing any earlier hold), a
    failure says what its Complications mean. None for any other roll."""
    power = find_stat(character, stat).power
    if power is None or power.type is not PowerType.ALLOMANCY or power.name not in EMOTION_METALS:
        return None
    metal = power.name
    doing = "rioting" if metal == "Zinc" else "soothing"
    if not reading.success:
        meaning = emotion_failure(reading) or "Nobody notices."
        return EmotionRoll(character=None, note=f"The {doing} fails. {meaning}")
    hold = emotion_hold(metal, reading)
    if hold is None or metal not in character.allomancy.burning:
        return EmotionRoll(character=None, note=f"{metal} is not burning: no emotion is held.")
    allomancy = character.allomancy.model_copy(update={"hold": hold})
    done = "rioted" if metal == "Zinc" else "soothed"
    note = (
        f"The {doing} holds: +{hold.dice} dice on Charm and Influence rolls against those {done}, "
        f"while {metal} burns."
    )
    return EmotionRoll(character=character.model_copy(update={"allomancy": allomancy}), note=note)


def hold_dice(character: Character, stat: str) -> tuple[str, int] | None:
    """The dice an emotion held gives a Charm or Influence roll (§9.3)."""
    hold = character.allomancy.hold
    if (
        hold is None
        or stat.lower() not in ("charm", "influence")
        or hold.metal not in character.allomancy.burning
    ):
        return None
    return ("Rioting" if hold.metal == "Zinc" else "Soothing", hold.dice)


def emotion_counter(outcome: int) -> int:
    """Once a Beat, against a Charm or Influence success in range: each Outcome point of the roll
    against its Result costs that character 1 die on their next action (§9.3)."""
    return max(0, outcome)


def emotional_shield(target: Character, metal: str) -> int:
    """Dice off emotional Allomancy aimed at ``target``: their Copper rating while it burns; a
    kandra blessed with Stability is beyond Brass altogether (§9.3, §9.6)."""
    if metal == "Brass" and Blessing.STABILITY in target.hemalurgy.blessings:
        raise RulesError(f"{target.name} is blessed with Stability: Brass cannot touch them.")
    return lit_rating(target, "Copper")


EMOTIONAL_ATTACK = ("Spirit", Resilience.WILLPOWER)
"""Flared Zinc or Brass is a mental attack: the metal against Spirit, on Willpower (§9.3)."""


def bronze_pierces(bronze: int, copper: int) -> bool:
    """Bronze senses through a Copper cloud at 5 or more, and 2 above the Copper (§9.3)."""
    return bronze >= BRONZE_PIERCES_AT and bronze >= copper + BRONZE_OVER_COPPER


def atium_dice(character: Character, electrum: int = 0) -> int:
    """Atium adds its rating to every rolled action while it burns; an opponent's Electrum cuts it
    by its rating (§9.3)."""
    return max(0, lit_rating(character, "Atium") - max(0, electrum))


def atium_advantage(character: Character) -> int:
    """Dice off whoever defends against an Atium burner with Atium Advantage (§9.7)."""
    return ATIUM_ADVANTAGE if working(character, "Atium Advantage") else 0


def burns_atium(character: Character) -> bool:
    """An Atium burner declares after and resolves before those who do not burn it (§9.3)."""
    return "Atium" in character.allomancy.burning


def electrum_defense(character: Character) -> int:
    """Electrum gives its rating in Defense Dice each round while it burns (§9.3)."""
    return lit_rating(character, "Electrum")


def savant_nudges(character: Character, metal: str) -> int:
    """A Savant's 2 free Nudges on the rolls of their metal (§9.3)."""
    return SAVANT_NUDGES if metal in character.allomancy.savants else 0


def savant_sense_dice(character: Character) -> int:
    """A Tin Savant not burning Tin has 1 die fewer on sense rolls (§9.3)."""
    return -1 if "Tin" in character.allomancy.savants and "Tin" not in character.allomancy.burning else 0


SOAKS = {Resilience.HEALTH: "Denser Tissues", Resilience.WILLPOWER: "Iron Will"}
"""The Stunts that take 1 off each hit to a Resilience, per time taken, while their metal burns
(§9.7): Pewter's on physical harm, Copper's on Willpower."""


def stunt_soak(character: Character, resilience: Resilience) -> tuple[str, int] | None:
    """The Stunt that lessens a hit to ``resilience`` now, and by how much; None when none does."""
    name = SOAKS.get(resilience)
    soaked = working(character, name) if name is not None else 0
    return (name, soaked) if name is not None and soaked else None
