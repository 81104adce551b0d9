"""The cost table's rows for the sheet itself (docs/rulings.md §10.1): a Trait changed or added,
+1 to an Attribute or a Standing, a Mortal Burden eased to Grave.

Each row offers only what may be bought now (an Attribute below 6, a Standing below 10, a
Mortal Burden held) and checks again when it is applied, since the sheet may have changed
between the menu and the purchase.
"""

from rules.burdens import Severity
from rules.character import limits as lim
from rules.character.checked import revise_character
from rules.character.model import Character
from rules.character.names import Attribute, Standing
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
from rules.errors import RulesError
from rules.naming import name_key

HERO_ATTRIBUTE_MAX = 6
"""An Attribute a Hero raises with Advancements goes no higher (§10.1)."""
STANDING_TOP = lim.STANDING_MAX
EXTRA = "extra"
"""The target of a new extra Trait (the named slots are targets of their own)."""
TRAIT_SLOTS = tuple(
    (field.capitalize(), field) for field in ("drive", "profession", "specialty", "feature", "personality")
)
"""The five named Traits: a changed one keeps its kind (its slot)."""


def _trait_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    traits = character.traits
    found = [Target(field, f"{label}: {getattr(traits, field)}") for label, field in TRAIT_SLOTS]
    found = [t for t in found if getattr(traits, t.value)]
    found += [Target(f"{EXTRA}{i}", f"Trait: {text}") for i, text in enumerate(traits.extras)]
    return found


def _change_trait(character: Character, purchase: Purchase) -> Character:
    text = purchase.text.strip()
    if not text:
        raise RulesError("Write the Trait's new words.")
    traits = character.traits
    slots = {field for _, field in TRAIT_SLOTS}
    if purchase.target in slots and getattr(traits, purchase.target):
        if name_key(getattr(traits, purchase.target)) == name_key(text):
            raise RulesError("That is the Trait as it is: write its new words.")
        return revise_character(character, traits=traits.model_copy(update={purchase.target: text}))
    index = _extra_index(purchase.target, len(traits.extras))
    extras = list(traits.extras)
    extras[index] = text
    return revise_character(character, traits=traits.model_copy(update={"extras": tuple(extras)}))


def _extra_index(target: str, count: int) -> int:
    index = listed_at(target.removeprefix(EXTRA))
    if not target.startswith(EXTRA) or not 0 <= index < count:
        raise RulesError(NOT_NOW)
    return index


def _new_trait_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    traits = character.traits
    found = [Target(field, f"{label} (empty)") for label, field in TRAIT_SLOTS if not getattr(traits, field)]
    if len(traits.extras) < lim.EXTRA_TRAITS_MAX:
        found.append(Target(EXTRA, "Another Trait"))
    return found


def _new_trait(character: Character, purchase: Purchase) -> Character:
    text = purchase.text.strip()
    if not text:
        raise RulesError("Write the new Trait.")
    traits = character.traits
    if purchase.target == EXTRA and len(traits.extras) < lim.EXTRA_TRAITS_MAX:
        return revise_character(
            character, traits=traits.model_copy(update={"extras": (*traits.extras, text)})
        )
    slots = {field for _, field in TRAIT_SLOTS}
    if purchase.target in slots and not getattr(traits, purchase.target):
        return revise_character(character, traits=traits.model_copy(update={purchase.target: text}))
    raise RulesError(NOT_NOW)


def _attribute_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return [
        Target(a.value, f"{a.label} {character.attributes.get(a)} → {character.attributes.get(a) + 1}")
        for a in Attribute
        if character.attributes.get(a) < HERO_ATTRIBUTE_MAX
    ]


def _raise_attribute(character: Character, purchase: Purchase) -> Character:
    attribute = next((a for a in Attribute if a.value == purchase.target), None)
    if attribute is None or character.attributes.get(attribute) >= HERO_ATTRIBUTE_MAX:
        raise RulesError(f"An Attribute goes up to {HERO_ATTRIBUTE_MAX} with Advancements. {NOT_NOW}")
    rating = character.attributes.get(attribute) + 1
    return revise_character(character, attributes=character.attributes.with_value(attribute, rating))


def _standing_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return [
        Target(s.value, f"{s.label} {character.standings.get(s)} → {character.standings.get(s) + 1}")
        for s in Standing
        if character.standings.get(s) < STANDING_TOP
    ]


def _raise_standing(character: Character, purchase: Purchase) -> Character:
    standing = next((s for s in Standing if s.value == purchase.target), None)
    if standing is None or character.standings.get(standing) >= STANDING_TOP:
        raise RulesError(f"A Standing goes up to {STANDING_TOP}. {NOT_NOW}")
    rating = character.standings.get(standing) + 1
    return revise_character(character, standings=character.standings.with_value(standing, rating))


def _mortal_targets(character: Character, unlocks: frozenset[Unlock]) -> list[Target]:
    return [
        Target(str(i), f"{b.name} (Mortal → Grave)")
        for i, b in enumerate(character.burdens)
        if b.severity is Severity.MORTAL
    ]


def _ease_mortal(character: Character, purchase: Purchase) -> Character:
    index = listed_at(purchase.target)
    if not 0 <= index < len(character.burdens) or character.burdens[index].severity is not Severity.MORTAL:
        raise RulesError(f"No Mortal Burden there to ease. {NOT_NOW}")
    burdens = list(character.burdens)
    burdens[index] = burdens[index].model_copy(update={"severity": Severity.GRAVE})
    return character.model_copy(update={"burdens": tuple(burdens)})


SHEET_PURCHASES = (
    PurchaseRule(
        PurchaseKind.CHANGE_TRAIT,
        "Change a Trait",
        "2",
        "a Drive stays a Drive",
        _trait_targets,
        fixed(2),
        _change_trait,
        Asks(text="The Trait's new words"),
    ),
    PurchaseRule(
        PurchaseKind.NEW_TRAIT,
        "New Trait",
        "4",
        f"at most {lim.EXTRA_TRAITS_MAX} besides the five",
        _new_trait_targets,
        fixed(4),
        _new_trait,
        Asks(text="The new Trait"),
    ),
    PurchaseRule(
        PurchaseKind.ATTRIBUTE,
        "+1 Attribute",
        "5",
        f"up to {HERO_ATTRIBUTE_MAX}",
        _attribute_targets,
        fixed(5),
        _raise_attribute,
    ),
    PurchaseRule(
        PurchaseKind.STANDING,
        "+1 Standing",
        "5",
        f"up to {STANDING_TOP}",
        _standing_targets,
        fixed(5),
        _raise_standing,
    ),
    PurchaseRule(
        PurchaseKind.EASE_MORTAL,
        "Ease a Mortal Burden to Grave",
        "6",
        "a Mortal Burden held",
        _mortal_targets,
        fixed(6),
        _ease_mortal,
    ),
)
