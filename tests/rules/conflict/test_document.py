"""The stored document of a Conflict: ``dump_conflict`` writes exactly the model's JSON, though
it remembers each log entry's text from the move that logged it (``rules.memo``)."""

import pytest

from rules.burdens import Severity
from rules.character import Burden, CharacterKind, Resilience
from rules.conflict import Conflict, ConflictType, dump_conflict, load_conflict
from rules.conflict.specs import Side
from rules.conflict.state import LogEntry, LogKind, Participant


def _entry(number: int, name: str = "Vin") -> LogEntry:
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


def _conflict(stakes: str, log: tuple[LogEntry, ...]) -> Conflict:
    vin = Participant(id=1, name="Vin", kind=CharacterKind.HERO, side=Side.HEROES, wits=4, joined=0, rank=0)
    return Conflict(
        channel_id=7, type=ConflictType.PHYSICAL, stakes=stakes, participants=(vin,), log=log, log_dropped=3
    )


STAKES = ["The bridge", '","log_dropped":9,"x":"', "log_dropped", '\u00e9\u2019 \\" ,']


@pytest.mark.parametrize("stakes", STAKES)
@pytest.mark.parametrize("size", [0, 1, 5])
def test_the_document_is_the_models_json_and_reads_back(stakes: str, size: int) -> None:
    state = _conflict(stakes, tuple(_entry(n) for n in range(size)))
    assert dump_conflict(state) == state.model_dump_json()
    assert load_conflict(dump_conflict(state)) == state


def test_a_log_grown_by_one_entry_is_written_with_it() -> None:
    first = _conflict("The bridge", (_entry(1),))
    dump_conflict(first)
    grown = first.with_log(_entry(2, name="Kelsier"))
    assert dump_conflict(grown) == grown.model_dump_json()
    assert dump_conflict(first) == first.model_dump_json()


def test_a_log_one_longer_but_not_grown_from_a_written_one_is_written_whole() -> None:
    dump_conflict(_conflict("The bridge", (_entry(1),)))
    other = _conflict("The bridge", (_entry(9, name="Marsh"), _entry(2)))
    assert dump_conflict(other) == other.model_dump_json()
