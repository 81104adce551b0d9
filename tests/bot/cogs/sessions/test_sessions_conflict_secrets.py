"""A Conflict's blows in the journal (``bot.records.conflict_entries``): a hidden Villain's
numbers and Burdens stay the Narrator's, as on the board (docs/rulings.md §7.1), and a Hero's are
the table's."""

from datetime import UTC, datetime

from bot.records import conflict_entries
from rules.burdens import Severity
from rules.character import Burden, Resilience
from rules.conflict import events as ev
from rules.journal import NARRATOR, TABLE, EntryKind, line_for
from rules.recap import build_recap
from tests.rules.conflict.keep_hasting import CARROW, THORROW, declared_conflict

AT = datetime(2026, 11, 20, 21, 0, tzinfo=UTC)
RIB = Burden(name="Q7 cracked rib", severity=Severity.SERIOUS)


def blow(attacker: int, target: int) -> ev.DamageDealt:
    return ev.DamageDealt(
        action_id=1,
        attacker=attacker,
        target=target,
        resilience=Resilience.HEALTH,
        nudges=2,
        weapon=1,
        armour=0,
        amount=3,
        taken=3,
        before=8,
        after=5,
        wound=None,
        burdens_added=(RIB,),
        burdens_skipped=(),
        members_lost=0,
    )


def test_a_hidden_villains_wound_and_burden_are_the_narrators() -> None:
    state, sheets = declared_conflict()
    entries = conflict_entries(AT, state, (blow(THORROW, CARROW),), 7, sheets, frozenset())
    damage = next(e for e in entries if e.kind is EntryKind.DAMAGE)
    burden = next(e for e in entries if e.kind is EntryKind.BURDEN_GAINED)
    assert "8 → 5" in (line_for(damage, NARRATOR) or "") and "8 → 5" not in (line_for(damage, TABLE) or "")
    assert line_for(burden, TABLE) is None and "Q7 cracked rib" in (line_for(burden, NARRATOR) or "")
    table, full = build_recap(entries, TABLE), build_recap(entries, NARRATOR)
    assert table.tallies == () and table.burdens_gained == ()
    assert [(t.name, t.damage) for t in full.tallies] == [("Carrow Bylerum", 3)]
    revealed = conflict_entries(AT, state, (blow(THORROW, CARROW),), 7, sheets, frozenset({CARROW}))
    assert [t.name for t in build_recap(revealed, TABLE).tallies] == ["Carrow Bylerum"]


def test_a_heros_wound_is_the_tables() -> None:
    state, sheets = declared_conflict()
    entries = conflict_entries(AT, state, (blow(CARROW, THORROW),), 7, sheets, frozenset())
    recap = build_recap(entries, TABLE)
    assert [(t.name, t.damage) for t in recap.tallies] == [("Thorrow", 3)]
    assert recap.burdens_gained == ("Thorrow took the Serious Burden Q7 cracked rib.",)
