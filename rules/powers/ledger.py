"""Every charge that moves, written down (docs/rulings.md §9.9).

A change to a sheet's charges (drinking, burning, storing, tapping, the Narrator's hand) returns
the new sheet with a :class:`Move` for each store it touched, so the journal can tell where every
charge went and a test can check that the moves add up to the difference.
"""

from collections import Counter
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.character import Character

FROZEN = ConfigDict(frozen=True)


class Store(StrEnum):
    """Where charges are kept."""

    RESERVE = "reserve"
    VIAL = "vial"
    METALMIND = "metalmind"


class Why(StrEnum):
    """Why charges moved."""

    DRUNK = "drunk"
    BURN = "burned"
    FLARE = "flared"
    STORED = "stored"
    TAPPED = "tapped"
    POISON = "poisoned"
    REFILLED = "refilled"
    SET = "set by the Narrator"


class Move(BaseModel):
    """``delta`` charges of ``metal`` into (or, negative, out of) one store; ``prop`` names the vial
    or metalmind."""

    model_config = FROZEN

    metal: str
    store: Store
    delta: int
    why: Why
    prop: str | None = None


class Changed(BaseModel):
    """A sheet after a Power was used: the moves of charges, the burns that ended (their reserve
    ran dry), and plain notes for the table (what the Narrator should weigh)."""

    model_config = FROZEN

    character: Character
    moves: tuple[Move, ...] = ()
    ended: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def charges_held(character: Character) -> dict[tuple[Store, str, str | None], int]:
    """Every charge on a sheet by store, metal and Prop: what the moves must account for."""
    held: dict[tuple[Store, str, str | None], int] = {}
    for reserve in character.allomancy.reserves:
        held[(Store.RESERVE, reserve.metal, None)] = reserve.charges
    for prop in character.props:
        implement = prop.implement
        if implement is None:
            continue
        if implement.kind == "metalmind":
            key = (Store.METALMIND, implement.metal, prop.name)
            held[key] = held.get(key, 0) + implement.charges
        elif not implement.used:
            for metal in implement.metals:
                key = (Store.VIAL, metal, prop.name)
                held[key] = held.get(key, 0) + implement.charges
    return held


def accounted(before: Character, changed: Changed) -> bool:
    """Whether ``changed``'s moves add up, store by store, to what its sheet holds less ``before``."""
    old, new = charges_held(before), charges_held(changed.character)
    moved: dict[tuple[Store, str, str | None], int] = {}
    for move in changed.moves:
        key = (move.store, move.metal, move.prop)
        moved[key] = moved.get(key, 0) + move.delta
    keys = set(old) | set(new) | set(moved)
    return all(new.get(k, 0) - old.get(k, 0) == moved.get(k, 0) for k in keys)


def _said(group: list[Move]) -> str | None:
    """One reason's moves of one store: a vial once, however many metals it held (a Mistborn's
    vial is one vial), counted when several of one name moved; other stores by their sum."""
    first = group[0]
    if first.store is Store.VIAL:
        vials = max(Counter(m.metal for m in group).values())
        return f"{first.prop}{f' ×{vials}' if vials > 1 else ''} {first.why.value}"
    total = sum(m.delta for m in group)
    where = f"{first.prop}: " if first.prop else ""
    return f"{where}{total:+d} {first.metal} ({first.why.value})" if total else None


def moves_line(name: str, moves: tuple[Move, ...]) -> str | None:
    """The moves of charges in one line for the journal, "Vin: Steel vial drunk; +3 Steel
    (drunk)", or None when nothing moved (§9.9). Moves of one store, metal, Prop and reason are
    added up, never dropped as repeats: two metalminds of one name filled alike are both said."""
    groups: dict[tuple[Store, str, str | None, Why], list[Move]] = {}
    for move in moves:
        metal = "" if move.store is Store.VIAL else move.metal
        groups.setdefault((move.store, metal, move.prop, move.why), []).append(move)
    parts = [said for group in groups.values() if (said := _said(group))]
    return f"{name}: " + "; ".join(parts) + "." if parts else None
