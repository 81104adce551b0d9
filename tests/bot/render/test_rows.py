"""The board's phone rows (``bot.render.rows``, docs/rulings.md §8.7): cut only between a list's
items, the separator kept, never inside a name, a command, parentheses or a sentence."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render.rows import INDENT, ROW_WIDTH, one_line, visible, wrap_row


@pytest.mark.parametrize(
    ("text", "rows"),
    [
        ("**Vin** · waiting · AD 3", ["**Vin** · waiting · AD 3"]),
        (
            "▶ whose move it is · AD Action Dice · DD Defense Dice · the Narrator's characters show",
            ["▶ whose move it is · AD Action Dice · DD Defense Dice ·", "the Narrator's characters show"],
        ),
        (
            "**Vin** · waiting · physical attack → **Straff Venture, Lord of the North** (Health)",
            ["**Vin** · waiting · physical attack →", "**Straff Venture, Lord of the North** (Health)"],
        ),
        (  # an item too long for a row is cut at its arrow
            "**Straff Venture** · waiting · burning Pewter · physical attack → **Vin** (Health)",
            ["**Straff Venture** · waiting · burning Pewter ·", "physical attack → **Vin** (Health)"],
        ),
        (  # a sentence has no place to cut: the phone wraps it as any text
            "Next: Act: **Straff Venture** (12 Action Dice) — `/act` (or `/switch`, or `/pass`) and more",
            ["Next: Act: **Straff Venture** (12 Action Dice) — `/act` (or `/switch`, or `/pass`) and more"],
        ),
        (  # nor a name, nor parentheses, nor code
            "**A · name · that goes on and on and on and on and on and on** (x · y) `a · b` · end",
            ["**A · name · that goes on and on and on and on and on and on** (x · y) `a · b` ·", "end"],
        ),
    ],
)
def test_rows_are_cut_between_items(text: str, rows: list[str]) -> None:
    assert wrap_row(text).split("\n") == [rows[0], *(INDENT + row for row in rows[1:])]


ITEM = st.text(st.sampled_from("abc DEF→"), min_size=1, max_size=70).map(str.strip).filter(bool)


@given(st.lists(ITEM, min_size=1, max_size=12))
def test_rows_read_as_the_line_again_and_only_a_lone_item_overflows(items: list[str]) -> None:
    line = " · ".join(items)
    wrapped = wrap_row(line)
    assert one_line(wrapped) == line
    for row in wrapped.split("\n"):
        lone = " · " not in row.removesuffix(" ·") and " → " not in row.removesuffix(" →")
        assert visible(row) <= ROW_WIDTH or lone, wrapped
