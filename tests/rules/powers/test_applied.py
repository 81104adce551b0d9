"""Powers the bot applies, each held by a table of RULES §7's numbers: Gold's price, impure metal,
flared Tin, Savants, spikes, Blessings, Gold in a metalmind, Focused Sense and Tug/Push Emotion
(docs/rulings.md §9.2–§9.7)."""

from typing import Any

import pytest

from rules.character import Character, Resilience, make_character
from rules.character.metals import Task
from rules.character.stats import defeat_penalties, find_stat, rating_for, resilience_max
from rules.powers.burning import set_flare, start_burn, stop_burn
from rules.powers.drinking import set_impure
from rules.powers.feruchemy import start_storing, tap, tap_effect
from rules.powers.hemalurgy import figured_rating, spike_dice, spike_rating
from rules.powers.metal_effects import make_savant
from rules.powers.rolls import power_roll
from rules.powers.time import move_time
from tests.rules.powers.sheets import allomancer, keeper, sheet


def _parts(character: Character, stat: str, task: Task | None = None) -> dict[str, int]:
    return dict(power_roll(character, find_stat(character, stat), task).modifiers)


def test_gold_costs_1_willpower_each_time_a_burn_starts() -> None:
    seer = allomancer("Gold")
    lit = start_burn(seer, "Gold").character
    assert lit.damage.willpower == 1
    assert start_burn(lit, "Gold", flared=True).character.damage.willpower == 1  # already burning
    assert set_flare(lit, "Gold", True).character.damage.willpower == 1
    again = start_burn(stop_burn(lit, "Gold").character, "Gold").character
    assert again.damage.willpower == 2
    assert start_burn(allomancer("Tin"), "Tin").character.damage.willpower == 0


@pytest.mark.parametrize(
    ("physique", "rating", "halved_physique", "halved_rating"),
    [(4, 5, 2, 3), (5, 4, 3, 2), (1, 2, 1, 1), (6, 7, 3, 4)],
)
def test_impure_metal_halves_physique_and_its_rating_rounding_up(
    physique: int, rating: int, halved_physique: int, halved_rating: int
) -> None:
    steel = allomancer(
        "Steel",
        rating=rating,
        reserves={"Steel": 2},
        attributes={"physique": physique, "charm": 4, "wits": 5},
    )
    assert (rating_for(steel, "Physique"), rating_for(steel, "Steel")) == (physique, rating)
    tainted = set_impure(steel, "Steel", True)
    assert rating_for(tainted, "Physique") == halved_physique
    assert rating_for(tainted, "Steel") == halved_rating
    lit = start_burn(tainted, "Steel").character
    assert rating_for(lit, "Steel") == halved_rating  # burning does not lift it
    burnt_off = move_time(lit, 40).character
    assert burnt_off.allomancy.charges("Steel") == 0
    assert rating_for(burnt_off, "Physique") == physique  # burnt to 0: pure again


def _knocked_out(character: Character) -> Character:
    damage = character.damage.with_value(Resilience.HEALTH, resilience_max(character, Resilience.HEALTH))
    return character.model_copy(update={"damage": damage})


@pytest.mark.parametrize(
    ("burn", "flare", "dice"),
    [(False, False, [("Defeated (0 Health)", -2)]), (True, False, None), (True, True, [])],
)
def test_flared_tin_at_0_health_costs_no_dice(burn: bool, flare: bool, dice: Any) -> None:
    tineye = allomancer("Tin")
    if burn:
        tineye = start_burn(tineye, "Tin", flared=flare).character
    down = _knocked_out(tineye)
    penalty = defeat_penalties(down, "Wits")
    if dice is None:
        assert [d for _, d in penalty] == [-2]
    else:
        assert [d for _, d in penalty] == [d for _, d in dice]


@pytest.mark.parametrize(
    ("metal", "physique", "willpower", "health", "senses"),
    [
        ("Tin", 0, 0, 0, -1),
        ("Pewter", -1, 0, -1, 0),
        ("Iron", 0, -1, 0, 0),
        ("Steel", 0, -1, 0, 0),
        ("Gold", 0, -1, 0, 0),
        ("Electrum", 0, -1, 0, 0),
        ("Zinc", 0, 0, -1, 0),
        ("Brass", 0, 0, -1, 0),
        ("Copper", 0, 0, 0, 0),
    ],
)
def test_a_savant_has_2_free_nudges_and_pays_when_not_burning(
    metal: str, physique: int, willpower: int, health: int, senses: int
) -> None:
    misting = allomancer(metal, rating=7)
    savant = make_savant(misting, metal)
    boons = power_roll(savant, find_stat(savant, metal)).boons
    assert [(b.label, b.nudges) for b in boons] == [(f"{metal} Savant", 2)]
    assert power_roll(misting, find_stat(misting, metal)).boons == ()
    assert rating_for(savant, "Physique") - rating_for(misting, "Physique") == physique
    for resilience, shift in [(Resilience.WILLPOWER, willpower), (Resilience.HEALTH, health)]:
        assert resilience_max(savant, resilience) - resilience_max(misting, resilience) == shift
    assert _parts(savant, "Wits", Task.SENSES).get("Tin Savant, not burning", 0) == senses
    lit = start_burn(savant, metal).character
    assert resilience_max(lit, Resilience.WILLPOWER) == resilience_max(misting, Resilience.WILLPOWER)
    assert resilience_max(lit, Resilience.HEALTH) >= resilience_max(misting, Resilience.HEALTH)
    assert "Tin Savant, not burning" not in _parts(lit, "Wits", Task.SENSES)


def _spiked(*metals: str, **fields: Any) -> Character:
    powers = {"Steel": "Steel", "Bronze": "Bronze", "Pewter": "Pewter", "Brass": "Brass"}
    spikes = [{"metal": m, "power": powers.get(m), "rating": 4} for m in metals]
    return sheet(hemalurgy={"spikes": spikes}, **fields)


@pytest.mark.parametrize(
    ("spikes", "charm", "spirit", "wits", "willpower"),
    [
        ((), 4, 4, 5, 9),
        (("Steel",), 4, 3, 5, 8),
        (("Bronze", "Pewter", "Brass"), 4, 1, 5, 6),
        (("Tin",), 3, 3, 5, 8),
        (("Iron",), 3, 3, 5, 8),
        (("Copper",), 3, 3, 6, 9),
        (("Zinc",), 3, 4, 5, 11),
        (("Zinc", "Zinc"), 2, 4, 5, 13),
        (("Iron", "Iron", "Iron", "Iron", "Tin"), 0, 0, 5, 5),
    ],
)
def test_each_spike_costs_its_stats_and_gives_its_own(
    spikes: tuple[str, ...], charm: int, spirit: int, wits: int, willpower: int
) -> None:
    inquisitor = _spiked(*spikes)
    assert rating_for(inquisitor, "Charm") == charm
    assert rating_for(inquisitor, "Spirit") == spirit
    assert rating_for(inquisitor, "Wits") == wits
    assert resilience_max(inquisitor, Resilience.WILLPOWER) == willpower
    assert resilience_max(inquisitor, Resilience.REPUTATION) == charm + 4


@pytest.mark.parametrize(
    ("spikes", "task", "dice"),
    [
        (("Iron",), Task.STRENGTH, [("Iron spike", 2)]),
        (("Iron", "Iron"), Task.STRENGTH, [("Iron spikes", 3)]),
        (("Iron", "Iron", "Iron", "Iron"), Task.STRENGTH, [("Iron spikes", 5)]),
        (("Iron",), Task.SENSES, []),
        (("Tin",), Task.SENSES, [("Tin spike", 2)]),
        (("Tin",), Task.STRENGTH, []),
        (("Copper", "Zinc", "Steel"), Task.STRENGTH, []),
        (("Copper", "Zinc", "Steel"), Task.SENSES, []),
    ],
)
def test_spikes_give_their_dice_on_their_rolls(spikes: tuple[str, ...], task: Task, dice: list[Any]) -> None:
    assert spike_dice(_spiked(*spikes), task) == dice


@pytest.mark.parametrize(
    ("victim", "weeks", "rating"),
    [(10, 0, 9), (7, 0, 6), (3, 0, 2), (2, 0, 2), (1, 0, 2), (8, 2, 5), (8, 5, 2), (8, 40, 2)],
)
def test_a_spike_holds_its_victims_rating_less_1_and_1_a_week_outside(
    victim: int, weeks: int, rating: int
) -> None:
    assert spike_rating(victim, weeks) == rating
    assert figured_rating(None, victim, weeks)[0] == rating
    assert figured_rating(6, victim, weeks)[0] == 6  # typed outright, it overrides


@pytest.mark.parametrize(
    ("blessing", "physique", "wits", "physique_now", "wits_now", "willpower_shift"),
    [
        ("potency", 4, 5, 6, 5, 0),
        ("potency", 7, 5, 8, 5, 0),
        ("potency", 8, 5, 8, 5, 0),
        ("potency", 9, 5, 9, 5, 0),
        ("presence", 4, 5, 4, 7, 2),
        ("presence", 4, 7, 4, 8, 1),
        ("presence", 4, 9, 4, 9, 0),
        ("stability", 4, 5, 4, 5, 5),
    ],
)
def test_blessings_raise_their_stat(
    blessing: str, physique: int, wits: int, physique_now: int, wits_now: int, willpower_shift: int
) -> None:
    stats = {"attributes": {"physique": physique, "charm": 4, "wits": wits}}
    plain = sheet(**stats)
    kandra = sheet(hemalurgy={"blessings": [blessing]}, **stats)
    assert (rating_for(kandra, "Physique"), rating_for(kandra, "Wits")) == (physique_now, wits_now)
    health = resilience_max(kandra, Resilience.HEALTH) - resilience_max(plain, Resilience.HEALTH)
    assert health == physique_now - physique
    willpower = resilience_max(kandra, Resilience.WILLPOWER) - resilience_max(plain, Resilience.WILLPOWER)
    assert willpower == willpower_shift


def _gold_keeper(charges: int) -> Character:
    """A Keeper with Gold (by the Narrator's leave, §9.8) and a Goldmind holding ``charges``."""
    base = keeper(("Gold", charges), rating=4).model_dump()
    gold = {"type": "feruchemy", "name": "Gold", "rating": 4}
    return make_character({**base, "powers": [*base["powers"], gold]})


@pytest.mark.parametrize("rate", [1, 2, 3])
def test_storing_gold_lowers_health_by_the_rate(rate: int) -> None:
    sazed = _gold_keeper(0)
    full = resilience_max(sazed, Resilience.HEALTH)
    storing = start_storing(sazed, "Gold", rate)
    assert resilience_max(storing, Resilience.HEALTH) == full - rate


@pytest.mark.parametrize(("charges", "minutes", "lent"), [(3, 59, 3), (3, 60, 0), (5, 30, 5), (1, 61, 0)])
def test_tapping_gold_lends_health_for_an_hour(charges: int, minutes: int, lent: int) -> None:
    sazed = _gold_keeper(20)
    full = resilience_max(sazed, Resilience.HEALTH)
    tapped = tap(sazed, tap_effect(sazed, "Gold", charges)).character
    assert resilience_max(tapped, Resilience.HEALTH) == full + charges
    later = move_time(tapped, minutes).character
    assert resilience_max(later, Resilience.HEALTH) == full + lent


def _stunted(metal: str, stunt: str) -> Character:
    base = allomancer(metal)
    power = base.powers[0].model_copy(update={"stunts": (stunt,)})
    return make_character({**base.model_dump(), "powers": [power.model_dump()]})


@pytest.mark.parametrize(
    ("metal", "stunt", "stat", "task", "burn", "label", "dice"),
    [
        ("Tin", "Focused Sense: hearing", "Wits", Task.SENSES, True, "Focused Sense", 1),
        ("Tin", "Focused Sense: hearing", "Wits", Task.SENSES, False, "Focused Sense", 0),
        ("Tin", "Focused Sense: hearing", "Wits", None, True, "Focused Sense", 0),
        ("Zinc", "Tug/Push Emotion", "Charm", None, True, "Tug/Push Emotion", 1),
        ("Brass", "Tug/Push Emotion", "Charm", None, True, "Tug/Push Emotion", 1),
        ("Brass", "Tug/Push Emotion", "Charm", None, False, "Tug/Push Emotion", 0),
        ("Zinc", "Tug/Push Emotion", "Influence", None, True, "Tug/Push Emotion", 0),
    ],
)
def test_focused_sense_and_tug_push_emotion_add_their_die(
    metal: str, stunt: str, stat: str, task: Task | None, burn: bool, label: str, dice: int
) -> None:
    character = _stunted(metal, stunt)
    if burn:
        character = start_burn(character, metal).character
    assert _parts(character, stat, task).get(label, 0) == dice
