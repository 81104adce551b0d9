"""Parts of a sheet picked by a typed name follow rules.naming, like characters do."""

import pytest

from rules.burdens import Severity
from rules.character import (
    add_burden,
    find_burden,
    find_stat,
    make_character,
    rating_for,
    remove_burden,
)
from rules.character.burden_track import FOR_A_ROLL
from rules.character.lookup import one_of, pick
from rules.character.names import canonical_metal, parse_severity
from rules.conflict import ActionKind, ActionSpec, ConflictType, new_conflict
from rules.conflict.figure import weapon_bonus
from rules.errors import RulesError

ELEND = make_character(
    name="Elend",
    kind="hero",
    owner_id=1,
    attributes={"physique": 3, "charm": 4, "wits": 5},
    burdens=[
        {"name": "Deep cut", "severity": "grave"},
        {"name": "Shallow cut", "severity": "serious"},
        {"name": "Ménard’s curse", "severity": "serious"},
    ],
    powers=[
        {"type": "allomancy", "name": "Steel", "rating": 4},
        {"type": "other", "name": "Charming smile", "rating": 2},
        {"type": "hemalurgy", "name": "Strength spike", "rating": 3},
    ],
    props=[
        {"name": "Dagger", "weapon": 1},
        {"name": "dagger", "weapon": 2},
        {"name": "Dueling cane", "weapon": 2},
        {"name": "Mistcloak"},
    ],
)


@pytest.mark.parametrize(
    ("typed", "burden"),
    [
        ("Deep  CUT", "Deep cut"),
        ("ｄｅｅｐ ｃｕｔ", "Deep cut"),
        ("shallow", "Shallow cut"),
        ("menard's", "Ménard’s curse"),
        ("CURSE", "Ménard’s curse"),
    ],
)
def test_a_burden_is_picked_by_its_name_or_a_unique_part_of_it(typed: str, burden: str) -> None:
    assert find_burden(ELEND, typed, FOR_A_ROLL).name == burden


def test_a_part_shared_by_several_burdens_asks_which_one() -> None:
    with pytest.raises(
        RulesError, match=r"^Elend has more than one Burden matching 'cut'; say Deep cut or Shallow cut\.$"
    ):
        remove_burden(ELEND, "cut")
    with pytest.raises(RulesError, match="no Burden called '  '"):
        find_burden(ELEND, "  ", FOR_A_ROLL)


def test_burden_names_are_unique_by_the_one_rule() -> None:
    with pytest.raises(RulesError, match="already has a Burden called"):
        add_burden(ELEND, "ＤＥＥＰ  cut", Severity.SERIOUS)
    with pytest.raises(RulesError, match="Two Burdens are called"):
        make_character(
            name="X",
            kind="hero",
            owner_id=1,
            burdens=[{"name": "ﬁre", "severity": "grave"}, {"name": "Fire", "severity": "grave"}],
        )


@pytest.mark.parametrize(
    ("typed", "rating"),
    [("ｗｉｔｓ", 5), ("phys", 3), ("steel", 4), ("allomancy  steel", 4), ("spike", 3), ("Charm", 4)],
)
def test_a_stat_is_picked_by_its_name_or_a_unique_part_of_it(typed: str, rating: int) -> None:
    assert rating_for(ELEND, typed) == rating


def test_a_part_shared_by_several_stats_asks_which_one() -> None:
    with pytest.raises(RulesError, match=r"^Elend has more than one 'char'; say Charm or Charming smile\.$"):
        find_stat(ELEND, "char")
    with pytest.raises(RulesError, match="Elend has no 'that' to roll"):
        find_stat(ELEND, "")


def test_a_power_cannot_take_a_stat_name_in_any_form() -> None:
    with pytest.raises(RulesError, match="belongs to the sheet's stats"):
        make_character(
            name="X", kind="hero", owner_id=1, powers=[{"type": "other", "name": "Ｗｉｔｓ", "rating": 2}]
        )


def attack(weapon: str) -> ActionSpec:
    return ActionSpec(kind=ActionKind.ATTACK, target=2, weapon=weapon)


def test_a_prop_is_picked_by_the_same_rule() -> None:
    assert weapon_bonus(ELEND, attack("cane")) == 2
    assert weapon_bonus(ELEND, attack("DAGGER")) == 1  # two Props of one name: the first
    with pytest.raises(
        RulesError, match=r"more than one Prop matching 'd'; say Dagger, dagger or Dueling cane\."
    ):
        weapon_bonus(ELEND, attack("d"))
    with pytest.raises(RulesError, match="no Prop called 'Sword'"):
        weapon_bonus(ELEND, attack("Sword"))


def test_choice_words_fold_like_names() -> None:
    assert canonical_metal(" ＰＥＷＴＥＲ ") == "Pewter"
    assert canonical_metal("Aluminium") == "Aluminum"
    assert parse_severity("ＧＲＡＶＥ") is Severity.GRAVE
    assert new_conflict(1, " Social ", "the ball").type is ConflictType.SOCIAL


def test_pick_and_one_of() -> None:
    names = ["Vin", "Vin's Shadow", "Kelsier"]
    assert pick("vin", names, str) == ["Vin"]
    assert pick("", names, str) == []
    assert pick("s", names, str) == ["Kelsier", "Vin's Shadow"]
    assert [one_of(o) for o in ([], ["A"], ["A", "B"], ["A", "B", "C"])] == ["", "A", "A or B", "A, B or C"]
