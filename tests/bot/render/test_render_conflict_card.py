"""The board card stays within Discord's limits for every cast: 40 components and 4000
characters of text per layout message, whoever is up keeps their buttons, and nobody is lost
without being counted ("…and N more"); and the JSON it is drawn as is discord.py's own
serialisation of the same components, key for key."""

import re
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cogs.conflict.answers import Prompt
from bot.cogs.conflict.prompt_buttons import prompt_items
from bot.cogs.conflict.turns import turn_of
from bot.render.buttons import board_items, defend_button, react_traits_select
from bot.render.card_plan import MAX_COMPONENTS, MAX_TEXT, Entry, plan_card
from bot.render.conflict_card import CardButtons, draw_board, ended_card
from bot.render.rows import one_line
from bot.render.visibility import FULL
from bot.secrecy import visibility_of
from bot.workers.board_state import between_rounds
from rules.character import make_character
from rules.conflict import MAX_PARTICIPANTS, Conflict, Phase
from testbed.cards import as_discord_py_writes_it
from tests.rules.conflict.builders import Table

JSON = dict[str, Any]
NASTY = "*_~`|\\>@everyone<@123456789012345678>"
WORST_TURN = 14
"""An act turn: ten pool sizes and "New action…" (11 buttons in 3 rows)."""


def counted(components: list[JSON]) -> tuple[int, int]:
    """Components (recursively, as Discord counts them) and characters of text displays."""
    count = text = 0
    for component in components:
        count += 1
        if component.get("type") == 10:
            text += len(component["content"])
        inner, chars = counted(component.get("components") or [])
        count, text = count + inner, text + chars
        if isinstance(component.get("accessory"), dict):
            inner, chars = counted([component["accessory"]])
            count, text = count + inner, text + chars
    return count, text


def texts(components: list[JSON]) -> list[str]:
    found: list[str] = []
    for component in components:
        if component.get("type") == 10:
            found.append(component["content"])
        found += texts(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            found += texts([component["accessory"]])
    return found


entries = st.lists(
    st.builds(
        Entry,
        full=st.integers(1, 400),
        compact=st.integers(1, 200),
        portrait=st.booleans(),
        side=st.integers(0, 1),
    ),
    max_size=MAX_PARTICIPANTS,
)


@given(entries, st.integers(0, 25), st.integers(0, WORST_TURN), st.integers(5, 9), st.integers(0, 1500))
def test_the_plan_keeps_everyone_counted_and_within_limits(
    cast: list[Entry], up: int, buttons: int, fixed: int, fixed_text: int
) -> None:
    if cast and buttons:
        cast[up % len(cast)] = replace(cast[up % len(cast)], buttons=buttons)
    plan = plan_card(cast, fixed_components=fixed, fixed_text=fixed_text)
    sides = len({e.side for e in cast})
    used = fixed + sides + sum(e.buttons for e in cast)
    used += sum(3 if i in plan.portraits else 1 for i in plan.full)
    assert used <= MAX_COMPONENTS
    text = fixed_text + sum(cast[i].full for i in plan.full) + sum(cast[i].compact + 1 for i in plan.compact)
    assert text + sides * len("\n…and 25 more") <= MAX_TEXT
    assert len(plan.full) + len(plan.compact) + sum(plan.more.values()) == len(cast)
    assert not set(plan.full) & set(plan.compact) and plan.portraits <= plan.full
    assert all(i in plan.full for i, e in enumerate(cast) if e.buttons), "whoever is up keeps their buttons"
    order = [i for i, e in enumerate(cast) if not e.buttons]
    shown = [i in plan.full for i in order]
    assert shown == sorted(shown, reverse=True), "the first in order are shown in full, the rest after"


def crowd(size: int, name_length: int, villains: bool) -> Table:
    sheets = {
        i: make_character(
            name=(f"{i:02d}" + NASTY * 3)[:name_length] or f"{i}",
            kind="villain" if villains and i % 2 == 0 else "hero",
            owner_id=1 if villains and i % 2 == 0 else 100 + i,
        )
        for i in range(1, size + 1)
    }
    return Table.start(sheets, begin=size > 0)


def test_the_ended_board_is_discord_pys_body() -> None:
    components: list[JSON] = ended_card().to_components()
    assert as_discord_py_writes_it(components) == components


def portraits(state: Conflict) -> dict[int, str]:
    """A portrait address for every participant, as ``bot.render.portraits.portrait_urls`` gives."""
    return {p.id: f"https://cdn.example/{p.id}.png" for p in state.participants}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, MAX_PARTICIPANTS),
    st.integers(2, 64),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["declare", "act", "defend"]),
)
def test_every_cast_fits_one_card(
    size: int, name_length: int, with_portraits: bool, villains: bool, step: str
) -> None:
    table = crowd(size, name_length, villains)
    state, sheets = table.state, table.sheets
    view = visibility_of(state, sheets, frozenset())
    turn = turn_of(state, sheets, view) if size else None
    up: int | None = None
    items: list[Any] = []
    if turn is not None and step == "act":
        turn = replace(turn, step="act", act_with=tuple(range(2, 11)), held=10)
    if turn is not None and step == "defend":
        up = turn.participant
        traits = react_traits_select(1, 9, ("Quick", "Strong"))
        items = [*(defend_button(1, 9, dice) for dice in (0, *range(2, 11))), traits]
    elif turn is not None:
        up, items = turn.participant, prompt_items(Prompt(1, turn=turn))
    # Between rounds the board's foot also holds the Narrator's menu of every fighter (§4.18).
    fighters = tuple((p.id, p.name) for p in state.participants) if between_rounds(state) else ()
    buttons = CardButtons(up, items, board_items(1, state.phase is Phase.GATHER, False, fighters))
    drawn = draw_board(state, sheets, view, buttons, portraits(state) if with_portraits else None)
    components: list[JSON] = drawn.view.to_components()
    assert as_discord_py_writes_it(components) == components
    count, text = counted(components)
    assert count <= MAX_COMPONENTS and text <= MAX_TEXT
    said = one_line("\n".join(texts(components)))
    hidden = {f"{p.id:02d}" for p in state.participants if not view.shows(p.id)}
    for row in (row for text in texts(components) for row in one_line(text).split("\n")):
        who = row.removeprefix("▶ ").removeprefix("**")[:2]
        if row.removeprefix("▶ ").startswith("**") and who in hidden:  # a hidden villain's own row
            assert not re.search(r"AD \d|DD \d|Health \d", row), row
    more = sum(drawn.plan.more.values())
    assert len(drawn.plan.full) + len(drawn.plan.compact) + more == size
    if more:
        assert "more" in said
    if up is not None:
        ids = [str(c.get("custom_id")) for c in _controls(components)]
        assert all(str(item.custom_id) in ids for item in items), "the turn's buttons are on the card"


def _controls(components: list[JSON]) -> list[JSON]:
    found: list[JSON] = []
    for component in components:
        if "custom_id" in component:
            found.append(component)
        found += _controls(component.get("components") or [])
    return found


def test_twenty_fighters_fit_with_portraits_and_an_act_turn() -> None:
    """The case docs/architecture.md describes: 20 fighters, each with a portrait, one acting."""
    table = crowd(20, 64, villains=True)
    state, sheets = table.state, table.sheets
    view = visibility_of(state, sheets, frozenset())
    turn = turn_of(state, sheets, view)
    assert turn is not None
    items = prompt_items(Prompt(1, turn=turn))
    drawn = draw_board(
        state, sheets, view, CardButtons(turn.participant, items, board_items(1)), portraits(state)
    )
    components: list[JSON] = drawn.view.to_components()
    count, text = counted(components)
    assert count <= MAX_COMPONENTS and text <= MAX_TEXT
    assert len(drawn.plan.full) + len(drawn.plan.compact) == 20 and not drawn.plan.more
    assert drawn.plan.portraits and len(drawn.plan.portraits) < 20


def test_a_hidden_villain_shows_no_portrait_on_the_public_card() -> None:
    """Like its numbers (and as on the web view), a secret Villain's portrait is the Narrator's."""
    table = crowd(4, 10, villains=True)
    state, sheets = table.state, table.sheets
    public = visibility_of(state, sheets, frozenset())
    assert any(not public.shows(p.id) for p in state.participants)
    for view, expected in ((public, {p.id for p in state.participants if public.shows(p.id)}), (FULL, None)):
        drawn = draw_board(state, sheets, view, None, portraits(state))
        components: list[JSON] = drawn.view.to_components()
        urls = {c["media"]["url"] for c in _walk(components) if c.get("type") == 11}
        ids = expected if expected is not None else {p.id for p in state.participants}
        assert urls == {f"https://cdn.example/{pid}.png" for pid in ids}


def _walk(components: list[JSON]) -> list[JSON]:
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found += _walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            found += _walk([component["accessory"]])
    return found
