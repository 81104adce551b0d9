"""Sheets for the Powers tests: a Misting, a Mistborn, a Keeper, an Inquisitor, built in one line."""

from typing import Any

from rules.character import BASIC_METALS, Character, make_character
from rules.character.allomancy import VialForm
from rules.character.feruchemy import MindSize
from rules.powers.drinking import make_vial


def sheet(**fields: Any) -> Character:
    base: dict[str, Any] = {
        "name": "Vin",
        "kind": "hero",
        "owner_id": 1,
        "attributes": {"physique": 4, "charm": 4, "wits": 5},
        "standings": {"resources": 4, "influence": 4, "spirit": 4},
    }
    return make_character({**base, **fields})


def allomancer(
    *metals: str, rating: int = 5, reserves: dict[str, int] | None = None, **fields: Any
) -> Character:
    """An Allomancer of ``metals`` at ``rating``, with counted ``reserves`` when given."""
    powers = [{"type": "allomancy", "name": m, "rating": rating} for m in metals]
    allomancy: dict[str, Any] = dict(fields.pop("allomancy", {}))
    if reserves is not None:
        allomancy |= {"tracked": True, "reserves": [{"metal": m, "charges": n} for m, n in reserves.items()]}
    return sheet(powers=powers, allomancy=allomancy, **fields)


def mistborn(**fields: Any) -> Character:
    return allomancer(*BASIC_METALS, rating=4, **fields)


def keeper(*minds: tuple[str, int], rating: int = 3, **fields: Any) -> Character:
    """A Keeper (every basic metal at ``rating``) with average metalminds of the given charges."""
    powers = [{"type": "feruchemy", "name": m, "rating": rating} for m in BASIC_METALS]
    props = [
        {
            "name": f"{m} bracer",
            "implement": {"kind": "metalmind", "metal": m, "size": MindSize.AVERAGE, "charges": n},
        }
        for m, n in minds
    ]
    return sheet(name="Sazed", powers=powers, props=props, **fields)


def with_vial(character: Character, name: str, form: VialForm, *metals: str) -> Character:
    vial = make_vial(name, form, metals)
    return make_character(
        {**character.model_dump(), "props": [*character.model_dump()["props"], vial.model_dump()]}
    )
