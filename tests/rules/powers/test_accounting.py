"""Charge accounting over any sequence of uses (docs/rulings.md §9.9): never below 0, never past
a metalmind's capacity, a tap never past 10 × the rating, every charge moved written down, and the
journal's line saying the same totals as the moves."""

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.character import BASIC_METALS, Character, make_character
from rules.character.allomancy import VialForm
from rules.character.feruchemy import Metalmind
from rules.errors import RulesError
from rules.powers.burning import pay_for_conflict, pay_round, set_flare, start_burn, stop_burn
from rules.powers.drinking import drink, poison, refill_vials, set_reserve
from rules.powers.feruchemy import (
    TAP_PER_RATING,
    TapUse,
    start_storing,
    store_in_breather,
    tap,
    tap_effect,
)
from rules.powers.ledger import Changed, Move, Store, Why, accounted, moves_line
from rules.powers.time import move_time
from tests.rules.powers.sheets import with_vial

metals = st.sampled_from(BASIC_METALS)
steps = st.one_of(
    st.tuples(st.just("drink"), st.sampled_from(["Steel vial", "Mistborn vial"])),
    st.tuples(st.just("burn"), metals, st.booleans()),
    st.tuples(st.just("flare"), metals, st.booleans()),
    st.tuples(st.just("stop"), metals),
    st.tuples(st.just("conflict"), metals),
    st.tuples(st.just("round")),
    st.tuples(st.just("time"), st.integers(1, 600)),
    st.tuples(st.just("store"), metals),
    st.tuples(st.just("breather"), metals, st.sampled_from(["short", "long"])),
    st.tuples(st.just("tap"), metals, st.integers(1, 60), st.sampled_from(TapUse)),
    st.tuples(st.just("set"), metals, st.integers(0, 12)),
    st.tuples(st.just("poison"), metals),
    st.tuples(st.just("refill")),
)


def twinborn() -> Character:
    powers = [{"type": t, "name": m, "rating": 3} for t in ("allomancy", "feruchemy") for m in BASIC_METALS]
    props = [
        {"name": f"{m} ring", "implement": {"kind": "metalmind", "metal": m, "size": "small", "charges": 20}}
        for m in ("Steel", "Steel", "Pewter", "Tin")
    ]
    base = make_character(
        {
            "name": "Miles",
            "kind": "villain",
            "owner_id": 1,
            "attributes": {"physique": 6, "charm": 4, "wits": 6},
            "standings": {"resources": 4, "influence": 4, "spirit": 4},
            "powers": powers,
            "props": props,
        }
    )
    base = with_vial(base, "Steel vial", VialForm.VIAL, "Steel")
    return with_vial(base, "Mistborn vial", VialForm.VIAL, *BASIC_METALS)


def _step(character: Character, step: tuple) -> Changed:  # type: ignore[type-arg]
    match step:
        case ("drink", name):
            return drink(character, name)
        case ("burn", name, flared):
            return start_burn(character, name, flared=flared)
        case ("flare", name, flared):
            return set_flare(character, name, flared)
        case ("stop", name):
            return stop_burn(character, name)
        case ("conflict", name):
            return pay_for_conflict(character, name)
        case ("round",):
            return pay_round(character)
        case ("time", minutes):
            return move_time(character, minutes)
        case ("store", name):
            return Changed(character=start_storing(character, name))
        case ("breather", name, kind):
            return store_in_breather(character, name, kind)
        case ("tap", name, charges, use):
            effect = tap_effect(character, name, charges, use)
            assert effect.charges <= TAP_PER_RATING * 3
            return tap(character, effect)
        case ("set", name, charges):
            return set_reserve(character, name, charges)
        case ("poison", name):
            return poison(character, name)
        case _:
            return refill_vials(character)


@settings(max_examples=60, deadline=None)
@given(st.lists(steps, max_size=25))
def test_every_charge_is_accounted_and_within_bounds(plan: list[tuple]) -> None:  # type: ignore[type-arg]
    character = twinborn()
    for step in plan:
        try:
            changed = _step(character, step)
        except RulesError:
            continue
        assert accounted(character, changed), step
        assert _line_totals(moves_line("Miles", changed.moves)) == _move_totals(changed.moves), step
        character = Character.model_validate(changed.character.model_dump())
        assert all(r.charges >= 0 for r in character.allomancy.reserves)
        for prop in character.props:
            if isinstance(prop.implement, Metalmind):
                assert 0 <= prop.implement.charges <= prop.implement.size.capacity


_PART = re.compile(r"(?:(?P<prop>[^:]+): )?(?P<delta>[+-]\d+) (?P<metal>\w+) \((?P<why>[^)]+)\)")
_VIAL = re.compile(r"(?P<prop>.+?)(?: ×(?P<count>\d+))? (?P<why>drunk|refilled)")


def _line_totals(line: str | None) -> dict[tuple[str | None, str, str], int]:
    """What the journal's line says moved: charges by Prop, metal and reason, and vials by name."""
    said: dict[tuple[str | None, str, str], int] = {}
    if line is None:
        return said
    assert line.startswith("Miles: ") and line.endswith(".")
    for part in line.removeprefix("Miles: ").removesuffix(".").split("; "):
        if charges := _PART.fullmatch(part):
            key, count = (charges["prop"], charges["metal"], charges["why"]), int(charges["delta"])
        else:
            vial = _VIAL.fullmatch(part)
            assert vial, part
            key, count = (vial["prop"], "vials", vial["why"]), int(vial["count"] or 1)
        assert key not in said, f"{part} said twice"
        said[key] = count
    return said


def _move_totals(moves: tuple[Move, ...]) -> dict[tuple[str | None, str, str], int]:
    """The moves' own totals, by Prop, metal and reason; a vial counted once per time it moved,
    whatever metals it held."""
    totals: Counter[tuple[str | None, str, str]] = Counter()
    vials: Counter[tuple[str | None, str, str]] = Counter()
    for move in moves:
        if move.store is Store.VIAL:
            vials[(move.prop, move.metal, move.why.value)] += 1
        else:
            totals[(move.prop, move.metal, move.why.value)] += move.delta
    said = {key: total for key, total in totals.items() if total}
    for (prop, _, why), count in vials.items():
        key = (prop, "vials", why)
        said[key] = max(said.get(key, 0), count)
    return said


def test_two_metalminds_of_one_name_filled_alike_are_both_counted() -> None:
    """Two Tinminds filled by 25 each store 50: the line says 50, not 25 (§9.9)."""
    moves = tuple(
        Move(metal="Tin", store=Store.METALMIND, delta=25, why=Why.STORED, prop="Tinmind") for _ in range(2)
    )
    assert moves_line("Sazed", moves) == "Sazed: Tinmind: +50 Tin (stored)."


def test_a_mistborn_vial_is_said_once_and_two_vials_of_one_name_twice() -> None:
    drunk = tuple(
        move
        for m in ("Iron", "Steel")
        for move in (
            Move(metal=m, store=Store.VIAL, delta=-1, why=Why.DRUNK, prop="Mistborn vial"),
            Move(metal=m, store=Store.RESERVE, delta=1, why=Why.DRUNK),
        )
    )
    assert moves_line("Vin", drunk) == "Vin: Mistborn vial drunk; +1 Iron (drunk); +1 Steel (drunk)."
    refilled = tuple(
        Move(metal="Steel", store=Store.VIAL, delta=3, why=Why.REFILLED, prop="Steel vial") for _ in range(2)
    )
    assert moves_line("Vin", refilled) == "Vin: Steel vial ×2 refilled."


def test_a_long_breather_filling_two_metalminds_of_one_name_says_all_it_stored() -> None:
    miles = twinborn()
    changed = store_in_breather(miles, "Steel", "long")
    assert [m.delta for m in changed.moves] == [5, 5]
    assert moves_line("Miles", changed.moves) == "Miles: Steel ring: +10 Steel (stored)."
