"""Roll20's Mistborn sheet onto ours (docs/rulings.md §6.12): sample exports written from the
sheet's field list (``tests/rules/character/roll20/``), full, partial and broken, and hostile files."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.character import CharacterKind, PowerType, export_character, make_character
from rules.character.roll20 import MAX_ATTRIBUTES, MAX_BYTES
from rules.character.roll20_left_out import LEFT_OUT_MAX
from rules.character.sheet_files import SheetSource, read_sheet_file
from rules.errors import RulesError
from testbed.stalls import roll20_reporder, roll20_stunts, roll20_unknown_fields

SAMPLES = Path(__file__).parent / "roll20"


def sample(name: str) -> bytes:
    return (SAMPLES / f"{name}.json").read_bytes()


def export(*attribs: tuple[str, Any], **top: Any) -> str:
    return json.dumps(
        {"name": "Vin", "attribs": [{"name": n, "current": v, "max": ""} for n, v in attribs]} | top
    )


def test_a_full_sheet_maps_entirely() -> None:
    found = read_sheet_file(sample("full"), owner_id=7)
    vin = found.character
    assert found.source is SheetSource.ROLL20 and found.left_out == ()
    assert (vin.name, vin.kind, vin.owner_id, vin.concept) == (
        "Vin",
        CharacterKind.HERO,
        7,
        "Street urchin turned Mistborn",
    )
    assert vin.attributes.model_dump() == {"physique": 3, "charm": 4, "wits": 6}
    assert vin.standings.model_dump() == {"resources": 2, "influence": 3, "spirit": 4}
    assert vin.spent.influence == 1 and vin.damage.health == 1
    assert vin.traits.drive == "Keep her crew safe" and vin.traits.extras == ("Street smarts",)
    assert [(b.name, b.severity) for b in vin.burdens] == [("Cracked rib", Severity.SERIOUS)]
    assert (vin.destiny, vin.tragedy) == ("Hero of Ages", "Reen taught her that everyone betrays")
    assert [p.name for p in vin.powers] == [
        "Iron",
        "Steel",
        "Tin",
        "Pewter",
        "Zinc",
        "Brass",
        "Copper",
        "Bronze",
    ]
    assert {p.type for p in vin.powers} == {PowerType.ALLOMANCY} and {p.rating for p in vin.powers} == {4}
    assert vin.powers[1].stunts == ("Steelpush leap", "Coinshot")
    assert [(p.name, p.weapon, p.armour) for p in vin.props] == [
        ("Glass knives", 1, None),
        ("Mistcloak", None, 1),
    ]
    assert vin.notes.splitlines() == [
        "Crew: Kelsier's crew",
        "Cause: Overthrow the Lord Ruler",
        "Target: Kredik Shaw",
        "Method: Infiltration",
        "Race: Skaa",
        "Sex: F",
        "Age: 16",
        "Height: Short",
        "Weight: Slight",
        "Secrets known: The Eleventh Metal is real",
        "Equipment: Coin pouch",
    ]


def test_a_partial_sheet_maps_what_it_can_and_lists_the_rest() -> None:
    found = read_sheet_file(sample("partial"), owner_id=7, name="Straff")
    straff = found.character
    assert straff.name == "Straff" and straff.kind is CharacterKind.VILLAIN
    assert straff.attributes.model_dump() == {"physique": 4, "charm": 2, "wits": 2}
    assert straff.traits.drive == "Rule the Central Dominance" and straff.traits.extras == ("Ruthless",)
    assert [(b.name, b.severity) for b in straff.burdens] == [("Tineye's headaches", Severity.GRAVE)]
    assert [(p.name, p.rating) for p in straff.powers] == [("Tin", 5), ("Steel", 3)]
    assert straff.allomancy.tracked and straff.allomancy.charges("Tin") == 3
    assert [(p.name, p.weapon) for p in straff.props] == [("Warhammer", 2)]
    assert straff.notes.startswith("Description: Elend's father, a brutal warlord.\nHe trusts no one.")
    assert list(found.left_out) == [
        "character_name 'Straff Venture': imported as 'Straff'",
        "Charm 'eleven': not a rating from 1 to 10, so it is 2",
        "Wits '12': not a rating from 1 to 10, so it is 2",
        "Resources spent '9': not a rating from 0 to 8, so it is 0",
        "Health '12': the bot works it out as Physique + Resources = 13",
        "Willpower '7': the bot works it out as Wits + Spirit = 5",
        "Power 'Steel Pushing': kept as Steel (Allomancy)",
        "Power 'Koloss army': type '9' is not one of 1 to 4",
        "Power 'Brute force': The Brute force rating must be between 1 and 10; 14 is out of range.",
        "Rules of 'Warhammer' 'Weapon 2, two-handed': only a weapon or armour number is kept",
        "2 Advancements ticked: only Heroes keep Advancements",
        "Action Dice '4': the dice of a Conflict round, not part of a sheet",
        "favourite_colour 'Grey': not a field of the Mistborn sheet",
        "1 row of repeating_spells: not a section of the Mistborn sheet",
        "The max of willpower '9': the sheet uses no maximum there",
        "The Roll20 bio (28 characters): not part of the sheet",
        "1 Roll20 ability (macros): the bot rolls with its own commands",
    ]


def test_an_extra_keeps_no_destiny_or_damage() -> None:
    found = read_sheet_file(sample("extra"), owner_id=7)
    guards = found.character
    assert guards.kind is CharacterKind.EXTRA and guards.size == 1 and not guards.destiny
    assert guards.notes == "Type: Guards of the Canton of Orthodoxy"
    assert found.left_out == (
        "Health damage '2': an Extras group counts members down",
        "Destiny 'Die in the line of duty': Extras have no Destiny",
    )


@pytest.mark.parametrize(
    ("ticked", "held", "left_out"),
    [
        (0, 0, ()),
        (3, 3, ()),
        (20, 20, ()),
        (22, 20, ("22 Advancements ticked: a Hero holds at most 20, so 20",)),
    ],
)
def test_a_heros_ticked_advancements_are_kept_as_held(
    ticked: int, held: int, left_out: tuple[str, ...]
) -> None:
    boxes = [(f"advance{i}", "on" if i <= ticked else "0") for i in range(1, 23)]
    found = read_sheet_file(export(*boxes), owner_id=1)
    ledger = found.character.advancements
    assert (ledger.held, ledger.earned, ledger.spent) == (held, held, 0)
    assert found.left_out == left_out


def test_text_too_long_for_its_place_is_listed_never_cut() -> None:
    long = "x" * 61
    found = read_sheet_file(
        export(("drive", long), ("description", "d" * 700), ("concept", "Mistborn")), owner_id=1
    )
    assert found.character.traits.drive == "" and found.character.notes == ""
    assert found.character.concept == "Mistborn"
    assert any(line.startswith("Drive 'xxx") and "at most 60 characters" in line for line in found.left_out)
    assert any("Description (in the notes)" in line and "at most 600" in line for line in found.left_out)


def test_rows_keep_roll20s_order_and_row_ids_may_hold_underscores() -> None:
    found = read_sheet_file(
        export(
            ("repeating_powers_-Ma_1_power", "Tin"),
            ("repeating_powers_-Ma_1_rating", "3"),
            ("repeating_powers_-Mb-2_power", "Zinc"),
            ("repeating_powers_-Mb-2_rating", "5"),
            ("_reporder_repeating_powers", "-Mb-2,-Ma_1"),
        ),
        owner_id=1,
    )
    assert [(p.name, p.rating) for p in found.character.powers] == [("Zinc", 5), ("Tin", 3)]


def test_a_row_ordered_twice_is_still_one_row() -> None:
    """The order was a list each row was looked up in (quadratic: seconds for a crafted file);
    as a dict, an id listed twice counts once, where it used to bring its row in twice."""
    found = read_sheet_file(
        export(
            ("repeating_traitsburdens_a_tblabel", "Loyal"),
            ("repeating_traitsburdens_b_tblabel", "Stubborn"),
            ("_reporder_repeating_traitsburdens", "b, a,b,,B"),
        ),
        owner_id=1,
    )
    assert found.character.traits.extras == ("Stubborn", "Loyal")


def test_a_crafted_order_of_200000_ids_reads_in_order() -> None:
    found = read_sheet_file(roll20_reporder(), owner_id=1)
    assert found.character.name == "Crafted" and found.left_out == ()


@pytest.mark.parametrize("make", [roll20_stunts, roll20_unknown_fields])
def test_what_is_left_out_is_listed_up_to_a_bound_and_counted_beyond(make: Callable[[], bytes]) -> None:
    """160,000 Stunts past the cap were 160,000 lines listed back (a second to build and render);
    the first LEFT_OUT_MAX are listed, the rest counted in one last line."""
    found = read_sheet_file(make(), owner_id=1)
    assert len(found.left_out) == LEFT_OUT_MAX + 1
    last = found.left_out[-1]
    assert last.startswith("…and ") and last.endswith(" more not listed here")
    assert int(last.removeprefix("…and ").split()[0].replace(",", "")) > 3000


def test_our_own_files_still_import_and_keep_their_owner() -> None:
    vin = make_character(name="Vin", kind="hero", owner_id=99)
    found = read_sheet_file(export_character(vin), owner_id=7, name="Valette")
    assert found.source is SheetSource.BOT and found.character.owner_id == 99
    assert found.character.name == "Valette" and found.left_out == ()


BROKEN: list[tuple[bytes | str, str]] = [
    (b"{not json", "not valid JSON"),
    ("[]", "not a character sheet: upload a file from /character export"),
    ('{"name": "Vin"}', "not a character sheet: upload a file from /character export"),
    ('{"name": "Vin", "attribs": {"physique": 3}}', "its attributes are not a list"),
    ('{"name": "Vin", "attribs": [{"current": "3"}]}', "attribute 1 is not a name with a value"),
    ('{"name": "Vin", "attribs": [{"name": "wits", "current": [3]}]}', "attribute 1 is not a name"),
    ('{"name": "Vin", "attribs": ["wits"]}', "attribute 1 is not a name with a value"),
    ('{"attribs": [{"name": "wits", "current": "3"}]}', "has no name: give it one with the name option"),
    ('{"name": "' + "V" * 65 + '", "attribs": []}', "cannot be imported: The name is too long"),
    (
        json.dumps(
            {"name": "Vin", "attribs": [{"name": f"a{i}", "current": "1"} for i in range(MAX_ATTRIBUTES + 1)]}
        ),
        f"has {MAX_ATTRIBUTES + 1} attributes",
    ),
    (b" " * (MAX_BYTES + 1), "too big for a character sheet (at most 512 KiB)"),
]


@pytest.mark.parametrize(("data", "message"), BROKEN, ids=[m for _, m in BROKEN])
def test_broken_files_are_refused_in_plain_words(data: bytes | str, message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_sheet_file(data, owner_id=1)


def test_our_files_keep_their_64_kib_cap() -> None:
    vin = json.loads(export_character(make_character(name="Vin", kind="hero", owner_id=1)))
    vin["padding"] = "x" * (64 * 1024)
    with pytest.raises(RulesError, match="at most 64 KiB"):
        read_sheet_file(json.dumps(vin), owner_id=1)


values = st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.text(max_size=80))
names = st.one_of(
    st.sampled_from(
        [
            "physique",
            "charm",
            "wits",
            "resources",
            "resourcesSpent",
            "healthDamage",
            "cType",
            "drive",
            "destiny",
        ]
        + [
            f"repeating_{s}_-Mx_{f}"
            for s in ("powers", "traitsburdens", "equipment")
            for f in (
                "power",
                "type",
                "rating",
                "stunts",
                "tblabel",
                "tbdescription",
                "item",
                "rules",
                "prop",
                "charges",
            )
        ]
    ),
    st.text(min_size=1, max_size=30),
)


@given(st.lists(st.tuples(names, values), max_size=40), st.text(max_size=70))
@settings(max_examples=300, deadline=None)
def test_any_attributes_import_or_are_refused_plainly(attribs: list[tuple[str, Any]], name: str) -> None:
    """Whatever values a hostile file holds, the import gives a valid sheet or one RulesError."""
    try:
        found = read_sheet_file(export(*attribs, name=name), owner_id=1)
    except RulesError:
        return
    assert found.character.name.strip() and all(isinstance(line, str) for line in found.left_out)
