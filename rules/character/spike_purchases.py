"""A Hemalurgic spike bought with Advancements (docs/rulings.md §9.5, §10.1): the last row of the
Powers' cost table (``rules.character.power_purchases``).

A spike is made by the very function the Narrator's ``/power spike`` calls
(``rules.character.power_gifts``), so what it does at the table is read from the same fields: its
Charm and Spirit are charged where the stats are read (``rules.character.power_stats``), never off
the sheet's ratings as well.
"""

from rules.character import limits as lim
from rules.character.hemalurgy import SPIKE_RATING_MIN, SPIKES_MAX, STEALS, Spike, physical_or_mental
from rules.character.model import Character
from rules.character.power_gifts import STAT_SPIKES, leaves_to_ruin, spike_words, with_spike
from rules.character.power_gifts import spike_cost as spike_price
from rules.character.purchase_table import NOT_NOW, Asks, Purchase, PurchaseKind, PurchaseRule, Target, Unlock
from rules.errors import RulesError

SPIKE_METALS = ("Steel", "Bronze", "Pewter", "Brass", "Iron", "Tin", "Copper", "Zinc")
"""The spikes on the menu: the four that steal a Power, then the four that add dice or a stat."""


def _spike_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    """Every spike whose price leaves Charm and Spirit above 0 (§9.5: at 0 the bearer is Ruin's,
    the Narrator's to drive, never a Hero's purchase), while the sheet has room. One that steals
    a Power is offered once for each Power of its kind it may steal: "Steel:Iron"."""
    if len(character.hemalurgy.spikes) >= SPIKES_MAX:
        return []
    found = []
    for spike_metal in SPIKE_METALS:
        if leaves_to_ruin(character, spike_metal):
            continue
        steals = STEALS.get(spike_metal)
        if steals is None:
            found.append(Target(spike_metal, spike_words(spike_metal)))
        else:
            stolen = physical_or_mental(steals[1])
            found += [Target(f"{spike_metal}:{s}", spike_words(f"{spike_metal}:{s}")) for s in stolen]
    return found


def spike_cost(character: Character, purchase: Purchase) -> int:
    """4 for a spike that adds dice or a stat; else twice the spike's rating (§10.1)."""
    return spike_price(purchase.target.partition(":")[0], purchase.rating or SPIKE_RATING_MIN)


def _spike(character: Character, purchase: Purchase) -> Character:
    """The spike, as ``/power spike`` drives it (§9.5): its Power at its rating, or its dice or
    stat; its Charm and Spirit are charged where the stats are read, once."""
    if purchase.target not in {t.value for t in _spike_targets(character, frozenset())}:
        raise RulesError(f"That spike is not on offer. {NOT_NOW}")
    spike_metal, _, stolen = purchase.target.partition(":")
    rating = SPIKE_RATING_MIN if spike_metal in STAT_SPIKES else purchase.rating
    if rating is None or not SPIKE_RATING_MIN <= rating <= lim.POWER_RATING_MAX:
        raise RulesError(
            f"A spike's rating is its victim's less 1: {SPIKE_RATING_MIN} to {lim.POWER_RATING_MAX}."
        )
    spike = Spike(metal=spike_metal, power=stolen or None, rating=rating)
    return with_spike(character, spike)


SPIKE_PURCHASE = PurchaseRule(
    PurchaseKind.SPIKE,
    "Spike",
    "4 or 2 × rating",
    "costs Spirit (and Charm for some); never raised; never to 0",
    _spike_targets,
    spike_cost,
    _spike,
    Asks(rating=(2, lim.POWER_RATING_MAX)),
    power=True,
)
