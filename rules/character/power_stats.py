"""How Powers in play move a sheet's numbers (docs/rulings.md §9.3–§9.6).

The sheet keeps the ratings as written; what burns, what is stored, spikes and Blessings shift
them while they last, and every reader of a stat goes through ``rules.character.stats``, which
asks here. ``burning`` is the set of metals burning now: the sheet's own
(``sheet_burning``), or a Conflict's when it says otherwise.

* A spike's price comes off Charm and Spirit (never below 0); a Copper spike adds 1 Wits; the
  Blessings of Potency and Presence add 2 Physique or Wits up to 8 (a higher rating stays).
* An impure reserve halves Physique and that metal's rating, rounding up, until it is burnt
  off (§9.2); Pewter drag halves Physique too, once with impurity (§9.3).
* A Savant who is not burning their metal pays for it: Pewter 1 Physique, Iron, Steel, Gold or
  Electrum 1 Willpower, Zinc or Brass 1 Health (§9.3; Tin's die is a roll's, ``rules.powers``).
* Storing Gold lowers Health by the rate; tapping it lends Health for an hour; each Zinc spike
  adds 2 Willpower and Stability 5 (§9.4–§9.6).
* No Resilience's maximum passes :data:`~rules.character.limits.DAMAGE_MAX`, and no Physique
  passes 20, the largest rating a pool starts from (our ruling).
"""

from collections.abc import Collection

from rules.character.hemalurgy import Blessing
from rules.character.metals import METAL_FACTS
from rules.character.model import Character
from rules.character.names import Attribute, PowerType, Resilience, Standing
from rules.character.parts import Power

BLESSED_MAX = 8
"""Potency and Presence raise a rating to at most this (§9.6)."""
PHYSIQUE_MAX = 20
SAVANT_WILLPOWER = ("Iron", "Steel", "Gold", "Electrum")
SAVANT_HEALTH = ("Zinc", "Brass")
ZINC_SPIKE_WILLPOWER = 2
STABILITY_WILLPOWER = 5


def half_up(value: int) -> int:
    return (value + 1) // 2


def sheet_burning(character: Character) -> frozenset[str]:
    """The metals the sheet says burn."""
    return frozenset(character.allomancy.burning)


def impure(character: Character, metal: str) -> bool:
    """Whether an impure reserve of ``metal`` still holds charges (§9.2)."""
    reserve = character.allomancy.reserve(metal)
    return reserve.impure and reserve.charges > 0


def any_impure(character: Character) -> bool:
    return any(r.impure and r.charges > 0 for r in character.allomancy.reserves)


def halving(character: Character) -> str | None:
    """What halves Physique now, named, or None: impure metal, Pewter drag, or both at once,
    which halve it only once (§9.2, §9.3)."""
    why = [
        w
        for w, on in (
            ("Impure metal", any_impure(character)),
            ("Pewter drag", character.allomancy.pewter.drag),
        )
        if on
    ]
    return " and ".join(why) or None


def _blessed(value: int, blessed: bool) -> int:
    return max(value, min(value + 2, BLESSED_MAX)) if blessed else value


def attribute_value(character: Character, attribute: Attribute, burning: Collection[str]) -> int:
    """An Attribute as Powers leave it, before Pewter's boost (which ``stats`` adds)."""
    value = character.attributes.get(attribute)
    blessings = character.hemalurgy.blessings
    if attribute is Attribute.PHYSIQUE:
        value = _blessed(value, Blessing.POTENCY in blessings)
        if "Pewter" in character.allomancy.savants and "Pewter" not in burning:
            value -= 1
        if halving(character):
            value = half_up(value)
        return max(0, value)
    if attribute is Attribute.WITS:
        value += character.hemalurgy.count("Copper")
        return _blessed(value, Blessing.PRESENCE in blessings)
    return max(0, value - sum(METAL_FACTS[s.metal].spike_charm for s in character.hemalurgy.spikes))


def standing_value(character: Character, standing: Standing) -> int:
    """A Standing as written, less what spikes cost of Spirit (never below 0)."""
    value = character.standings.get(standing)
    if standing is Standing.SPIRIT:
        value -= sum(METAL_FACTS[s.metal].spike_spirit for s in character.hemalurgy.spikes)
    return max(0, value)


def allomantic_rating(character: Character, metal: str, *, flared: bool = False) -> int:
    """An Allomantic metal's rating in play: the sheet's, plus each spike that stole it (past 10
    the pool makes free Nudges, §1.8), +1 flared, halved while impure (§9.2, §9.5); 0 when the
    character cannot burn it."""
    rating = sum(
        p.rating
        for p in character.powers
        if p.type is PowerType.ALLOMANCY and p.name == metal and not p.from_spike
    )
    rating += sum(
        s.rating for s in character.hemalurgy.spikes if s.steals is PowerType.ALLOMANCY and s.power == metal
    )
    if not rating:
        return 0
    if impure(character, metal):
        return half_up(rating)
    return rating + 1 if flared else rating


def resilience_shift(character: Character, resilience: Resilience, burning: Collection[str]) -> int:
    """What Powers add to (or take from) a Resilience's maximum besides the stats behind it."""
    allomancy, feruchemy, hemalurgy = character.allomancy, character.feruchemy, character.hemalurgy
    shift = 0
    if resilience is Resilience.HEALTH:
        shift += feruchemy.gold_health - feruchemy.stored_rate("Gold")
        shift -= sum(1 for m in SAVANT_HEALTH if m in allomancy.savants and m not in burning)
    elif resilience is Resilience.WILLPOWER:
        shift += ZINC_SPIKE_WILLPOWER * hemalurgy.count("Zinc")
        shift += STABILITY_WILLPOWER if Blessing.STABILITY in hemalurgy.blessings else 0
        shift -= sum(1 for m in SAVANT_WILLPOWER if m in allomancy.savants and m not in burning)
    return shift


def stolen(character: Character, kind: PowerType, metal: str) -> list[int]:
    """The ratings of the spikes that stole ``kind`` of ``metal`` (§9.5)."""
    return [s.rating for s in character.hemalurgy.spikes if s.steals is kind and s.power == metal]


def granted(character: Character, power: Power) -> bool:
    """Whether a spike gives ``power`` (listed for it, or not on the sheet at all): then its first
    spike's rating is the rating itself, not added to it (§9.5)."""
    return power.from_spike or power not in character.powers


def sheet_powers(character: Character) -> tuple[Power, ...]:
    """The sheet's Powers, then each Power a spike gives that the sheet lacks, at that spike's
    rating (§9.5): what can be rolled."""
    powers = list(character.powers)
    have = {(p.type, p.name) for p in powers}
    for spike in character.hemalurgy.spikes:
        if spike.steals is None or spike.power is None or (spike.steals, spike.power) in have:
            continue
        have.add((spike.steals, spike.power))
        powers.append(Power(type=spike.steals, name=spike.power, rating=spike.rating))
    return tuple(powers)


Part = tuple[str, int]


def physique_parts(character: Character, burning: Collection[str]) -> list[Part]:
    """What Powers add to or take from Physique before Pewter, each named (§9.3–§9.6)."""
    parts: list[Part] = []
    value = character.attributes.physique
    if Blessing.POTENCY in character.hemalurgy.blessings and (gain := _blessed(value, True) - value):
        parts.append(("Potency", gain))
        value += gain
    if "Pewter" in character.allomancy.savants and "Pewter" not in burning:
        parts.append(("Pewter Savant, not burning", -1))
        value -= 1
    if (halved := halving(character)) and value > 0:
        parts.append((halved, half_up(value) - value))
    return parts


def wits_parts(character: Character) -> list[Part]:
    parts: list[Part] = []
    value = character.attributes.wits
    if copper := character.hemalurgy.count("Copper"):
        parts.append(("Copper spike" if copper == 1 else "Copper spikes", copper))
        value += copper
    if Blessing.PRESENCE in character.hemalurgy.blessings and (gain := _blessed(value, True) - value):
        parts.append(("Presence", gain))
    return parts


def spike_price(character: Character, stat: Attribute | Standing, value: int) -> list[Part]:
    """What spikes cost of Charm or Spirit on a roll, never below 0."""
    if stat is Attribute.CHARM:
        price = sum(METAL_FACTS[s.metal].spike_charm for s in character.hemalurgy.spikes)
    elif stat is Standing.SPIRIT:
        price = sum(METAL_FACTS[s.metal].spike_spirit for s in character.hemalurgy.spikes)
    else:
        return []
    price = min(price, value)
    return [("Spikes", -price)] if price else []


def power_parts(character: Character, power: Power, granted: bool) -> list[Part]:
    """A Power's rating in play beyond the sheet's: each spike that stole it (the first is the
    rating itself when only a spike gives it), +1 flared, halved while impure (§9.2, §9.5)."""
    spikes = stolen(character, power.type, power.name)
    parts: list[Part] = [(f"{power.name} spike", r) for r in (spikes[1:] if granted else spikes)]
    if power.type is not PowerType.ALLOMANCY:
        return parts
    total = power.rating + sum(d for _, d in parts)
    if impure(character, power.name):
        parts.append(("Impure", half_up(total) - total))
    elif power.name in character.allomancy.flared:
        parts.append(("Flared", 1))
    return parts
