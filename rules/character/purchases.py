"""Spending Advancements (docs/rulings.md §10.1): the one cost table, what a Hero may buy now, and
a purchase applied to the sheet and the ledger together.

The table is the sheet's rows (``rules.character.sheet_purchases``) then the Powers'
(``rules.character.power_purchases``), in the published order. :func:`offers` lists what the
Hero can buy now (a target to pick and enough held); :func:`buy` checks the purchase again on
the sheet as it is and returns the improved sheet with the Advancements spent, or refuses.
"""

from dataclasses import dataclass

from rules.character.advancement import spend
from rules.character.model import Character
from rules.character.names import CharacterKind
from rules.character.power_gifts import spike_words
from rules.character.power_purchases import POWER_PURCHASES, stunt_words
from rules.character.purchase_table import Purchase, PurchaseKind, PurchaseRule, Target, Unlock, listed_at
from rules.character.sheet_purchases import EXTRA, SHEET_PURCHASES
from rules.character.stunts import catalogued
from rules.errors import RulesError

TABLE: dict[PurchaseKind, PurchaseRule] = {rule.kind: rule for rule in (*SHEET_PURCHASES, *POWER_PURCHASES)}
"""Every improvement Advancements buy, in the order a menu lists them."""


@dataclass(frozen=True)
class Offer:
    """A row the Hero can buy from now, with the targets to pick from."""

    rule: PurchaseRule
    targets: tuple[Target, ...]
    cheapest: int


def _cheapest(character: Character, rule: PurchaseRule, targets: list[Target]) -> int:
    low = rule.asks.rating[0] if rule.asks.rating else None
    return min(rule.cost(character, Purchase(kind=rule.kind, target=t.value, rating=low)) for t in targets)


def offers(character: Character, unlocks: frozenset[Unlock] = frozenset()) -> list[Offer]:
    """What ``character`` may buy now: rows with a target to pick that the Advancements held
    pay for. Empty for anyone but a Hero."""
    if character.kind is not CharacterKind.HERO:
        return []
    found = []
    for rule in TABLE.values():
        targets = rule.targets(character, unlocks)
        if targets and (cost := _cheapest(character, rule, targets)) <= character.advancements.held:
            found.append(Offer(rule, tuple(targets), cost))
    return found


def price(character: Character, purchase: Purchase) -> int:
    """What ``purchase`` costs on this sheet."""
    return TABLE[purchase.kind].cost(character, purchase)


def buy(character: Character, purchase: Purchase, unlocks: frozenset[Unlock] = frozenset()) -> Character:
    """The sheet improved by ``purchase`` and its ledger charged, checked again as it is now:
    a Hero's, with a spend open, a target on offer, and enough held."""
    if character.kind is not CharacterKind.HERO:
        raise RulesError("Only a Hero spends Advancements.")
    rule = TABLE[purchase.kind]
    if purchase.target not in {t.value for t in rule.targets(character, unlocks)}:
        raise RulesError(
            f"{describe(character, purchase)} is not on offer for {character.name} now: the sheet "
            "changed, or a limit stops it. Open the spending menu again."
        )
    cost = rule.cost(character, purchase)
    ledger = spend(character.advancements, cost, name=character.name)
    improved = rule.apply(character, purchase)
    return improved.model_copy(update={"advancements": ledger})


def _power_label(character: Character, target: str) -> str:
    index = listed_at(target)
    return character.powers[index].full_label if 0 <= index < len(character.powers) else "a Power"


def _burden_name(character: Character, target: str) -> str:
    index = listed_at(target)
    return character.burdens[index].name if 0 <= index < len(character.burdens) else "a Burden"


def _slot(target: str) -> str:
    return "a Trait" if target.startswith(EXTRA) else f"the {target.capitalize()}"


def _does(text: str) -> str:
    stunt = catalogued(text)
    return f" ({stunt.does})" if stunt is not None else ""


def _spike(purchase: Purchase) -> str:
    """ "a Steel spike (Allomantic Iron) at 5", "an Iron spike" (its rating is no matter, §10.1)."""
    words = spike_words(purchase.target)
    rated = ":" in purchase.target and purchase.rating
    return ("an " if words[0] in "AEIOU" else "a ") + words + (f" at {purchase.rating}" if rated else "")


def describe(character: Character, purchase: Purchase) -> str:
    """The purchase in words, read on the sheet *before* it is made (for the request, the
    journal and the Narrator's approval): "+1 Physique", "the Stunt “Long Range” for Steel"."""
    target, text = purchase.target, purchase.text.strip()
    metal = target.partition(":")[2]
    kind = purchase.kind
    power, burden = _power_label(character, target), _burden_name(character, target)
    words: dict[PurchaseKind, str] = {
        PurchaseKind.CHANGE_TRAIT: f"{_slot(target)} changed to “{text}”",
        PurchaseKind.NEW_TRAIT: f"a new Trait, “{text}”",
        PurchaseKind.ATTRIBUTE: f"+1 {target.capitalize()}",
        PurchaseKind.STANDING: f"+1 {target.capitalize()}",
        PurchaseKind.EASE_MORTAL: f"{burden} eased from Mortal to Grave",
        PurchaseKind.STUNT: f"the Stunt “{stunt_words(text)}”{_does(text)} for {power}",
        PurchaseKind.POWER: f"+1 {power}",
        PurchaseKind.LEARN_METAL: f"{metal} learnt ({target.partition(':')[0].capitalize()})",
        PurchaseKind.SAVANT: f"Savant in {power}",
        PurchaseKind.SNAP_MISTING: f"Snapped: a Misting of {target}",
        PurchaseKind.BLESSING: f"the Blessing of {target}",
        PurchaseKind.KEEPER: "a Keeper: every basic metal",
        PurchaseKind.SNAP_MISTBORN: "Snapped: Mistborn",
        PurchaseKind.SPIKE: f"a {spike_words(target)}"
        + (f" at {purchase.rating}" if purchase.rating else ""),
    }
    return words[kind]
