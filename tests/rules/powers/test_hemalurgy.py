"""Ruin's hold and a spike's price (docs/rulings.md §9.5): read from the ratings as spikes leave
them, not as spent on rolls, which comes back."""

from typing import Any

import pytest

from rules.character import Character, make_character
from rules.character.hemalurgy import Spike
from rules.character.power_gifts import leaves_to_ruin
from rules.powers.hemalurgy import drive_spike, ruin_notes


def bearer(charm: int, spirit: int, spent: int = 0, spikes: tuple[dict[str, Any], ...] = ()) -> Character:
    return make_character(
        name="Marsh",
        kind="villain",
        owner_id=1,
        attributes={"physique": 4, "charm": charm, "wits": 4},
        standings={"resources": 3, "influence": 3, "spirit": spirit},
        spent={"spirit": spent},
        hemalurgy={"spikes": spikes},
    )


@pytest.mark.parametrize(
    ("charm", "spirit", "spent", "metal", "ruined"),
    [
        (3, 3, 0, "Steel", False),
        (3, 2, 0, "Steel", False),  # Spirit 1 left
        (3, 2, 1, "Steel", False),  # spent Spirit comes back: not Ruin's
        (1, 3, 0, "Tin", True),  # Charm 0
        (1, 3, 0, "Steel", False),  # a Steel spike takes no Charm
        (2, 2, 0, "Zinc", False),  # nor does Zinc take Spirit
    ],
)
def test_a_spike_leaves_its_bearer_ruins_only_at_0_as_spikes_leave_them(
    charm: int, spirit: int, spent: int, metal: str, ruined: bool
) -> None:
    character = bearer(charm, spirit, spent)
    assert leaves_to_ruin(character, metal) is ruined
    power = {"Steel": "Iron"}.get(metal)
    driven = drive_spike(character, Spike(metal=metal, power=power, rating=3))
    assert bool(driven.notes) is ruined and driven.notes == tuple(ruin_notes(driven.character))


def test_a_second_spike_can_take_the_last_spirit() -> None:
    once = bearer(3, 2, spikes=({"metal": "Steel", "power": "Iron", "rating": 3},))
    assert leaves_to_ruin(once, "Bronze") and not leaves_to_ruin(once, "Zinc")
    assert ruin_notes(drive_spike(once, Spike(metal="Bronze", power="Zinc")).character) == [
        "Marsh has no Spirit left: Ruin holds them (the Narrator plays them)."
    ]
