"""Burning and flaring a metal, and what it costs (docs/rulings.md §9.2).

Outside a Conflict a burn costs nothing when it starts: the Narrator moves time on
(``rules.powers.time``) and each burning metal pays for the time. In a Conflict the engine pays
by the round (:func:`pay_for_conflict`, :func:`pay_round`). A sheet whose reserves are not
counted (``Allomancy.tracked`` off, every sheet made before reserves were) burns for nothing, as
it always did. A reserve that runs dry ends its burn (:func:`stop_burn`: Pewter's boost fades and
can leave a Pewterarm at 0 Health, §5.5).
"""

from rules.character import Character, Resilience, resilience_current
from rules.character.allomancy import Allomancy
from rules.character.limits import DAMAGE_MAX
from rules.character.metals import METAL_FACTS, metal
from rules.character.power_stats import allomantic_rating, impure
from rules.errors import RulesError
from rules.powers.ledger import Changed, Move, Store, Why

GOLD_PRICE = 1
"""Willpower lost each time Gold starts to burn (§9.3)."""


def _allomancy(character: Character, allomancy: Allomancy) -> Character:
    return character.model_copy(update={"allomancy": allomancy})


def require_burnable(character: Character, name: str) -> str:
    """The metal's proper name, if the character can burn it now; a RulesError saying why not."""
    found = metal(name).name
    if not allomantic_rating(character, found):
        raise RulesError(
            f"{character.name} cannot burn {found}: the sheet has no Allomantic {found}. "
            "Add the Power with /edit power-add first."
        )
    if unconscious(character):
        raise RulesError(f"{character.name} is unconscious (0 Health): Allomancy needs a waking mind.")
    return found


def unconscious(character: Character) -> bool:
    """0 Health, counted with Pewter's boost while it burns: no burning and no storing, which
    both need a waking mind (§9.2, §9.4). An Extra at 0 has left the scene, and is left alone."""
    return not character.is_extra and resilience_current(character, Resilience.HEALTH) == 0


def spend(character: Character, name: str, charges: int, why: Why) -> tuple[Changed, bool]:
    """Take ``charges`` of ``name`` from the reserve, as many as are left; and whether all were
    there. An uncounted sheet pays nothing, and always has enough."""
    allomancy = character.allomancy
    if not allomancy.tracked or charges <= 0:
        return Changed(character=character), True
    reserve = allomancy.reserve(name)
    taken = min(charges, reserve.charges)
    left = reserve.charges - taken
    update = {"charges": left, "impure": reserve.impure and left > 0}
    character = _allomancy(character, allomancy.with_reserve(reserve.model_copy(update=update)))
    moves = (Move(metal=name, store=Store.RESERVE, delta=-taken, why=why),) if taken else ()
    return Changed(character=character, moves=moves), taken == charges


def ran_dry(paid: Changed, name: str) -> Changed:
    """``paid`` with the burn of ``name`` ended: its reserve could not pay (§9.2)."""
    stopped = stop_burn(paid.character, name)
    note = f"{paid.character.name}'s {name} runs out."
    return Changed(character=stopped.character, moves=paid.moves, ended=(name,), notes=(note, *stopped.notes))


def start_burn(character: Character, name: str, *, flared: bool = False) -> Changed:
    """Start burning (or, already burning, set its flare). A counted reserve needs a charge; an
    instant metal spends one and is done; Gold costs 1 Willpower to start (§9.2, §9.3)."""
    found = require_burnable(character, name)
    allomancy = character.allomancy
    if allomancy.tracked and allomancy.charges(found) == 0:
        raise RulesError(f"{character.name} has no {found} left to burn: drink a vial first (/power drink).")
    if flared:
        require_flarable(character, found)
    if found in allomancy.burning:
        return set_flare(character, found, flared)
    if METAL_FACTS[found].instant:
        spent, _ = spend(character, found, 1, Why.BURN)
        return spent.model_copy(update={"notes": (f"{found} burns in an instant: its power is spent.",)})
    burning = (*allomancy.burning, found)
    flares = (*allomancy.flared, found) if flared else allomancy.flared
    character = _allomancy(character, allomancy.model_copy(update={"burning": burning, "flared": flares}))
    if found == "Gold":
        damage = character.damage.with_value(
            Resilience.WILLPOWER, min(character.damage.willpower + GOLD_PRICE, DAMAGE_MAX)
        )
        character = character.model_copy(update={"damage": damage})
        return Changed(character=character, notes=("Gold shows who they might have been: 1 Willpower lost.",))
    return Changed(character=character)


def require_flarable(character: Character, name: str) -> None:
    """Atium and the instant metals never flare; impure metal cannot (§9.2)."""
    if not METAL_FACTS[name].flares:
        raise RulesError(f"{name} cannot be flared.")
    if impure(character, name):
        raise RulesError(f"{character.name}'s {name} is impure: it cannot be flared until it is burnt off.")


def set_flare(character: Character, name: str, flared: bool) -> Changed:
    """Flare a burning metal (+1 rating, ten times the burn) or let it back down."""
    allomancy = character.allomancy
    if name not in allomancy.burning:
        raise RulesError(f"{character.name} is not burning {name}: start it first.")
    if flared:
        require_flarable(character, name)
    if (name in allomancy.flared) == flared:
        state = "already flaring" if flared else "not flaring"
        raise RulesError(f"{character.name} is {state} {name}.")
    flares = (*allomancy.flared, name) if flared else tuple(m for m in allomancy.flared if m != name)
    return Changed(character=_allomancy(character, allomancy.model_copy(update={"flared": flares})))


def stop_burn(character: Character, name: str) -> Changed:
    """Stop burning ``name`` (and its flare, and an emotion it held). Pewter's boost fades: with no
    Health left the character is down (§5.5)."""
    allomancy = character.allomancy
    found = metal(name).name
    if found not in allomancy.burning:
        raise RulesError(f"{character.name} is not burning {found}.")
    hold = None if allomancy.hold is not None and allomancy.hold.metal == found else allomancy.hold
    update = {
        "burning": tuple(m for m in allomancy.burning if m != found),
        "flared": tuple(m for m in allomancy.flared if m != found),
        "hold": hold,
    }
    character = _allomancy(character, allomancy.model_copy(update=update))
    if found == "Pewter" and unconscious(character):
        storing = bool(character.feruchemy.storing)
        rest = stop_all(character)  # collapsed: unconscious, so nothing else burns or stores (§9.2)
        stores = ", and storing stops" if storing else ""
        note = f"Pewter fades and {character.name} collapses: no Health left{stores}."
        return Changed(character=rest.character, notes=(note, *rest.notes))
    return Changed(character=character)


def stop_all(character: Character) -> Changed:
    """Every burn ends, and all storing: the character fell unconscious (§9.2, §9.4)."""
    notes: list[str] = []
    while character.allomancy.burning:
        stopped = stop_burn(character, character.allomancy.burning[0])
        character, notes = stopped.character, [*notes, *stopped.notes]
    if character.feruchemy.storing:
        character = character.model_copy(
            update={"feruchemy": character.feruchemy.model_copy(update={"storing": ()})}
        )
    return Changed(character=character, notes=tuple(notes))


def knocked_out(character: Character) -> Changed:
    """At 0 Health, counted with Pewter's boost while it burns, a character is unconscious: every
    burn ends, Pewter's too, and all storing (docs/rulings.md §9.2, §9.4, §5.5). While Pewter
    holds Health above 0 they stay awake and burning. An Extra at 0 has left the scene and is
    left alone."""
    burning, storing = bool(character.allomancy.burning), bool(character.feruchemy.storing)
    if not (burning or storing) or not unconscious(character):
        return Changed(character=character)
    stopped = stop_all(character)  # its only notes would be Pewter's collapse: this one says it
    ended = [said for said, on in (("every metal stops burning", burning), ("storing stops", storing)) if on]
    note = f"{character.name} is knocked out: {' and '.join(ended)}."
    return Changed(character=stopped.character, notes=(note,))


def then_knocked_out(changed: Changed) -> Changed:
    """``changed``, and what 0 Health then ends: any Power's change may bring a sheet there (a
    spike torn out, Gold's borrowed Health running out, Pewter's drag), and each must end the
    burns and the storing as a blow does (docs/rulings.md §9.2, §9.4)."""
    out = knocked_out(changed.character)
    if out.character is changed.character:
        return changed
    return changed.model_copy(update={"character": out.character, "notes": (*changed.notes, *out.notes)})


def pay_for_conflict(character: Character, name: str) -> Changed:
    """A burn in a Conflict costs 1 charge for the whole Conflict, paid when it starts (§9.2); the
    last charge still lasts the Conflict."""
    paid, whole = spend(character, name, 1, Why.BURN)
    if not whole:
        raise RulesError(f"{character.name} has no {name} left to burn: drink a vial first.")
    return paid


def pay_round(character: Character) -> Changed:
    """A new round in a Conflict: each flared metal costs 1 more charge, and Atium 1 (§9.2). A
    flare that cannot be paid dies down; Atium that cannot be paid ends."""
    moves: list[Move] = []
    ended: list[str] = []
    notes: list[str] = []
    for name in character.allomancy.burning:
        flared = name in character.allomancy.flared
        if not flared and name != "Atium":
            continue
        paid, whole = spend(character, name, 1, Why.FLARE if flared else Why.BURN)
        if whole:
            character, moves = paid.character, [*moves, *paid.moves]
            continue
        if flared and name != "Atium":
            character = set_flare(paid.character, name, False).character
            notes.append(f"{character.name}'s {name} is too low to flare: it burns on, unflared.")
            continue
        dry = ran_dry(paid, name)
        character, moves = dry.character, [*moves, *dry.moves]
        ended.append(name)
        notes += dry.notes
    return Changed(character=character, moves=tuple(moves), ended=tuple(ended), notes=tuple(notes))
