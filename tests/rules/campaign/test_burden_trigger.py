"""The Burden trigger (docs/rulings.md §10.1): a declaration that counts a target's Burden is
journaled, and a night's awards count each Burden once, for its bearer."""

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.campaign.awards import burdens_used, propose
from rules.campaign.burden_use import burden_use_entries
from rules.character import add_burden
from rules.journal import EntryKind, JournalEntry
from tests.rules.conflict.builders import THUG, VIN, Table, declare_attack, declare_nothing, pick

AT = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


def used(character: int, burden: str) -> JournalEntry:
    return JournalEntry(
        at=AT, kind=EntryKind.BURDEN_USED, text="t", public="t", character_id=character, burden=burden
    )


def test_a_declaration_naming_a_burden_journals_its_use_for_the_bearer() -> None:
    sheets = pick(VIN, THUG)
    sheets[VIN] = add_burden(add_burden(sheets[VIN], "Hunted", "grave"), "Limp", "serious")
    table = Table.start(sheets)
    events = table.do(declare_attack(THUG, VIN, burdens=("hunt", "Limp")), declare_nothing(VIN))
    entries = burden_use_entries(AT, table.state, events, 7, table.sheets, shown=lambda _: True)
    assert [(e.character_id, e.burden, e.hero) for e in entries] == [
        (VIN, "Hunted", "Vin"),
        (VIN, "Limp", "Vin"),
    ]
    assert all(e.kind is EntryKind.BURDEN_USED and e.conflict_id == 7 for e in entries)
    hidden = burden_use_entries(AT, table.state, events, 7, table.sheets, shown=lambda _: False)
    assert [e.public for e in hidden] == [None, None]  # a hidden sheet's Burdens are the Narrator's


def test_a_declaration_without_burdens_journals_none() -> None:
    table = Table.start(pick(VIN, THUG))
    events = table.do(declare_attack(THUG, VIN), declare_nothing(VIN))
    assert burden_use_entries(AT, table.state, events, 7, table.sheets, shown=lambda _: True) == []


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ([], {}),
        ([used(1, "Hunted")], {1: ("Hunted",)}),
        ([used(1, "Hunted"), used(1, "hunted"), used(1, "Limp")], {1: ("Hunted", "Limp")}),
        ([used(1, "Hunted"), used(2, "Hunted")], {1: ("Hunted",), 2: ("Hunted",)}),
    ],
)
def test_each_burden_counts_once_a_night(
    entries: list[JournalEntry], expected: dict[int, tuple[str, ...]]
) -> None:
    assert burdens_used(entries) == expected


@given(
    st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["Hunted", "HUNTED", "Limp", "Scar"])), max_size=30)
)
def test_the_trigger_is_the_count_of_distinct_burdens(uses: list[tuple[int, str]]) -> None:
    proposals = {p.character_id: p for p in propose([used(c, b) for c, b in uses], {1: "A", 2: "B", 3: "C"})}
    for character in (1, 2, 3):
        distinct = {b.casefold() for c, b in uses if c == character}
        assert proposals[character].burden_points == len(distinct)
