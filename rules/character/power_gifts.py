"""A Savant, a Blessing and a spike put on a sheet (docs/rulings.md §9.3, §9.5, §9.6, §10.1).

One rule in one place: the Narrator's ``/power savant``, ``/power blessing`` and ``/power spike``
(through ``rules.powers``) and a purchase with Advancements (``rules.character.power_purchases``)
both write them here, on the fields their effects read (``allomancy.savants``,
``hemalurgy.blessings``, ``hemalurgy.spikes``). It lives below ``rules.powers`` so a purchase
can use it without an import cycle. What they then do to the stats is
``rules.character.power_stats``: a spike's Charm and Spirit are taken there, once, when a stat
is read, never off the sheet's ratings.
"""

from rules.character import limits as lim
from rules.character.checked import revise_character
from rules.character.hemalurgy import STEALS, Blessing, Spike
from rules.character.metals import METAL_FACTS
from rules.character.model import Character
from rules.character.names import Attribute, PowerType, Standing
from rules.character.parts import Power
from rules.character.power_stats import allomantic_rating, attribute_value, sheet_burning, standing_value
from rules.errors import RulesError

SAVANT_RATING = 7
"""A Savant's metal is rated this or more (§9.3)."""
STAT_SPIKES = ("Copper", "Iron", "Tin", "Zinc")
"""Spikes that give dice or a stat rather than a Power: 4 Advancements each (§10.1)."""
SPIKE_COST_FLAT = 4
BLESSING_COST = 15


def spike_cost(metal: str, rating: int) -> int:
    """Advancements a spike of ``metal`` at ``rating`` costs: 4 for Copper, Iron, Tin and Zinc,
    else twice its rating (§10.1)."""
    return SPIKE_COST_FLAT if metal in STAT_SPIKES else 2 * rating


def make_savant(character: Character, metal: str, savant: bool = True) -> Character:
    """A Savant of ``metal``, rated 7 or more in play (§9.3), or no longer one."""
    savants = [m for m in character.allomancy.savants if m != metal]
    if savant:
        if allomantic_rating(character, metal) < SAVANT_RATING:
            raise RulesError(f"A Savant of {metal} needs {metal} rated {SAVANT_RATING} or more.")
        savants.append(metal)
    allomancy = character.allomancy.model_copy(update={"savants": tuple(savants)})
    return character.model_copy(update={"allomancy": allomancy})


def set_blessing(character: Character, blessing: Blessing, held: bool) -> Character:
    """Give or take away a kandra's Blessing (§9.6)."""
    blessings = [b for b in character.hemalurgy.blessings if b is not blessing]
    if held:
        blessings.append(blessing)
    hemalurgy = character.hemalurgy.model_copy(update={"blessings": tuple(blessings)})
    return revise_character(character, hemalurgy=hemalurgy)


def with_spike(character: Character, spike: Spike) -> Character:
    """The sheet bearing one more spike (§9.5); its price is read by ``power_stats``. A spike
    that steals a Power the sheet lacks lists it (``from_spike``, at the spike's rating), so it
    takes Stunts as a Power of its own does; one the sheet holds already takes the rating added."""
    hemalurgy = character.hemalurgy.model_copy(update={"spikes": (*character.hemalurgy.spikes, spike)})
    powers = character.powers
    held = {(p.type, p.name) for p in powers}
    room = len(powers) < lim.POWERS_MAX
    if spike.steals and spike.power and (spike.steals, spike.power) not in held and room:
        stolen = Power(type=spike.steals, name=spike.power, rating=spike.rating, from_spike=True)
        powers = (*powers, stolen)
    return revise_character(character, hemalurgy=hemalurgy, powers=powers)


def without_spike(character: Character, index: int) -> Character:
    """The sheet without its ``index``-th spike, and without the Power listed for it when no
    other spike gives that Power (else at the next such spike's rating), its Stunts with it (§9.5)."""
    spikes = character.hemalurgy.spikes
    gone, kept = spikes[index], spikes[:index] + spikes[index + 1 :]
    powers = []
    for power in character.powers:
        if power.from_spike and (power.type, power.name) == (gone.steals, gone.power):
            left = [s for s in kept if s.steals is power.type and s.power == power.name]
            if not left:
                continue
            power = power.model_copy(update={"rating": left[0].rating})
        powers.append(power)
    hemalurgy = character.hemalurgy.model_copy(update={"spikes": kept})
    return revise_character(character, hemalurgy=hemalurgy, powers=tuple(powers))


def left_by_spikes(character: Character) -> dict[str, int]:
    """Charm, Wits and Spirit as Powers leave them, not as spent on rolls (which comes back):
    at 0 the character is Ruin's (§9.5)."""
    burning = sheet_burning(character)
    return {
        "Charm": attribute_value(character, Attribute.CHARM, burning),
        "Wits": attribute_value(character, Attribute.WITS, burning),
        "Spirit": standing_value(character, Standing.SPIRIT),
    }


def leaves_to_ruin(character: Character, metal: str) -> bool:
    """Whether one more spike of ``metal`` would leave its bearer Ruin's (§9.5): its Charm or
    Spirit price takes the last of either. A Hero's own purchase stops short of that (§10.1)."""
    facts, left = METAL_FACTS[metal], left_by_spikes(character)
    return left["Charm"] <= facts.spike_charm or left["Spirit"] <= facts.spike_spirit or left["Wits"] <= 0


def spike_words(target: str) -> str:
    """A spike's target in words: "Steel:Iron" → "Steel spike (Allomantic Iron)", "Tin" → "Tin spike"."""
    spike_metal, _, stolen = target.partition(":")
    steals = STEALS.get(spike_metal)
    if steals is None or not stolen:
        return f"{spike_metal} spike"
    adjective = "Allomantic" if steals[0] is PowerType.ALLOMANCY else "Feruchemical"
    return f"{spike_metal} spike ({adjective} {stolen})"
