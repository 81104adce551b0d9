"""The metal buttons a turn's prompt offers (docs/rulings.md §9.2): what the sheet allows, and
never more than Discord's 5 rows of 5 hold, whatever else the prompt carries."""

import discord
import pytest

from bot.cogs.conflict.answers import Prompt
from bot.cogs.conflict.metal_offers import metal_offers
from bot.cogs.conflict.prompt_buttons import prompt_items
from bot.cogs.conflict.turns import Turn
from bot.render.buttons import stopped
from rules.character import METALS, make_character
from rules.powers.burning import start_burn

MISTBORN = make_character(
    name="Vin",
    kind="hero",
    owner_id=1,
    attributes={"physique": 3, "charm": 3, "wits": 3},
    powers=[{"type": "allomancy", "name": m, "rating": 4} for m in METALS[:8]],
    props=[
        {"name": f"Vial {i}", "implement": {"kind": "vial", "metals": ["Steel"], "charges": 3}}
        for i in range(3)
    ],
)


def test_offers_follow_the_sheet() -> None:
    offers = metal_offers(MISTBORN)
    assert [o[0] for o in offers].count("drink") == 3
    assert ("burn", "Steel", "Burn Steel") in offers
    lit = start_burn(MISTBORN, "Steel").character
    assert ("flare", "Steel", "Flare Steel") in metal_offers(lit)
    assert not any(o[1] == "Steel" and o[0] == "burn" for o in metal_offers(lit))


@pytest.mark.parametrize(
    "turn",
    [
        Turn("declare", 1, 1, "Vin", targets=((2, "Thug"),)),
        Turn("act", 1, 1, "Vin", ((2, "Thug"),), tuple(range(2, 11)), 10, attacks=True),
    ],
)
def test_metal_buttons_fill_what_room_is_left(turn: Turn) -> None:
    offers = metal_offers(MISTBORN)
    prompt = Prompt(
        conflict_id=1, narrator_view=True, hidden=2, turn=Turn(**{**turn.__dict__, "metals": offers})
    )
    items = prompt_items(prompt)
    view = stopped(items)  # discord.py refuses a sixth row
    assert view is not None
    metal = [
        i for i in items if isinstance(i, discord.ui.Button) and (i.custom_id or "").startswith("mab:metal:")
    ]
    assert 0 < len(metal) < len(offers)
    assert len(view.to_components()) <= 5
