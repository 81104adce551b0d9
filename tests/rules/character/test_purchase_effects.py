"""What a Power bought with Advancements does at the table (docs/rulings.md §10.1, §9.3, §9.5,
§9.6): a Savant, a Blessing and a spike bought are the very ones the Narrator's ``/power``
commands make, so the derived stats and a roll's parts change as they would, and a spike's
Charm and Spirit are charged once, where the stats are read, never off the sheet's ratings."""

from collections.abc import Callable
from typing import Any

import pytest

from rules.character import Character
from rules.character.metals import Task
from rules.character.power_stats import sheet_powers
from rules.character.purchase_table import Purchase, PurchaseKind
from rules.character.purchases import buy
from rules.character.stats import find_stat, rating_for, resilience_max
from rules.powers.rolls import power_roll
from tests.rules.character.test_purchases import KANDRA, hero, power

Probe = Callable[[Character], int]


def rated(name: str) -> Probe:
    """The rating a roll on ``name`` starts from."""
    return lambda c: rating_for(c, name)


def part(name: str, label: str, task: Task | None = None) -> Probe:
    """The dice ``label`` adds to a roll on ``name`` about ``task`` (0 when it adds none)."""
    return lambda c: sum(d for lab, d in power_roll(c, find_stat(c, name), task).modifiers if lab == label)


def nudges(name: str) -> Probe:
    """The free Nudges a success on ``name`` is granted."""
    return lambda c: sum(b.nudges for b in power_roll(c, find_stat(c, name)).boons)


def power_rating(name: str) -> Probe:
    """A Power's rating as the sheet's Powers and its spikes give it (0: none)."""
    return lambda c: sum(p.rating for p in sheet_powers(c) if p.name == name)


def top(resilience: str) -> Probe:
    return lambda c: resilience_max(c, resilience)


def misting(metal: str, rating: int = 7) -> dict[str, Any]:
    return {"powers": [power("allomancy", metal, rating)]}


SAVANT = Purchase(kind=PurchaseKind.SAVANT, target="0")


def blessing(name: str) -> Purchase:
    return Purchase(kind=PurchaseKind.BLESSING, target=name)


def spike(target: str, rating: int | None = None) -> Purchase:
    return Purchase(kind=PurchaseKind.SPIKE, target=target, rating=rating)


@pytest.mark.parametrize(
    ("parts", "purchase", "probe", "before", "after"),
    [
        (misting("Tin"), SAVANT, nudges("Tin"), 0, 2),  # 2 free Nudges on the metal's rolls
        (misting("Tin"), SAVANT, part("Wits", "Tin Savant, not burning", Task.SENSES), 0, -1),
        (misting("Pewter"), SAVANT, rated("Physique"), 3, 2),  # not burning Pewter: 1 Physique
        (misting("Steel"), SAVANT, top("willpower"), 9, 8),  # not burning Steel: 1 Willpower
        ({"powers": KANDRA}, blessing("Potency"), rated("Physique"), 3, 5),
        ({"powers": KANDRA, "attributes": {"physique": 6}}, blessing("Potency"), rated("Physique"), 6, 8),
        ({"powers": KANDRA}, blessing("Presence"), rated("Wits"), 6, 8),
        ({"powers": KANDRA}, blessing("Awareness"), part("Wits", "Awareness", Task.SENSES), 0, 2),
        ({"powers": KANDRA}, blessing("Stability"), top("willpower"), 9, 14),
        ({}, spike("Steel:Iron", 5), power_rating("Iron"), 0, 5),  # the stolen Power at its rating
        ({}, spike("Steel:Iron", 5), rated("Spirit"), 3, 2),  # its 1 Spirit, once
        (misting("Tin"), spike("Steel:Tin", 3), rated("Tin"), 7, 10),  # adds to a metal held
        ({}, spike("Pewter:Pewter", 4), power_rating("Pewter"), 0, 4),  # a Feruchemical one
        ({}, spike("Iron"), part("Physique", "Iron spike", Task.STRENGTH), 0, 2),
        ({}, spike("Iron"), rated("Charm"), 4, 3),
        ({}, spike("Tin"), part("Wits", "Tin spike", Task.SENSES), 0, 2),
        ({}, spike("Copper"), rated("Wits"), 6, 7),
        ({}, spike("Zinc"), top("willpower"), 9, 11),
        ({}, spike("Zinc"), rated("Spirit"), 3, 3),  # Zinc takes Charm, no Spirit
    ],
)
def test_a_bought_power_changes_the_derived_stats_and_the_roll(
    parts: dict[str, Any], purchase: Purchase, probe: Probe, before: int, after: int
) -> None:
    unbought = hero(**parts)
    bought = buy(unbought, purchase)
    assert (probe(unbought), probe(bought)) == (before, after)
    assert (bought.attributes, bought.standings, bought.spent) == (
        unbought.attributes,
        unbought.standings,
        unbought.spent,
    )  # the price is read from the spike, never also taken off the sheet


def test_a_spikes_price_is_charged_once_however_often_it_is_read() -> None:
    one = buy(hero(), spike("Tin"))
    two = buy(one.model_copy(update={"advancements": hero().advancements}), spike("Iron"))
    assert [rating_for(c, "Charm") for c in (one, two)] == [3, 2]
    assert [rating_for(c, "Spirit") for c in (one, two)] == [2, 1]
    assert two.attributes.charm == 4 and two.standings.spirit == 3
