"""A reply's buttons drawn as JSON (``bot.render.components``) are the very body discord.py sends:
the outbox queues that JSON, and the reply's view is made of it, so the two must agree to the
key, in the rows discord.py would lay the items out in; so must whom the body pings."""

from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import replies
from bot.cogs.conflict.answers import Prompt, mentions_json
from bot.cogs.conflict.metal_offers import Offer
from bot.cogs.conflict.prompt_buttons import prompt_components, prompt_items, with_undo
from bot.cogs.conflict.turns import Turn
from bot.render.buttons import stopped
from bot.render.components import JSON, action_rows, button, item_of, option, room, select, view_of

METALS: tuple[Offer, ...] = (
    *(("burn", m, f"Burn {m} (3 left)") for m in ("Steel", "Iron", "Pewter", "Tin", "Zinc", "Brass")),
    ("drink", "Vial", "Drink a vial"),
    ("flare", "Steel", "Flare Steel"),
    ("stop", "Tin", "Stop burning Tin"),
)
TARGETS = tuple((i, f"Thug {i}") for i in range(2, 30))
PROMPTS = [
    Prompt(1, 7, defend_with=(0, 2, 3)),
    Prompt(1, 7, defend_with=(0, *range(2, 11)), narrator_view=True, hidden=3),
    Prompt(
        1,
        7,
        defend_with=(0, 2, 3),
        react_traits=("Brave", "Quick"),
        deflect_with=(2, 3),
        deflect_metal="Iron",
    ),
    Prompt(1, 7, defend_with=(0, *range(2, 11)), react_traits=("Brave",), burn_to_deflect=(2, 5, METALS)),
    Prompt(1, 7, throw=True),
    Prompt(1, 7, nudge_modes=("damage", "beat", "none")),
    Prompt(1, turn=Turn("declare", 2, 4, "Vin", targets=TARGETS, metals=METALS, pushes_with="Steel")),
    Prompt(1, turn=Turn("declare", 2, 4, "Vin", metals=METALS[:2])),
    Prompt(
        1, turn=Turn("act", 2, 4, "Vin", TARGETS[:1], tuple(range(2, 11)), 10, attacks=True, metals=METALS)
    ),
    Prompt(1, narrator_view=True, hidden=4, turn=Turn("act", 2, 4, "Vin", TARGETS, target_down="Thug")),
]


def sent(view: discord.ui.View | None) -> list[JSON]:
    return [] if view is None else view.to_components()


@pytest.mark.parametrize("prompt", PROMPTS)
def test_the_outbox_body_is_what_discord_py_sends(prompt: Prompt) -> None:
    for components in (prompt_components(prompt), with_undo(prompt_components(prompt), 1, 9)):
        body = action_rows(components)
        assert body == sent(view_of(components))
        assert body == sent(stopped([item_of(c) for c in components]))  # discord.py's own layout
    assert [i.to_component_dict() for i in prompt_items(prompt)] == prompt_components(prompt)


def test_undo_takes_the_place_a_prompt_keeps_and_gives_way_when_none_is_free() -> None:
    busiest = prompt_components(PROMPTS[-2])
    assert room(busiest) == 1
    assert with_undo(busiest, 1, 9)[-1] == button("Undo", discord.ButtonStyle.secondary, "mab:undo:1:9")
    assert with_undo([], 1, 9) == [button("Undo", discord.ButtonStyle.secondary, "mab:undo:1:9")]
    full = kinds([True, False, False, False, False, False, True, True, True])
    assert room(full) == 0
    assert with_undo(full, 1, 9) == full


def kinds(menus: list[bool]) -> list[JSON]:
    menu = select("m", "Pick…", [option("a", "1")])
    return [menu if is_menu else button("b", discord.ButtonStyle.primary, "b") for is_menu in menus]


@given(st.lists(st.booleans(), max_size=30))
def test_rows_are_laid_out_as_discord_py_lays_them(menus: list[bool]) -> None:
    components = kinds(menus)
    view: Any = discord.ui.View(timeout=None)
    try:
        for component in components:
            view.add_item(item_of(component))
    except ValueError:
        with pytest.raises(ValueError):
            action_rows(components)
        return
    assert action_rows(components) == view.to_components()
    assert room(components) == 25 - sum(5 if m else 1 for m in menus)


@given(st.lists(st.integers(min_value=1, max_value=2**63 - 1), max_size=6).map(lambda ids: ids + ids[:1]))
def test_the_outbox_body_pings_whom_the_sent_reply_pings(users: list[int]) -> None:
    # In the same order too: the outbox stores the body as JSON text.
    assert list(mentions_json(users).items()) == list(replies.pinging(users).to_dict().items())
