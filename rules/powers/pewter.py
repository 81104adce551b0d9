"""Pewter's healing and Pewter drag, counted as the Narrator moves time on (docs/rulings.md §9.3).

The minutes Pewter burns count: each 8 hours of them heal 2 Health, at most once a day (after a
heal, the next needs 8 more hours of Pewter and 24 of time). Pewter drag is the Narrator's to
set, as the bot cannot tell exertion from rest; it halves Physique (``power_stats.halving``) and
lifts once 8 more hours of Pewter have burnt as time moves on, or by the Narrator's hand.
"""

from rules.character import Character, Resilience
from rules.character.allomancy import PEWTER_DAY, PEWTER_HOURS, PewterTime
from rules.character.metals import METAL_FACTS
from rules.character.stats import pewter_rating
from rules.errors import RulesError

PEWTER_HEAL = 2
"""Health a Pewter heal gives back (§9.3)."""


def pewter_minutes(before: Character, after: Character, minutes: int) -> int:
    """Minutes Pewter burnt while ``minutes`` passed: all of them while it still burns, else only
    those its charges paid for before it ran dry."""
    if "Pewter" not in before.allomancy.burning:
        return 0
    if "Pewter" in after.allomancy.burning:
        return minutes
    facts = METAL_FACTS["Pewter"]
    flared = "Pewter" in before.allomancy.flared
    seconds = facts.flared if flared and facts.flared is not None else facts.burn
    spent = before.allomancy.charges("Pewter") - after.allomancy.charges("Pewter")
    return min(minutes, spent * seconds // 60)


def heals_in(clock: PewterTime, minutes: int, burnt: int) -> tuple[int, PewterTime]:
    """How many heals ``minutes`` of time bring, Pewter burning through the first ``burnt`` of
    them, and the count left after: a heal comes when 8 hours of Pewter are counted and a day
    has passed since the last."""
    count, wait, now, heals = clock.burnt, clock.wait, 0, 0
    while True:
        reach = now + PEWTER_HOURS - count
        if count < PEWTER_HOURS and reach > burnt:
            break
        at = max(reach, now + wait)
        if at > minutes:
            break
        heals, now, count, wait = heals + 1, at, 0, PEWTER_DAY
    count = min(PEWTER_HOURS, count + max(0, burnt - now))
    wait = max(0, wait - (minutes - now))
    return heals, clock.model_copy(update={"burnt": count, "wait": wait})


def _lift_drag(clock: PewterTime, burnt: int) -> tuple[PewterTime, bool]:
    if not clock.drag or not burnt:
        return clock, False
    rested = clock.rested + burnt
    if rested >= PEWTER_HOURS:
        return clock.model_copy(update={"drag": False, "rested": 0}), True
    return clock.model_copy(update={"rested": rested}), False


def pewter_time(character: Character, minutes: int, burnt: int) -> tuple[Character, list[str]]:
    """``minutes`` pass, Pewter burning through ``burnt`` of them: its heals and the drag's lifting.
    An Extra tracks no Health, and heals nothing by it."""
    heals, clock = heals_in(character.allomancy.pewter, minutes, burnt)
    clock, lifted = _lift_drag(clock, burnt)
    notes: list[str] = []
    if clock != character.allomancy.pewter:
        allomancy = character.allomancy.model_copy(update={"pewter": clock})
        character = character.model_copy(update={"allomancy": allomancy})
    if heals and not character.is_extra:
        healed = min(character.damage.health, PEWTER_HEAL * heals)
        damage = character.damage.with_value(Resilience.HEALTH, character.damage.health - healed)
        character = character.model_copy(update={"damage": damage})
        notes.append(f"Pewter has burnt its 8 hours: {character.name} heals {healed} Health.")
    if lifted:
        notes.append(f"8 more hours of Pewter: {character.name}'s Pewter drag lifts.")
    return character, notes


def set_drag(character: Character, dragged: bool) -> Character:
    """The Narrator's hand: Pewter drag after 8 hours of exertion on Pewter, halving Physique until
    8 more hours of Pewter burn (a fresh count each time it is set), or lifted (§9.3)."""
    if dragged and not pewter_rating(character):
        raise RulesError(f"{character.name} burns no Pewter: Pewter drag is a Pewterarm's.")
    clock = PewterTime(
        burnt=character.allomancy.pewter.burnt, wait=character.allomancy.pewter.wait, drag=dragged
    )
    return character.model_copy(
        update={"allomancy": character.allomancy.model_copy(update={"pewter": clock})}
    )
