"""Burning, flaring and drinking in a Conflict, and what they cost (docs/rulings.md §9.2)."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.character import Character
from rules.conflict import Burn, Drink, NextRound, declaration_order
from rules.errors import RulesError
from rules.powers.ledger import Store, charges_held
from tests.rules.conflict.builders import Table, declare_attack, declare_nothing, of_type, sheet

KEL, ATIUM_MAN = 1, 2


def burner(reserves: dict[str, int], *, tracked: bool = True, **fields: Any) -> Character:
    powers = [{"type": "allomancy", "name": m, "rating": 4} for m in ("Pewter", "Steel", "Atium", "Gold")]
    allomancy = {"tracked": tracked, "reserves": [{"metal": m, "charges": c} for m, c in reserves.items()]}
    return sheet("Kel", physique=4, powers=powers, allomancy=allomancy, **fields)


def charges(table: Table, metal: str) -> int:
    return table.sheets[KEL].allomancy.charges(metal)


def end_round(table: Table) -> None:
    """Everyone declares nothing and the round moves on (the flared charges fall due)."""
    table.do(declare_nothing(KEL), NextRound())


@pytest.mark.parametrize(
    ("commands", "left"),
    [
        ([Burn(participant=KEL, metal="Steel")], 4),
        ([Burn(participant=KEL, metal="Steel", flared=True)], 4),
        (  # stopping and starting again costs nothing more
            [
                Burn(participant=KEL, metal="Steel"),
                Burn(participant=KEL, metal="Steel", burning=False),
                Burn(participant=KEL, metal="Steel"),
            ],
            4,
        ),
        ([Burn(participant=KEL, metal="Steel"), Burn(participant=KEL, metal="Steel", flared=True)], 4),
    ],
)
def test_a_burn_costs_one_charge_for_the_whole_conflict(commands: list[Burn], left: int) -> None:
    table = Table.start({KEL: burner({"Steel": 5})})
    table.do(*commands)
    assert charges(table, "Steel") == left
    assert table.p(KEL).burning == tuple(table.sheets[KEL].allomancy.burning)
    assert table.p(KEL).paid == ("Steel",)


def test_the_last_charge_lasts_the_conflict() -> None:
    table = Table.start({KEL: burner({"Steel": 1})})
    table.do(Burn(participant=KEL, metal="Steel"), Burn(participant=KEL, metal="Steel", burning=False))
    table.do(Burn(participant=KEL, metal="Steel"))
    assert charges(table, "Steel") == 0 and table.p(KEL).burning == ("Steel",)


def test_an_empty_reserve_cannot_start_a_burn_and_nothing_changes() -> None:
    table = Table.start({KEL: burner({"Steel": 0, "Pewter": 2})})
    table.refuse(Burn(participant=KEL, metal="Steel"), "no Steel left")


@pytest.mark.parametrize(
    ("metal", "flared", "rounds", "left", "burning", "still_flared"),
    [
        ("Steel", False, 3, 4, True, False),  # unflared: the start's charge only
        ("Steel", True, 2, 2, True, True),  # 1 to start, 1 each new round flared
        ("Steel", True, 4, 0, True, True),
        ("Steel", True, 5, 0, True, False),  # a flare that cannot be paid dies down
        ("Atium", False, 4, 0, True, False),  # Atium pays each round
        ("Atium", False, 5, 0, False, False),  # and ends when it cannot
    ],
)
def test_each_round_flared_metals_and_atium_pay(
    metal: str, flared: bool, rounds: int, left: int, burning: bool, still_flared: bool
) -> None:
    table = Table.start({KEL: burner({metal: 5})})
    table.do(Burn(participant=KEL, metal=metal, flared=flared))
    for _ in range(rounds):
        end_round(table)
    assert charges(table, metal) == left
    assert (metal in table.p(KEL).burning) is burning
    assert (metal in table.p(KEL).flared) is still_flared
    assert table.p(KEL).burning == tuple(sorted(table.sheets[KEL].allomancy.burning))


def test_atium_that_runs_dry_is_told_with_the_burns_that_go_on() -> None:
    table = Table.start({KEL: burner({"Pewter": 1, "Atium": 1})})
    table.do(Burn(participant=KEL, metal="Pewter"), Burn(participant=KEL, metal="Atium"))
    events = table.do(declare_nothing(KEL), NextRound())
    [moved] = of_type(events, "charges_moved")
    assert moved.ended == ("Atium",) and table.p(KEL).burning == ("Pewter",)


def test_an_uncounted_sheet_burns_for_nothing() -> None:
    table = Table.start({KEL: burner({}, tracked=False)})
    events = table.do(Burn(participant=KEL, metal="Atium"))
    end_round(table)
    assert not of_type(events, "charges_moved") and table.p(KEL).burning == ("Atium",)


def test_one_vial_a_round() -> None:
    vial = {"name": "Steel vial", "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3}}
    table = Table.start({KEL: burner({"Steel": 0}, props=[vial, vial])})
    events = table.do(Drink(participant=KEL, vial="Steel vial"))
    assert charges(table, "Steel") == 3
    [moved] = of_type(events, "charges_moved")
    assert {m.store for m in moved.moves} == {Store.VIAL, Store.RESERVE}
    table.refuse(Drink(participant=KEL, vial="Steel vial"), "one a round")
    end_round(table)
    table.do(Drink(participant=KEL, vial="Steel vial"))
    assert charges(table, "Steel") == 6


@settings(max_examples=40, deadline=None)
@given(
    start=st.integers(0, 6),
    plan=st.lists(st.sampled_from(["burn", "flare", "stop", "round"]), max_size=12),
)
def test_every_charge_spent_is_in_an_event_and_none_below_zero(start: int, plan: list[str]) -> None:
    """Hypothesis: whatever is done, the reserve never goes below 0, the participant mirrors the
    sheet, and the charges events account for the whole difference (§9.9)."""
    table = Table.start({KEL: burner({"Steel": start})})
    before = charges_held(table.sheets[KEL])
    moved = 0
    for step in plan:
        command: Burn | None = {
            "burn": Burn(participant=KEL, metal="Steel"),
            "flare": Burn(participant=KEL, metal="Steel", flared=True),
            "stop": Burn(participant=KEL, metal="Steel", burning=False),
        }.get(step)
        try:
            events = table.do(declare_nothing(KEL), NextRound()) if command is None else table.do(command)
        except RulesError:  # a refused step changes nothing
            continue
        moved += sum(m.delta for e in of_type(events, "charges_moved") for m in e.moves)
        assert charges(table, "Steel") >= 0
        assert table.p(KEL).burning == tuple(sorted(table.sheets[KEL].allomancy.burning))
    after = charges_held(table.sheets[KEL])
    assert sum(after.values()) - sum(before.values()) == moved


@pytest.mark.parametrize(
    ("held", "left", "burning"),
    [(3, 2, ("Pewter",)), (0, 0, ())],
)
def test_a_character_who_joins_burning_pays_for_the_conflict_or_goes_out(
    held: int, left: int, burning: tuple[str, ...]
) -> None:
    lit = burner({"Pewter": held})
    lit = lit.model_copy(update={"allomancy": lit.allomancy.model_copy(update={"burning": ("Pewter",)})})
    table = Table.start({KEL: lit})
    assert charges(table, "Pewter") == left
    assert table.p(KEL).burning == burning == table.sheets[KEL].allomancy.burning
    assert table.p(KEL).paid == ("Pewter",)


@pytest.mark.parametrize(("flared", "dice"), [(False, 4), (True, 5)])
def test_a_flared_metal_rolls_one_die_more_in_the_conflict(flared: bool, dice: int) -> None:
    """The sheet flares what the Conflict flares, so the Conflict's dice see it (§9.2)."""
    table = Table.start({KEL: burner({"Steel": 5}), 9: sheet("Guard", "villain")})
    table.do(Burn(participant=KEL, metal="Steel", flared=flared))
    for participant in declaration_order(table.state):
        mover = participant.id
        table.do(declare_attack(KEL, 9, "Steel") if mover == KEL else declare_nothing(mover))
    assert table.dice(KEL)[0] == dice
