"""The stored document of a Conflict: ``dump_conflict`` writes exactly the model's JSON, though
it remembers each log entry's text from the move that logged it (``rules.memo``); a move's undo
keeps the document it was made from without its log, which the log it wrote gives back."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.burdens import Severity
from rules.character import Burden, CharacterKind, Resilience
from rules.conflict import Conflict, ConflictType, dump_conflict, load_conflict, with_log_of, without_log
from rules.conflict.specs import Side
from rules.conflict.state import MAX_LOG, LogEntry, LogKind, Participant


def log_entry(number: int, name: str = "Vin") -> LogEntry:
    return LogEntry(
        kind=LogKind.DAMAGE,
        round=number,
        attacker=1,
        attacker_name=name,
        target=2,
        target_name='Thug "the" \\ Brute',
        resilience=Resilience.HEALTH,
        amount=number,
        taken=number,
        wound=Severity.SERIOUS if number % 2 else None,
        burdens=(Burden(name="Cut", severity=Severity.SERIOUS),) if number % 3 == 0 else (),
    )


def a_conflict(stakes: str, log: tuple[LogEntry, ...]) -> Conflict:
    vin = Participant(id=1, name="Vin", kind=CharacterKind.HERO, side=Side.HEROES, wits=4, joined=0, rank=0)
    return Conflict(
        channel_id=7, type=ConflictType.PHYSICAL, stakes=stakes, participants=(vin,), log=log, log_dropped=3
    )


STAKES = ["The bridge", '","log_dropped":9,"x":"', "log_dropped", '\u00e9\u2019 \\" ,']


@pytest.mark.parametrize("stakes", STAKES)
@pytest.mark.parametrize("size", [0, 1, 5])
def test_the_document_is_the_models_json_and_reads_back(stakes: str, size: int) -> None:
    state = a_conflict(stakes, tuple(log_entry(n) for n in range(size)))
    assert dump_conflict(state) == state.model_dump_json()
    assert load_conflict(dump_conflict(state)) == state


def test_a_log_grown_by_one_entry_is_written_with_it() -> None:
    first = a_conflict("The bridge", (log_entry(1),))
    dump_conflict(first)
    grown = first.with_log(log_entry(2, name="Kelsier"))
    assert dump_conflict(grown) == grown.model_dump_json()
    assert dump_conflict(first) == first.model_dump_json()


def test_a_log_one_longer_but_not_grown_from_a_written_one_is_written_whole() -> None:
    dump_conflict(a_conflict("The bridge", (log_entry(1),)))
    other = a_conflict("The bridge", (log_entry(9, name="Marsh"), log_entry(2)))
    assert dump_conflict(other) == other.model_dump_json()


@pytest.mark.parametrize("stakes", STAKES)
@pytest.mark.parametrize(("size", "added"), [(1, 0), (1, 1), (5, 2)])
def test_a_document_kept_without_its_log_is_whole_again_from_the_log_a_move_wrote(
    stakes: str, size: int, added: int
) -> None:
    before = a_conflict(stakes, tuple(log_entry(n) for n in range(size)))
    document = dump_conflict(before)
    after = before
    for n in range(added):
        after = after.with_log(log_entry(100 + n, name="Kelsier"))
    after = after.model_copy(update={"round": 3})
    cut = without_log(document, before, after)
    assert cut is not None and len(cut.document) < len(document) and cut.taken == size
    assert load_conflict(cut.document) == before.model_copy(update={"log": ()})
    assert with_log_of(cut.document, dump_conflict(after), cut.taken) == document


def test_a_log_that_is_not_the_one_before_grown_is_never_cut() -> None:
    before = a_conflict("The bridge", tuple(log_entry(n) for n in range(3)))
    document = dump_conflict(before)
    assert without_log(document, a_conflict("The bridge", ()), before) is None  # nothing to cut
    rewritten = before.model_copy(update={"log": tuple(log_entry(n) for n in range(3))})
    assert without_log(document, before, rewritten) is None  # the same entries, not these ones
    dropped = before.model_copy(update={"log_dropped": before.log_dropped + 1})
    assert without_log(document, before, dropped) is None  # said to have dropped one, but did not
    assert without_log(document.replace("Vin", "Kel"), before, before) is None  # not its document


@pytest.mark.parametrize("added", [1, 3])
def test_a_full_log_that_drops_its_oldest_keeps_only_those_and_is_whole_again(added: int) -> None:
    before = a_conflict("The bridge", tuple(log_entry(n) for n in range(MAX_LOG)))
    document = dump_conflict(before)
    after = before
    for n in range(added):
        after = after.with_log(log_entry(MAX_LOG + n, name="Kelsier"))
    cut = without_log(document, before, after)
    assert cut is not None and cut.taken == MAX_LOG - added
    assert load_conflict(cut.document).log == before.log[:added]
    assert with_log_of(cut.document, dump_conflict(after), cut.taken) == document


def test_a_log_whose_every_entry_was_pushed_out_is_kept_whole() -> None:
    before = a_conflict("The bridge", tuple(log_entry(n) for n in range(2)))
    after = before.model_copy(update={"log": (log_entry(7),), "log_dropped": before.log_dropped + 2})
    assert without_log(dump_conflict(before), before, after) is None


def test_a_full_log_that_drops_its_oldest_is_written_as_the_model_writes_it() -> None:
    state = a_conflict("The bridge", tuple(log_entry(n) for n in range(MAX_LOG)))
    assert dump_conflict(state) == state.model_dump_json()
    for n in range(3):
        state = state.with_log(log_entry(MAX_LOG + n, name="Kelsier"))
        assert len(state.log) == MAX_LOG
        assert dump_conflict(state) == state.model_dump_json()


@settings(max_examples=60, deadline=None)
@given(
    start=st.integers(min_value=0, max_value=6),
    steps=st.lists(st.tuples(st.integers(min_value=0, max_value=7), st.booleans()), max_size=8),
)
def test_a_log_grown_from_one_written_before_is_written_as_the_model_writes_it(
    start: int, steps: list[tuple[int, bool]]
) -> None:
    """Each step adds one entry and drops ``gone`` of the oldest (a full log drops one), or, when
    it says so, starts over from a log no move grew (which must be written whole)."""
    log = tuple(log_entry(n) for n in range(start))
    state = a_conflict("The bridge", log)
    dump_conflict(state)
    for number, (gone, fresh) in enumerate(steps, start=1000):
        kept = tuple(log_entry(n) for n in range(gone)) if fresh else state.log[gone:]
        state = state.model_copy(update={"log": (*kept, log_entry(number, name="Kelsier"))})
        assert dump_conflict(state) == state.model_dump_json()
