"""The Advancements ledger (docs/rulings.md §10.1): awards held up to 20 and the rest lost, one
spend per Long Breather, and a ledger that always adds up."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.character.advancement import (
    AWARD_MAX,
    HOLD_MAX,
    Advancements,
    award,
    ledger_line,
    open_spend,
    spend,
    take_back,
)
from rules.errors import RulesError


def held(count: int, *, open_: bool = False) -> Advancements:
    return Advancements(held=count, earned=count, spend_open=open_)


@pytest.mark.parametrize(
    ("before", "amount", "after", "lost"),
    [
        (0, 1, 1, 0),
        (0, 3, 3, 0),
        (17, 3, 20, 0),
        (18, 3, 20, 1),
        (20, 1, 20, 1),
        (20, 5, 20, 5),
        (0, 25, 20, 5),
        (5, AWARD_MAX, 20, AWARD_MAX - 15),
    ],
)
def test_an_award_holds_up_to_twenty_and_loses_the_rest(
    before: int, amount: int, after: int, lost: int
) -> None:
    result = award(held(before), amount)
    assert (result.ledger.held, result.gained, result.lost) == (after, after - before, lost)
    assert result.ledger.earned == before + amount and result.ledger.lost == lost


@pytest.mark.parametrize("amount", [0, -1, AWARD_MAX + 1])
def test_an_award_out_of_range_is_refused(amount: int) -> None:
    with pytest.raises(RulesError, match="An award is 1 to"):
        award(held(3), amount)


@pytest.mark.parametrize(
    ("count", "open_", "cost", "refusal"),
    [
        (10, False, 5, "no spend open"),
        (4, True, 5, "That costs 5; Vin holds 4 Advancements"),
        (1, True, 2, "holds 1 Advancement."),
    ],
)
def test_a_spend_needs_a_spend_open_and_enough_held(count: int, open_: bool, cost: int, refusal: str) -> None:
    with pytest.raises(RulesError, match=refusal):
        spend(held(count, open_=open_), cost, name="Vin")


def test_a_spend_closes_the_breather_s_one_improvement() -> None:
    after = spend(held(12, open_=True), 5, name="Vin")
    assert (after.held, after.spent, after.spend_open) == (7, 5, False)
    with pytest.raises(RulesError, match="no spend open"):
        spend(after, 2, name="Vin")
    assert spend(open_spend(open_spend(after)), 2, name="Vin").held == 5  # two Breathers, still one spend


def test_a_correction_takes_back_only_what_is_held() -> None:
    assert take_back(held(5), 2) == Advancements(held=3, earned=3)
    with pytest.raises(RulesError, match="Only 1 Advancement held"):
        take_back(held(1), 2)


def test_a_ledger_that_does_not_add_up_is_refused() -> None:
    with pytest.raises(ValueError, match="does not add up"):
        Advancements(held=5, earned=3)
    with pytest.raises(ValueError, match="Advancements held"):
        Advancements(held=21, earned=21)


def test_the_ledger_reads_as_a_line() -> None:
    ledger = Advancements(held=7, earned=14, spent=5, lost=2, spend_open=True)
    assert ledger_line(ledger) == "7 held of 20 (14 earned, 5 spent, 2 lost over 20) · a spend is open"


STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("award"), st.integers(1, AWARD_MAX)),
        st.tuples(st.just("spend"), st.integers(1, 20)),
        st.tuples(st.just("take_back"), st.integers(1, 10)),
        st.tuples(st.just("breather"), st.just(0)),
    ),
    max_size=40,
)


@given(STEPS)
def test_whatever_happens_the_ledger_adds_up_and_never_holds_more_than_twenty(
    steps: list[tuple[str, int]],
) -> None:
    ledger = Advancements()
    for step, amount in steps:
        try:
            if step == "award":
                result = award(ledger, amount)
                assert result.gained + result.lost == amount
                assert result.lost == max(0, ledger.held + amount - HOLD_MAX)
                ledger = result.ledger
            elif step == "spend":
                before = ledger
                ledger = spend(ledger, amount, name="Vin")
                assert before.spend_open and ledger.held == before.held - amount and not ledger.spend_open
            elif step == "take_back":
                ledger = take_back(ledger, amount)
            else:
                ledger = open_spend(ledger)
        except RulesError:
            pass
        assert 0 <= ledger.held <= HOLD_MAX
        assert ledger.held == ledger.earned - ledger.spent - ledger.lost
        assert Advancements.model_validate(ledger.model_dump()) == ledger
