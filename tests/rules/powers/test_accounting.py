"""Charge accounting over any sequence of uses (docs/rulings.md §9.9): never below 0, never past
a metalmind's capacity, a tap never past 10 × the rating, every charge moved written down."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.character import BASIC_METALS, Character, make_character
from rules.character.allomancy import VialForm
from rules.character.feruchemy import Metalmind
from rules.errors import RulesError
from rules.powers.burning import pay_for_conflict, pay_round, set_flare, start_burn, stop_burn
from rules.powers.drinking import drink, poison, refill_vials, set_reserve
from rules.powers.feruchemy import TAP_PER_RATING, TapUse, start_storing, tap, tap_effect
from rules.powers.ledger import Changed, accounted
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
    st.tuples(st.just("tap"), metals, st.integers(1, 60), st.sampled_from(TapUse)),
    st.tuples(st.just("set"), metals, st.integers(0, 12)),
    st.tuples(st.just("poison"), metals),
    st.tuples(st.just("refill")),
)


def twinborn() -> Character:
    powers = [{"type": t, "name": m, "rating": 3} for t in ("allomancy", "feruchemy") for m in BASIC_METALS]
    props = [
        {"name": f"{m} ring", "implement": {"kind": "metalmind", "metal": m, "size": "small", "charges": 20}}
        for m in ("Steel", "Pewter", "Tin")
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
        character = Character.model_validate(changed.character.model_dump())
        assert all(r.charges >= 0 for r in character.allomancy.reserves)
        for prop in character.props:
            if isinstance(prop.implement, Metalmind):
                assert 0 <= prop.implement.charges <= prop.implement.size.capacity
