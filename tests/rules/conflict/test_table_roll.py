"""An attacker who rolls at the table against a target who may defend (docs/rulings.md §7.2,
§4.10): the defence is committed first, then the attacker's faces settle the Contest."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.conflict import Act, Awaiting, Command, Defend, Pass, Step, Throw
from tests.rules.conflict.builders import (
    THUG,
    VIN,
    Table,
    declare_attack,
    declare_defence,
    of_type,
    pick,
    waiting,
)

FACE = st.integers(1, 6)


def vin_rolls_at_the_table(pool: int = 5) -> Table:
    """Vin (Physique 4 + 3 Traits = 7) attacks the Thug, on full defence, rolling at the table."""
    table = Table.start(pick(VIN, THUG))
    table.do(declare_defence(THUG), declare_attack(VIN, THUG, traits_for=3))
    table.do(Act(participant=VIN, pool=pool, table_roll=True))
    return table


def defence_set(dice: int = 3, faces: tuple[int, ...] | None = (4, 4, 1)) -> Table:
    table = vin_rolls_at_the_table()
    events = table.do(Defend(participant=THUG, dice=dice, defence_faces=faces))
    assert not of_type(events, "resolved")  # nothing is rolled until the attacker's dice come
    assert waiting(events).step is Step.ROLL and waiting(events).participants == (VIN,)
    return table


@pytest.mark.parametrize(
    ("setup", "command", "refusal"),
    [
        # The defence is chosen before anyone rolls (§4.10): no faces while it may still come...
        ("start", Act(participant=VIN, pool=5, faces=(6, 6, 5, 5, 1)), "act with table_dice:true"),
        ("start", Act(participant=VIN, pool=5, faces=(6, 6, 5, 5, 1), table_roll=True), "not both"),
        # ...and the dice it waits for are the attacker's, the pool they acted with.
        ("set", Throw(participant=THUG, faces=(1, 1, 1, 1, 1)), "Only Vin's side gives the dice"),
        ("set", Throw(participant=VIN, faces=(6, 6, 1)), "give 5 faces, not 3"),
        ("set", Throw(participant=VIN, faces=(5, 5, 3, 2, 1), attack_id=9), "already given"),
        ("set", Defend(participant=THUG, dice=2), "already defended"),
        ("set", Pass(participant=THUG), "Vin must first give the dice rolled at the table"),
        ("acted", Throw(participant=VIN, faces=(5, 5, 3, 2, 1)), "No action is waiting for dice"),
    ],
)
def test_what_waits_for_table_dice_refuses(setup: str, command: Command, refusal: str) -> None:
    if setup == "start":
        table = Table.start(pick(VIN, THUG))
        table.do(declare_defence(THUG), declare_attack(VIN, THUG, traits_for=3))
    else:
        table = defence_set() if setup == "set" else vin_rolls_at_the_table()
    table.refuse(command, refusal)


def test_rolling_at_the_table_needs_someone_who_may_resist() -> None:
    table = Table.start(pick(VIN, THUG))
    table.do(declare_defence(THUG), declare_attack(VIN, THUG, traits_for=3, contest=False))
    table.refuse(Act(participant=VIN, pool=5, table_roll=True), "Nobody can resist this action")


def test_the_waiting_attack_keeps_the_defence_it_was_given() -> None:
    table = defence_set(dice=3, faces=(4, 4, 1))
    pending = table.state.pending
    assert pending is not None and pending.awaiting is Awaiting.ROLL
    assert (pending.defence_dice, pending.defence_faces) == (3, (4, 4, 1))
    assert table.dice(THUG) == (0, table.p(THUG).round.defense_dice)  # the 3 dice are spent already


@settings(deadline=None)  # each example plays a fight; a shared machine is slow
@given(
    attack=st.lists(FACE, min_size=5, max_size=5),
    defence=st.one_of(st.just(()), st.lists(FACE, min_size=2, max_size=4)),
)
def test_dice_given_after_the_defence_read_as_if_thrown_with_it(
    attack: list[int], defence: list[int]
) -> None:
    """Whatever both sides throw, the Contest comes out exactly as when the defender's side gave
    the attacker's faces with the defence (the old path): only who types them changed."""
    faces = tuple(defence) or None
    later = defence_set(dice=len(defence), faces=faces)
    later.do(Throw(participant=VIN, faces=tuple(attack)))

    together = Table.start(pick(VIN, THUG))
    together.do(declare_defence(THUG), declare_attack(VIN, THUG, traits_for=3))
    together.do(Act(participant=VIN, pool=5))
    together.do(Defend(participant=THUG, dice=len(defence), attack_faces=tuple(attack), defence_faces=faces))
    [mine] = of_type(later.last.events, "resolved")
    [theirs] = of_type(together.last.events, "resolved")
    assert mine == theirs
    assert later.state.pending == (
        together.state.pending
        and together.state.pending.model_copy(
            update={"table_roll": True, "defence_dice": len(defence), "defence_faces": faces}
        )
    )
    assert later.state.participants == together.state.participants


def test_the_bot_rolls_when_the_attacker_lets_it() -> None:
    table = defence_set()
    events = table.do(Throw(participant=VIN))
    assert of_type(events, "resolved")
    assert table.state.pending is None or table.state.pending.awaiting is Awaiting.NUDGES
