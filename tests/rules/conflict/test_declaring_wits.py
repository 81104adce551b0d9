"""The Wits a character declares by (docs/rulings.md §9.4–§9.6): the derived Wits (a Copper spike
+1, Presence +2 up to 8), Awareness +2 for the order, less storing Zinc or Bronze; read in one
place (``rules.powers.mental.declaring_wits``) when a character joins a Conflict."""

from typing import Any

import pytest

from rules.character import Character, make_character
from rules.conflict import declaration_order
from rules.powers.mental import declaring_wits
from tests.rules.conflict.builders import KELL, THUG, VIN, Table, pick

COPPER = {"metal": "Copper"}


def _with(sheet: Character, **update: Any) -> Character:
    return make_character(**{**sheet.model_dump(exclude={"id"}), **update})


def _kelsier(
    wits: int, spikes: int = 0, blessings: tuple[str, ...] = (), storing: tuple[tuple[str, int], ...] = ()
) -> Character:
    kell = pick(KELL)[KELL]
    attributes = {**kell.attributes.model_dump(), "wits": wits}
    return _with(
        kell,
        attributes=attributes,
        hemalurgy={"spikes": [COPPER] * spikes, "blessings": list(blessings)},
        feruchemy={"storing": [{"metal": m, "rate": r} for m, r in storing]},
    )


@pytest.mark.parametrize(
    ("wits", "spikes", "blessings", "storing", "expected"),
    [
        (5, 0, (), (), 5),
        (5, 1, (), (), 6),  # a Copper spike: +1 Wits
        (5, 2, (), (), 7),
        (5, 0, ("presence",), (), 7),  # Presence +2 ...
        (7, 0, ("presence",), (), 8),  # ... up to 8
        (9, 0, ("presence",), (), 9),  # a higher rating stays
        (5, 1, ("presence",), (), 8),  # spike first, then Presence to 8
        (5, 0, ("awareness",), (), 7),  # Awareness +2 for the order, past 8 if need be
        (7, 0, ("awareness", "presence"), (), 10),
        (5, 0, ("awareness",), (("Zinc", 2),), 5),  # storing Zinc takes its rate off
        (5, 1, (), (("Zinc", 2), ("Bronze", 4)), 0),  # never below 0
        (3, 0, (), (("Bronze", 1),), 2),
    ],
)
def test_declaring_wits_counts_spikes_blessings_and_storing(
    wits: int, spikes: int, blessings: tuple[str, ...], storing: tuple[tuple[str, int], ...], expected: int
) -> None:
    assert declaring_wits(_kelsier(wits, spikes, blessings, storing)) == expected


@pytest.mark.parametrize(
    ("blessings", "spikes", "order"),
    [
        ((), 0, [THUG, KELL, VIN]),  # lowest first: Thug 2, Kelsier 3, Vin 4
        (("awareness",), 0, [THUG, VIN, KELL]),  # Kelsier 5 declares after Vin
        (("presence",), 0, [THUG, VIN, KELL]),
        ((), 2, [THUG, VIN, KELL]),  # two Copper spikes: Kelsier 5
    ],
)
def test_joining_a_conflict_takes_the_derived_wits(
    blessings: tuple[str, ...], spikes: int, order: list[int]
) -> None:
    sheets = pick(VIN, KELL, THUG)
    sheets[KELL] = _kelsier(3, spikes, blessings)
    table = Table.start(sheets, begin=False)
    assert table.p(KELL).wits == declaring_wits(sheets[KELL])
    assert [p.id for p in declaration_order(table.state)] == order


def test_a_blessed_kandra_declares_after_a_sharper_villain() -> None:
    """Kelsier at Wits 3 declares before a Thug of Wits 4; Awareness (5) puts him after."""
    sheets = pick(VIN, KELL, THUG)
    sheets[THUG] = _with(sheets[THUG], attributes={**sheets[THUG].attributes.model_dump(), "wits": 4})
    plain = Table.start({**sheets, KELL: _kelsier(3)}, begin=False)
    blessed = Table.start({**sheets, KELL: _kelsier(3, blessings=("awareness",))}, begin=False)
    assert declaration_order(plain.state)[0].id == KELL
    assert declaration_order(blessed.state)[-1].id == KELL
