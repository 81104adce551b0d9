"""Vials and the Narrator's hand on reserves: drinking, Long Breathers, impurity, poisoning, and
setting a reserve outright (docs/rulings.md §9.2, §9.8).

A vial (or a nail, ring or nugget) is a Prop holding charges: drinking it puts them in the
reserves and leaves it used until the next Long Breather brings it back. Drinking turns the
counting of reserves on: from then on burning costs charges.
"""

from rules.character import Character, Prop, Resilience
from rules.character.allomancy import FORM_CHARGES, MISTING_VIAL, RESERVE_MAX, Vial, VialForm
from rules.character.checked import revise_character, validated
from rules.character.limits import DAMAGE_MAX
from rules.character.metals import VIAL_METALS, metal
from rules.character.recovery import vials_back
from rules.character.stats import rating_for
from rules.errors import RulesError
from rules.naming import find_named
from rules.powers.burning import knocked_out, ran_dry, spend
from rules.powers.ledger import Changed, Move, Store, Why

SPOTS_IMPURITY = 4
"""Wits that notices impure metal before drinking it (§9.2)."""


def vial_props(character: Character) -> list[Prop]:
    return [p for p in character.props if p.implement is not None and p.implement.kind == "vial"]


def find_vial(character: Character, name: str, *, unused: bool = True) -> int:
    """The index in ``props`` of the vial called ``name`` (the first not yet drunk when
    ``unused``); a RulesError saying what the sheet carries otherwise."""
    vials = vial_props(character)
    if not vials:
        raise RulesError(f"{character.name} carries no vial: add one with /power vial.")
    found = find_named(name, vials, lambda p: p.name)
    if not found:
        names = ", ".join(dict.fromkeys(p.name for p in vials))
        raise RulesError(f"{character.name} has no vial called '{str(name)[:40]}'. Vials: {names}.")
    fresh = [p for p in found if isinstance(p.implement, Vial) and not p.implement.used]
    if unused and not fresh:
        raise RulesError(f"{found[0].name} is drunk: it comes back at the next Long Breather.")
    chosen = fresh[0] if unused else found[0]
    return next(i for i, p in enumerate(character.props) if p is chosen)


def _with_prop(character: Character, index: int, prop: Prop) -> Character:
    props = tuple(prop if i == index else p for i, p in enumerate(character.props))
    return character.model_copy(update={"props": props})


def spots_impurity(character: Character) -> bool:
    """Wits 4 or more (as the sheet rates it: a kandra's Presence, a Copper spike) notices impure
    metal before drinking it (§9.2)."""
    return rating_for(character, "Wits") >= SPOTS_IMPURITY


def drink(character: Character, name: str) -> Changed:
    """Drink the vial called ``name``: its charges join the reserves (an impure one makes them
    impure, and a drinker of Wits 4 or more is told they noticed), it is used, and reserves are
    counted from now on (§9.2)."""
    index = find_vial(character, name)
    prop = character.props[index]
    vial = prop.implement
    assert isinstance(vial, Vial)
    allomancy = character.allomancy.model_copy(update={"tracked": True})
    moves: list[Move] = []
    for held in vial.metals:
        reserve = allomancy.reserve(held)
        total = reserve.charges + vial.charges
        if total > RESERVE_MAX:
            raise RulesError(f"{character.name} already holds {reserve.charges} {held}: no room for more.")
        fresh = reserve.model_copy(
            update={"charges": total, "impure": reserve.impure or vial.impure, "unburnt": 0}
        )
        allomancy = allomancy.with_reserve(fresh)
        moves += [
            Move(metal=held, store=Store.VIAL, delta=-vial.charges, why=Why.DRUNK, prop=prop.name),
            Move(metal=held, store=Store.RESERVE, delta=vial.charges, why=Why.DRUNK),
        ]
    used = prop.model_copy(update={"implement": vial.model_copy(update={"used": True})})
    character = _with_prop(character, index, used).model_copy(update={"allomancy": allomancy})
    if not vial.impure:
        return Changed(character=character, moves=tuple(moves))
    notes: tuple[str, ...] = (
        "The metal was impure: it cannot be flared, and halves Physique and its rating until burnt off.",
    )
    if spots_impurity(character):
        notes = (
            f"{character.name} (Wits {SPOTS_IMPURITY} or more) spots the impurity before drinking; "
            "the Narrator decides what follows.",
            *notes,
        )
    return Changed(character=character, moves=tuple(moves), notes=notes)


def refill_vials(character: Character) -> Changed:
    """A Long Breather brings back every vial drunk, full (§9.8): the moves of
    ``rules.character.recovery.vials_back``."""
    moves = [
        Move(metal=m, store=Store.VIAL, delta=p.implement.charges, why=Why.REFILLED, prop=p.name)
        for p in character.props
        if isinstance(p.implement, Vial) and p.implement.used
        for m in p.implement.metals
    ]
    return Changed(character=vials_back(character), moves=tuple(moves))


def make_vial(name: str, form: VialForm, metals: tuple[str, ...], charges: int | None = None) -> Prop:
    """A vial Prop: a Misting's (3 of one metal), a Mistborn's (1 of each basic metal: give every
    basic metal), a nail or ring (2) or a nugget (4), unless ``charges`` says otherwise."""
    names = tuple(metal(m).name for m in metals)
    if charges is None:
        if form is VialForm.VIAL:
            charges = 1 if set(names) == set(VIAL_METALS) and len(names) > 1 else MISTING_VIAL
        else:
            charges = FORM_CHARGES[form]
    return validated(
        Prop, {"name": name, "implement": {"kind": "vial", "form": form, "metals": names, "charges": charges}}
    )


def add_prop(character: Character, prop: Prop) -> Character:
    """The sheet with one more Prop, checked as a whole (the count of Props)."""
    return revise_character(character, props=[*character.props, prop])


def set_reserve(character: Character, name: str, charges: int) -> Changed:
    """The Narrator's hand: a reserve set outright, and counting on (§9.2)."""
    found = metal(name).name
    if not 0 <= charges <= RESERVE_MAX:
        raise RulesError(f"A reserve holds 0 to {RESERVE_MAX} charges.")
    allomancy = character.allomancy.model_copy(update={"tracked": True})
    reserve = allomancy.reserve(found)
    allomancy = allomancy.with_reserve(
        reserve.model_copy(update={"charges": charges, "impure": reserve.impure and charges > 0})
    )
    move = Move(metal=found, store=Store.RESERVE, delta=charges - reserve.charges, why=Why.SET)
    changed = Changed(
        character=character.model_copy(update={"allomancy": allomancy}), moves=(move,) if move.delta else ()
    )
    if charges == 0 and found in allomancy.burning:
        return ran_dry(changed, found)
    return changed


def set_counting(character: Character, counted: bool) -> Character:
    """The Narrator turns the counting of reserves on or off (off: burning costs nothing)."""
    return character.model_copy(
        update={"allomancy": character.allomancy.model_copy(update={"tracked": counted})}
    )


def set_impure(character: Character, name: str, impure: bool) -> Character:
    """The Narrator's hand: a reserve made impure (or pure again) (§9.2)."""
    found = metal(name).name
    reserve = character.allomancy.reserve(found)
    if impure and reserve.charges == 0:
        raise RulesError(
            f"{character.name} holds no {found}: make the vial impure instead, before it is drunk."
        )
    allomancy = character.allomancy.with_reserve(reserve.model_copy(update={"impure": impure}))
    flared = tuple(m for m in allomancy.flared if not (impure and m == found))
    return character.model_copy(update={"allomancy": allomancy.model_copy(update={"flared": flared})})


def set_vial_impure(character: Character, name: str, impure: bool) -> Character:
    """The Narrator's hand: a vial not yet drunk made impure (or pure again)."""
    index = find_vial(character, name)
    prop = character.props[index]
    assert prop.implement is not None
    return _with_prop(
        character,
        index,
        prop.model_copy(update={"implement": prop.implement.model_copy(update={"impure": impure})}),
    )


def poison(character: Character, name: str) -> Changed:
    """The Narrator's hand: charges of ``name`` left unburnt 8 hours poison: each costs 1 Health
    and is gone (§9.2)."""
    found = metal(name).name
    held = character.allomancy.charges(found)
    if held == 0:
        raise RulesError(f"{character.name} holds no {found} to be poisoned by.")
    paid, _ = spend(character, found, held, Why.POISON)
    hurt = paid.character
    if not hurt.is_extra:
        damage = hurt.damage.with_value(Resilience.HEALTH, min(DAMAGE_MAX, hurt.damage.health + held))
        hurt = hurt.model_copy(update={"damage": damage})
    note = f"{held} unburnt {found} poisons {character.name}: {held} Health lost."
    out = knocked_out(hurt)  # poisoned to 0 Health: every burn ends (§9.2)
    return Changed(character=out.character, moves=paid.moves, notes=(note, *out.notes))
