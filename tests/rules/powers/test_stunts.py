"""The Stunts catalogue and where its numbers bite (docs/rulings.md §9.7)."""

from typing import Any

import pytest

from rules.character import Character, Resilience
from rules.character.metals import Task
from rules.character.stats import find_stat
from rules.character.stunts import catalogued, check_stunt, stunts_for, working
from rules.errors import RulesError
from rules.powers.burning import start_burn
from rules.powers.mental import emotion_attack_parts
from rules.powers.metal_effects import atium_advantage, stunt_soak
from rules.powers.pushes import ObjectSize, deflection, push_attack
from rules.powers.rolls import power_roll
from tests.rules.powers.sheets import allomancer


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Denser Tissues", "Denser Tissues"),
        ("focused sense: hearing", "Focused Sense"),
        ("Affect Crowd (the Soothing Station)", "Affect Crowd"),
        ("Dance on coins", None),
    ],
)
def test_a_sheet_text_names_a_catalogued_stunt_or_stays_free(text: str, name: str | None) -> None:
    found = catalogued(text)
    assert (found.name if found else None) == name


def test_each_metal_lists_its_own_stunts() -> None:
    assert {s.name for s in stunts_for("Iron")} >= {"Improved Redirection", "Increased Velocity"}
    assert "Improved Redirection" not in {s.name for s in stunts_for("Steel")}


def _with_stunts(metal: str, *stunts: str, **kw: Any) -> Character:
    sheet = allomancer(metal, **kw)
    power = sheet.powers[0].model_copy(update={"stunts": stunts})
    return sheet.model_copy(update={"powers": (power,)})


def test_stunts_work_only_while_their_metal_burns_and_stack_to_their_limit() -> None:
    thug = _with_stunts("Pewter", "Prodigious Strength", "Prodigious Strength", "Prodigious Strength")
    assert working(thug, "Prodigious Strength") == 0
    lit = start_burn(thug, "Pewter").character
    assert working(lit, "Prodigious Strength") == 2
    rolled = power_roll(lit, find_stat(lit, "Physique"), Task.STRENGTH)
    assert ("Prodigious Strength", 2) in rolled.modifiers


def test_increased_velocity_and_improved_redirection_bite() -> None:
    coinshot = start_burn(_with_stunts("Steel", "Increased Velocity"), "Steel").character
    assert push_attack(coinshot, "Steel", ObjectSize.SMALL).weapon == 2
    lurcher = start_burn(_with_stunts("Iron", "Improved Redirection"), "Iron").character
    assert deflection(lurcher).bonus == 1


def test_atium_advantage_and_affect_crowd() -> None:
    seer = start_burn(_with_stunts("Atium", "Atium Advantage", reserves={"Atium": 2}), "Atium").character
    assert atium_advantage(seer) == -2
    soother = start_burn(_with_stunts("Brass", "Affect Crowd"), "Brass").character
    assert emotion_attack_parts(soother, "Brass", 100) == [("Affect Crowd", -2)]
    with pytest.raises(RulesError, match="reaches 100 people at most"):
        emotion_attack_parts(soother, "Brass", 101)


@pytest.mark.parametrize(
    ("metal", "stunts", "stat", "label", "lit", "dice"),
    [
        ("Brass", ("Focused Emotion: fear",), "Brass", "Calm their fear", True, 1),
        ("Brass", ("Focused Emotion (fear)",), "Brass", "ease the FEAR of the crowd", True, 1),
        ("Zinc", ("Focused Emotion: rage",), "Zinc", "stir their rage", True, 1),
        ("Zinc", ("Focused Emotion: rage",), "Zinc", "stir their grief", True, 0),
        ("Zinc", ("Focused Emotion: rage",), "Zinc", "", True, 0),
        ("Zinc", ("Focused Emotion: rage",), "Zinc", "stir their rage", False, 0),
        ("Zinc", ("Focused Emotion",), "Zinc", "stir their rage", True, 0),
        ("Zinc", ("Focused Emotion: rage",), "Charm", "stir their rage", True, 0),
    ],
)
def test_focused_emotion_adds_a_die_to_a_soothing_or_rioting_naming_its_emotion(
    metal: str, stunts: tuple[str, ...], stat: str, label: str, lit: bool, dice: int
) -> None:
    """§9.7: on any roll of Zinc or Brass, /roll's and a Conflict's alike (we chose: the words name
    the emotion), only while the metal burns; another stat's roll, or a Stunt naming no
    emotion, gets nothing."""
    sheet = _with_stunts(metal, *stunts)
    if lit:
        sheet = start_burn(sheet, metal).character
    rolled = power_roll(sheet, find_stat(sheet, stat), label=label)
    assert dict(rolled.modifiers).get("Focused Emotion", 0) == dice


@pytest.mark.parametrize(
    ("metal", "had", "text", "refusal"),
    [
        ("Pewter", (), "Denser Tissues", None),
        ("Pewter", ("Denser Tissues",), "denser tissues", None),
        ("Pewter", ("Denser Tissues", "Denser Tissues"), "Denser Tissues", "2 times"),
        ("Steel", (), "Denser Tissues", "Stunt of Allomantic Pewter"),
        ("Steel", (), "Improved Redirection", "Stunt of Allomantic Iron"),
        ("Tin", ("Focused Sense: hearing",), "Focused Sense: sight", "once"),
        ("Tin", ("Night eyes",), "Dance on coins", None),
        ("Tin", ("Night eyes",), "night eyes", "already has that Stunt"),
    ],
)
def test_a_stunt_is_added_only_where_and_as_often_as_it_may_be(
    metal: str, had: tuple[str, ...], text: str, refusal: str | None
) -> None:
    power = _with_stunts(metal, *had).powers[0]
    if refusal is None:
        check_stunt(power, text)
    else:
        with pytest.raises(RulesError, match=refusal):
            check_stunt(power, text)


def test_denser_tissues_and_iron_will_soak_while_burning() -> None:
    thug = _with_stunts("Pewter", "Denser Tissues", "Denser Tissues")
    assert stunt_soak(thug, Resilience.HEALTH) is None
    lit = start_burn(thug, "Pewter").character
    assert stunt_soak(lit, Resilience.HEALTH) == ("Denser Tissues", 2)
    assert stunt_soak(lit, Resilience.WILLPOWER) is None
    smoker = start_burn(_with_stunts("Copper", "Iron Will"), "Copper").character
    assert stunt_soak(smoker, Resilience.WILLPOWER) == ("Iron Will", 1)
