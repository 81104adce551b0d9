"""The cost table's rows for Powers (docs/rulings.md §10.1, §7 of the published game): a Stunt,
+1 to a Power, a metal a rules Secret unlocked, Savant, a Snap, a Blessing, Keeper, and last a
spike (``rules.character.spike_purchases``).

A Stunt bought is written as the catalogue (``rules.character.stunts``, §9.7) names it, so a
catalogued one changes the rolls where it bites as one written by ``/edit stunt-add`` does. A
Savant and a Blessing are made by the very functions the Narrator's ``/power savant`` and
``/power blessing`` call (``rules.character.power_gifts``), so what they do at the table is read
from the same fields (§9.3, §9.6).
"""

from rules.character import limits as lim
from rules.character.checked import revise_character
from rules.character.hemalurgy import (
    Blessing,
)
from rules.character.model import Character
from rules.character.names import BASIC_METALS, METALS, PowerType
from rules.character.parts import Power
from rules.character.power_gifts import (
    BLESSING_COST,
    SAVANT_RATING,
    make_savant,
    set_blessing,
)
from rules.character.power_stats import allomantic_rating, sheet_powers
from rules.character.purchase_table import (
    NOT_NOW,
    Asks,
    Purchase,
    PurchaseKind,
    PurchaseRule,
    Target,
    Unlock,
    fixed,
    listed_at,
)
from rules.character.spike_purchases import SPIKE_PURCHASE
from rules.character.stunts import Stunt, catalogued, check_stunt, stunts_for
from rules.errors import RulesError
from rules.naming import name_key

SAVANT = "Savant"
"""A Savant as earlier versions wrote it, a Stunt on the metal: still counted as held."""
BLESSINGS = tuple(b.label for b in Blessing)
MISTING_METALS = tuple(m for m in METALS if m not in ("Malatium", "Lerasium"))
SNAP_MISTING_RATING = 4
SNAP_MISTBORN_RATING = 3
KEEPER_RATING = 2
STUNT_TYPES = (PowerType.ALLOMANCY, PowerType.KANDRA, PowerType.HEMALURGY)
"""Allomancers and kandra take Stunts; so does a spike (it grants Allomancy or the like)."""


def _index(character: Character, target: str) -> int:
    index = listed_at(target)
    if not 0 <= index < len(character.powers):
        raise RulesError(NOT_NOW)
    return index


def _with_power(character: Character, index: int, power: Power) -> Character:
    powers = tuple(power if i == index else p for i, p in enumerate(character.powers))
    return revise_character(character, powers=powers)


def _of(character: Character, kind: PowerType) -> list[Power]:
    """The Powers of ``kind`` the Hero holds of their own, not those listed for a spike."""
    return [p for p in character.powers if p.type is kind and not p.from_spike]


def is_mistborn(character: Character) -> bool:
    held = {name_key(p.name) for p in _of(character, PowerType.ALLOMANCY)}
    return all(name_key(m) in held for m in BASIC_METALS)


def is_keeper(character: Character) -> bool:
    held = {name_key(p.name) for p in _of(character, PowerType.FERUCHEMY)}
    return all(name_key(m) in held for m in BASIC_METALS)


def is_terris(character: Character) -> bool:
    """The sheet says the Hero is Terris: in the concept, a Trait or the notes (the bot keeps no
    heritage of its own; our ruling, §10.1)."""
    traits = character.traits
    words = [character.concept, character.notes, traits.drive, traits.profession, traits.specialty]
    words += [traits.feature, traits.personality, *traits.extras]
    return any("terris" in name_key(text) for text in words)


def _stunt_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    room = sum(len(p.stunts) for p in character.powers) < lim.STUNTS_MAX
    return [
        Target(str(i), p.full_label) for i, p in enumerate(character.powers) if p.type in STUNT_TYPES and room
    ]


def stunt_words(text: str) -> str:
    """A bought Stunt as the sheet writes it: a catalogued one named alone in the catalogue's own
    spelling ("prodigious strength" → "Prodigious Strength"), so it is that Stunt (§9.7); any
    other words as typed."""
    words = " ".join(text.split())
    stunt = catalogued(words)
    return stunt.name if stunt is not None and name_key(words) == name_key(stunt.name) else words


def stunt_offers(character: Character, target: str) -> tuple[Stunt, ...]:
    """The catalogue's Stunts the Power ``target`` (its place on the sheet) may still take, for
    the spending menu: its metal's, an Allomantic Power's only, each while it may be taken again."""
    index = listed_at(target)
    if not 0 <= index < len(character.powers):
        return ()
    power = character.powers[index]
    if power.type is not PowerType.ALLOMANCY:
        return ()
    found = []
    for stunt in stunts_for(power.name):
        try:
            check_stunt(power, stunt.name)
        except RulesError:
            continue
        found.append(stunt)
    return tuple(found)


def _stunt(character: Character, purchase: Purchase) -> Character:
    """A Stunt on the Power: a catalogued one only on an Allomantic Power of its metal and as
    often as it may be taken (then the bot applies its numbers, §9.7), other words once each."""
    index = _index(character, purchase.target)
    power = character.powers[index]
    if power.type not in STUNT_TYPES:
        raise RulesError(f"Stunts are for Allomancers and kandra; {power.full_label} takes none.")
    name = stunt_words(purchase.text)
    if not name:
        raise RulesError("Name the Stunt.")
    check_stunt(power, name)
    return _with_power(character, index, power.model_copy(update={"stunts": (*power.stunts, name)}))


def _power_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return [
        Target(str(i), f"{p.full_label} {p.rating} → {p.rating + 1}")
        for i, p in enumerate(character.powers)
        if p.type is not PowerType.HEMALURGY and not p.from_spike and p.rating < lim.POWER_RATING_MAX
    ]


def _raise_power(character: Character, purchase: Purchase) -> Character:
    index = _index(character, purchase.target)
    power = character.powers[index]
    if power.type is PowerType.HEMALURGY or power.from_spike:
        raise RulesError("A spike's rating never rises; its bearer may still learn Stunts for it.")
    if power.rating >= lim.POWER_RATING_MAX:
        raise RulesError(f"{power.full_label} is at {lim.POWER_RATING_MAX}, the highest a Power goes.")
    return _with_power(character, index, power.model_copy(update={"rating": power.rating + 1}))


def _learn_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    held = {(p.type, name_key(p.name)) for p in character.powers}
    able = {PowerType.ALLOMANCY: is_mistborn(character), PowerType.FERUCHEMY: is_keeper(character)}
    return [
        Target(f"{kind.value}:{metal}", f"{metal} ({kind.label})")
        for kind, metal in sorted(unlocks)
        if able.get(kind) and (kind, name_key(metal)) not in held
    ]


def _learn(character: Character, purchase: Purchase) -> Character:
    """The metal at the lowest rating of the Hero's basic metals of its kind: a Mistborn burns
    every metal alike once they know it (our ruling, §10.3)."""
    kind_text, _, metal = purchase.target.partition(":")
    kind = next((k for k in PowerType if k.value == kind_text), None)
    if kind is None or not metal:
        raise RulesError(NOT_NOW)
    basics = [p.rating for p in _of(character, kind) if p.name in BASIC_METALS]
    power = Power(type=kind, name=metal, rating=min(basics) if basics else 1)
    return revise_character(character, powers=(*character.powers, power))


def _savant_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    """A Misting's one metal (a spike's stolen metal counts, §9.5), at 7 or more in play."""
    allomancy = [
        (i, p) for i, p in enumerate(character.powers) if p.type is PowerType.ALLOMANCY and not p.from_spike
    ]
    burned = {p.name for p in sheet_powers(character) if p.type is PowerType.ALLOMANCY}
    if len(allomancy) != 1 or len(burned) != 1:
        return []
    index, power = allomancy[0]
    written = any(name_key(s) == name_key(SAVANT) for s in power.stunts)  # as earlier versions wrote it
    if written or power.name in character.allomancy.savants:
        return []
    if allomantic_rating(character, power.name) < SAVANT_RATING:
        return []
    return [Target(str(index), f"{power.full_label} Savant")]


def _savant(character: Character, purchase: Purchase) -> Character:
    """A Savant of the Misting's metal, as ``/power savant`` makes one (§9.3): its 2 free Nudges
    on the metal's rolls and its price while the metal does not burn."""
    if purchase.target not in {t.value for t in _savant_targets(character, frozenset())}:
        raise RulesError(f"A Savant is a Misting whose metal is at {SAVANT_RATING} or more. {NOT_NOW}")
    return make_savant(character, character.powers[_index(character, purchase.target)].name)


def _snap_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return [] if character.powers else [Target(m, m) for m in MISTING_METALS]


def _snap_misting(character: Character, purchase: Purchase) -> Character:
    if character.powers or purchase.target not in MISTING_METALS:
        raise RulesError(f"Snapping is for a Hero with no Powers. {NOT_NOW}")
    power = Power(type=PowerType.ALLOMANCY, name=purchase.target, rating=SNAP_MISTING_RATING)
    return revise_character(character, powers=(power,))


def _kandra_index(character: Character) -> int | None:
    return next((i for i, p in enumerate(character.powers) if p.type is PowerType.KANDRA), None)


def _blessing_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    index = _kandra_index(character)
    if index is None:
        return []
    written = {name_key(s) for s in character.powers[index].stunts}  # as earlier versions wrote it
    return [
        Target(b.label, f"Blessing of {b.label}")
        for b in Blessing
        if b not in character.hemalurgy.blessings and name_key(f"Blessing of {b.label}") not in written
    ]


def _blessing(character: Character, purchase: Purchase) -> Character:
    """The Blessing, as ``/power blessing`` gives it (§9.6): Potency's Physique and Presence's
    Wits (+2, to 8), Awareness's dice, Stability's Willpower."""
    if _kandra_index(character) is None or purchase.target not in {
        t.value for t in _blessing_targets(character, frozenset())
    }:
        raise RulesError(f"A new Blessing is a kandra's. {NOT_NOW}")
    return set_blessing(character, Blessing(purchase.target.lower()), True)


def _keeper_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    if _of(character, PowerType.FERUCHEMY) or not is_terris(character):
        return []
    return [Target("keeper", f"Keeper: every basic metal at {KEEPER_RATING}")]


def _keeper(character: Character, purchase: Purchase) -> Character:
    if not _keeper_targets(character, frozenset()):
        raise RulesError(f"A Keeper is a Terris Hero without Feruchemy. {NOT_NOW}")
    metals = [Power(type=PowerType.FERUCHEMY, name=m, rating=KEEPER_RATING) for m in BASIC_METALS]
    return revise_character(character, powers=(*character.powers, *metals))


def _mistborn_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return (
        []
        if character.powers
        else [Target("mistborn", f"Mistborn: every basic metal at {SNAP_MISTBORN_RATING}")]
    )


def _snap_mistborn(character: Character, purchase: Purchase) -> Character:
    if character.powers:
        raise RulesError(f"Snapping is for a Hero with no Powers. {NOT_NOW}")
    metals = [Power(type=PowerType.ALLOMANCY, name=m, rating=SNAP_MISTBORN_RATING) for m in BASIC_METALS]
    return revise_character(character, powers=tuple(metals))


POWER_PURCHASES = (
    PurchaseRule(
        PurchaseKind.STUNT,
        "New Stunt",
        "4",
        "Allomancers and kandra; a catalogued Stunt on its metal",
        _stunt_targets,
        fixed(4),
        _stunt,
        Asks(text="The Stunt's name"),
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.POWER,
        "+1 Power",
        "6",
        f"up to {lim.POWER_RATING_MAX}; never a spike",
        _power_targets,
        fixed(6),
        _raise_power,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.LEARN_METAL,
        "Learn a metal a Secret revealed",
        "6",
        "a Mistborn or a Keeper who knows the Secret",
        _learn_targets,
        fixed(6),
        _learn,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.SAVANT,
        "Savant",
        "10",
        f"a Misting's metal at {SAVANT_RATING}+",
        _savant_targets,
        fixed(10),
        _savant,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.SNAP_MISTING,
        "Snap: Misting",
        "10",
        f"no Powers: one metal at {SNAP_MISTING_RATING}",
        _snap_targets,
        fixed(10),
        _snap_misting,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.BLESSING,
        "New Blessing",
        "15",
        "kandra",
        _blessing_targets,
        fixed(BLESSING_COST),
        _blessing,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.KEEPER,
        "Keeper",
        "20",
        f"a Terris Hero: every basic metal at {KEEPER_RATING}",
        _keeper_targets,
        fixed(20),
        _keeper,
        power=True,
    ),
    PurchaseRule(
        PurchaseKind.SNAP_MISTBORN,
        "Snap: Mistborn",
        "20",
        f"no Powers: every basic metal at {SNAP_MISTBORN_RATING}",
        _mistborn_targets,
        fixed(20),
        _snap_mistborn,
        power=True,
    ),
    SPIKE_PURCHASE,
)
