"""The journal's reading rule, a sheet change's entries, and the recap (``rules.journal``,
``rules.recap``), pure and table-driven."""

from datetime import UTC, datetime

import pytest

from rules.burdens import Severity
from rules.character import (
    Character,
    CharacterKind,
    Resilience,
    Standing,
    add_burden,
    apply_damage,
    make_character,
    spend_standing,
)
from rules.character import heal as heal_sheet
from rules.journal import NARRATOR, TABLE, EntryKind, JournalEntry, Viewer, line_for, sheet_entries
from rules.recap import build_recap

AT = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)
ROLLER = 5
OTHER = Viewer(user_id=6)
OWNER = Viewer(user_id=ROLLER)

PUBLIC = JournalEntry(at=AT, kind=EntryKind.ROLL, text="open", public="open", owner_id=ROLLER, outcome=1)
SECRET = JournalEntry(at=AT, kind=EntryKind.ROLL, text="gm", public=None, owner_id=ROLLER, outcome=5)
HIDDEN = JournalEntry(
    at=AT,
    kind=EntryKind.DAMAGE,
    text="Thug 5 → 3",
    public="Thug is wounded",
    hero="Thug",
    amount=2,
    numbers_public=False,
)
NARRATORS = JournalEntry(at=AT, kind=EntryKind.BURDEN_GAINED, text="Thug: rib", public=None)


@pytest.mark.parametrize(
    ("entry", "narrator", "owner", "other", "table"),
    [
        (PUBLIC, "open", "open", "open", "open"),
        (SECRET, "gm", "gm", None, None),
        (HIDDEN, "Thug 5 → 3", "Thug is wounded", "Thug is wounded", "Thug is wounded"),
        (NARRATORS, "Thug: rib", None, None, None),
    ],
)
def test_who_reads_what(
    entry: JournalEntry, narrator: str, owner: str | None, other: str | None, table: str | None
) -> None:
    assert line_for(entry, NARRATOR) == narrator
    assert line_for(entry, OWNER) == owner
    assert line_for(entry, OTHER) == other
    assert line_for(entry, TABLE) == table


def test_the_tables_recap_counts_only_what_the_table_saw() -> None:
    entries = [PUBLIC, SECRET, HIDDEN, NARRATORS]
    table, full = build_recap(entries, TABLE), build_recap(entries, NARRATOR)
    assert table.best == "open" and table.rolls == 1 and table.tallies == () and table.burdens_gained == ()
    assert full.best == "gm" and full.worst == "open" and full.rolls == 2
    assert [(t.name, t.damage) for t in full.tallies] == [("Thug", 2)]
    assert full.burdens_gained == ("Thug: rib",)


@pytest.mark.parametrize(
    "kind",
    [EntryKind.CONFLICT_BEGAN, EntryKind.CONFLICT_RUNNING, EntryKind.CONFLICT_ENDED, EntryKind.DEFEATED],
)
def test_a_conflicts_story_is_told_in_its_section_to_everyone(kind: EntryKind) -> None:
    """A fight left running when the session ended is told with the rest of the Conflicts."""
    entry = JournalEntry(at=AT, kind=kind, text="the fight", public="the fight")
    for viewer in (TABLE, NARRATOR):
        assert build_recap([PUBLIC, entry], viewer).conflicts == ("the fight",)


VIN = make_character(name="Vin", kind=CharacterKind.HERO, owner_id=1, standings={"resources": 3})
CHANGES = [
    (apply_damage(VIN, Resilience.HEALTH, 2).character, EntryKind.DAMAGE, "Vin took 2 Health damage."),
    (spend_standing(VIN, Standing.RESOURCES), EntryKind.STANDING_SPENT, "Vin spent 1 Resources."),
    (add_burden(VIN, "Limp", Severity.SERIOUS), EntryKind.BURDEN_GAINED, "Vin took the Serious Burden Limp."),
]


@pytest.mark.parametrize(("after", "kind", "text"), CHANGES)
@pytest.mark.parametrize("hidden", [False, True])
def test_a_sheet_change_tells_what_changed(
    after: Character, kind: EntryKind, text: str, hidden: bool
) -> None:
    entry = sheet_entries(VIN, after, AT, character_id=9, hidden=hidden)[0]
    assert (entry.kind, entry.text, entry.hero, entry.character_id) == (kind, text, "Vin", 9)
    assert entry.public == (None if hidden else text)
    back = sheet_entries(after, VIN, AT, character_id=9, hidden=hidden)[0]
    assert (
        back.kind
        is {
            EntryKind.DAMAGE: EntryKind.HEALING,
            EntryKind.STANDING_SPENT: EntryKind.STANDING_RECOVERED,
            EntryKind.BURDEN_GAINED: EntryKind.BURDEN_EASED,
        }[kind]
    )


def test_healing_is_told_with_its_amount() -> None:
    hurt = apply_damage(VIN, Resilience.HEALTH, 3).character
    [entry] = sheet_entries(hurt, heal_sheet(hurt, Resilience.HEALTH, 2), AT, character_id=9, hidden=False)
    assert entry.kind is EntryKind.HEALING and entry.amount == 2


GUARDS = make_character(name="Guards", kind=CharacterKind.EXTRA, owner_id=2, size=4)


@pytest.mark.parametrize(
    ("before", "damage", "text"),
    [
        (GUARDS, 1, "Guards: 1 member down (4 → 3 standing)."),
        (GUARDS, 3, "Guards: 3 members down (4 → 1 standing)."),
        (GUARDS.model_copy(update={"size": 1}), 1, "Guards: 1 member down (1 → 0 standing)."),
    ],
)
def test_an_extras_damage_is_its_members_down_not_every_resilience(
    before: Character, damage: int, text: str
) -> None:
    after = apply_damage(before, Resilience.HEALTH, damage).character
    [entry] = sheet_entries(before, after, AT, character_id=9, hidden=False)
    assert (entry.kind, entry.amount, entry.text) == (EntryKind.DAMAGE, damage, text)
    assert entry.character_kind is CharacterKind.EXTRA
    [back] = sheet_entries(after, before, AT, character_id=9, hidden=False)
    assert back.kind is EntryKind.HEALING and back.amount == damage


def test_the_recap_tallies_each_kind_apart_and_an_old_entry_as_a_heros() -> None:
    old = HIDDEN.model_copy(update={"hero": "Kelsier"})
    thug = HIDDEN.model_copy(update={"character_kind": CharacterKind.VILLAIN})
    recap = build_recap([old, thug], NARRATOR)
    assert [(t.name, t.kind) for t in recap.tallies] == [
        ("Kelsier", CharacterKind.HERO),
        ("Thug", CharacterKind.VILLAIN),
    ]
