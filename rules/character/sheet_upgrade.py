"""Sheets stored before Savants, Blessings and spikes had fields of their own, brought up to date
(docs/rulings.md §9.5, §10.1): the step from sheet format 1 to 2 (``storage.sheet_format``).

An earlier purchase with Advancements wrote these as words: a Savant as the Stunt "Savant" on the
Misting's metal, a Blessing as the Stunt "Blessing of Potency" on Mimicry, a spike as a Hemalurgy
Power named "Iron spike", its Charm and Spirit taken off the sheet's ratings there and then. Words
that name one thing are moved to the fields the table reads (``allomancy.savants``,
``hemalurgy.blessings``, ``hemalurgy.spikes``); anything else stays as it was, for the Narrator:

* a Savant: the Stunt "Savant" (or "Tin Savant", "Savant of Tin") on an Allomantic Power of that
  metal. It then works as one bought today does: its free Nudges, and its price while the metal
  does not burn, which the words never charged.
* a Blessing: the Stunt "Blessing of Potency" (or "Potency Blessing") on a kandra's Power.
* a spike: a Hemalurgy Power named "Iron spike", "Tin spike", "Copper spike" or "Zinc spike",
  with no Stunts and a spike's rating. Its price goes back to the ratings as it becomes a spike,
  since the stats take a spike's price where they are read (``rules.character.power_stats``):
  every figure the table reads stays the same, and the spike's dice or Wits now count. One whose
  price the ratings cannot take back (Charm or Spirit already at 10) stays as words, and so does
  a "Steel spike" (or Bronze, Pewter, Brass): its words do not say which Power it stole.

A spike already in its field that stole a Power the sheet lacks gets that Power listed, as one
driven today does (``rules.character.power_gifts.with_spike``), so it may take Stunts.

Like ``rules.conflict.upgrade``, the step works on the plain JSON and leaves alone anything it
does not recognise, so a damaged document still fails validation with the usual message.
"""

import copy
import re
from typing import Any

from rules.character import limits as lim
from rules.character.hemalurgy import SPIKE_RATING_MAX, SPIKE_RATING_MIN, SPIKES_MAX, STEALS, Blessing, Spike
from rules.character.metals import METAL_FACTS
from rules.character.names import PowerType, canonical_metal
from rules.character.power_gifts import STAT_SPIKES
from rules.naming import name_key

Data = dict[str, Any]

_SPIKE = re.compile(r"^(?P<metal>\w+) spike$", re.IGNORECASE)


def _dict(value: object) -> Data:
    return value if isinstance(value, dict) else {}


def is_savant_words(stunt: object, metal: str) -> bool:
    """Whether a Stunt's words name a Savant of ``metal``, the Power it is written on."""
    return isinstance(stunt, str) and name_key(stunt) in {
        name_key(w) for w in ("Savant", f"{metal} Savant", f"Savant of {metal}")
    }


def blessing_in_words(stunt: object) -> Blessing | None:
    """The Blessing a Stunt's words name, if they name one."""
    if not isinstance(stunt, str):
        return None
    key = name_key(stunt)
    return next(
        (b for b in Blessing if key in {name_key(f"Blessing of {b.label}"), name_key(f"{b.label} Blessing")}),
        None,
    )


def spike_in_words(power: Data) -> Spike | None:
    """The spike a Hemalurgy Power's name and rating describe, if they describe exactly one."""
    name, rating = power.get("name"), power.get("rating")
    if power.get("stunts") or not isinstance(name, str) or type(rating) is not int:
        return None
    found = _SPIKE.match(" ".join(name.split()))
    if found is None or not SPIKE_RATING_MIN <= rating <= SPIKE_RATING_MAX:
        return None
    metal = canonical_metal(found["metal"])
    if metal not in STAT_SPIKES:
        return None
    return Spike(metal=metal, rating=rating)


def _give_back(data: Data, spike: Spike) -> bool:
    """Give the spike's Charm and Spirit back to the ratings; False (nothing changed) when they
    cannot take it."""
    facts = METAL_FACTS[spike.metal]
    attributes, standings = _dict(data.get("attributes")), _dict(data.get("standings"))
    charm, spirit = attributes.get("charm", 2), standings.get("spirit", 2)
    if type(charm) is not int or type(spirit) is not int:
        return False
    if charm + facts.spike_charm > lim.ATTRIBUTE_MAX or spirit + facts.spike_spirit > lim.STANDING_MAX:
        return False
    data["attributes"] = attributes | {"charm": charm + facts.spike_charm}
    data["standings"] = standings | {"spirit": spirit + facts.spike_spirit}
    return True


def _listed_for(powers: list[object], spikes: list[object]) -> list[Data]:
    """The Powers stolen by ``spikes`` that ``powers`` lack, listed at their first spike's rating."""
    held = {(p.get("type"), p.get("name")) for p in powers if isinstance(p, dict)}
    listed: list[Data] = []
    for spike in spikes:
        entry = _dict(spike)
        steals, stolen = STEALS.get(str(entry.get("metal"))), entry.get("power")
        if steals is None or not isinstance(stolen, str) or (steals[0].value, stolen) in held:
            continue
        if len(powers) + len(listed) >= lim.POWERS_MAX:
            break
        held.add((steals[0].value, stolen))
        rating = entry.get("rating", SPIKE_RATING_MIN)
        listed.append({"type": steals[0].value, "name": stolen, "rating": rating, "from_spike": True})
    return listed


def structured_gifts(document: Data) -> Data:
    """A format-1 sheet as format 2: its Savants, Blessings and spikes in words moved to their
    fields where the words are unambiguous (see the module)."""
    data = copy.deepcopy(document)
    powers = data.get("powers")
    if not isinstance(powers, list):
        return data
    allomancy, hemalurgy = _dict(data.get("allomancy")), _dict(data.get("hemalurgy"))
    savants = list(allomancy.get("savants", []))
    blessings = list(hemalurgy.get("blessings", []))
    spikes = list(hemalurgy.get("spikes", []))
    kept: list[object] = []
    for power in powers:
        entry = _dict(power)
        kind, name, stunts = entry.get("type"), entry.get("name"), entry.get("stunts", [])
        if kind == PowerType.HEMALURGY.value and len(spikes) < SPIKES_MAX:
            spike = spike_in_words(entry)
            if spike is not None and _give_back(data, spike):
                spikes.append(spike.model_dump(mode="json"))
                continue
        if isinstance(stunts, list) and kind == PowerType.ALLOMANCY.value and isinstance(name, str):
            if any(is_savant_words(s, name) for s in stunts):
                savants += [] if name in savants else [name]
                entry = entry | {"stunts": [s for s in stunts if not is_savant_words(s, name)]}
        elif isinstance(stunts, list) and kind == PowerType.KANDRA.value:
            named = [(s, blessing_in_words(s)) for s in stunts]
            for _, blessing in named:
                blessings += [] if blessing is None or blessing.value in blessings else [blessing.value]
            entry = entry | {"stunts": [s for s, b in named if b is None]}
        kept.append(entry if isinstance(power, dict) else power)
    data["powers"] = kept + _listed_for(kept, spikes)
    data["allomancy"] = allomancy | {"savants": savants}
    data["hemalurgy"] = hemalurgy | {"blessings": blessings, "spikes": spikes}
    return data
