"""The Narrator moves time on: burning metals pay for it, stores fill, Gold's loan runs out
(docs/rulings.md §9.2, §9.4).

Each burning metal loses ⌈time ÷ the time one charge lasts⌉ charges (the flared time while
flared; an instant metal nothing, it was paid when used). A counted reserve that cannot pay
runs dry and its burn ends, Pewter's with its collapse. Reserves not burning keep their
unburnt minutes: 8 hours is when they poison, which the Narrator applies (``drinking.poison``);
the result says whose is due. Storing fills the metalmind of that metal each full hour, and an
hour broken off stores nothing; Gold's lent Health lasts an hour; Pewter's burnt hours heal and
lift its drag (§9.3).
"""

from math import ceil

from rules.character import Character
from rules.character.allomancy import POISON_AFTER, UNBURNT_MAX
from rules.character.feruchemy import Storing
from rules.character.metals import METAL_FACTS
from rules.errors import RulesError
from rules.powers.burning import ran_dry, spend, then_knocked_out
from rules.powers.feruchemy import fill_metalmind
from rules.powers.ledger import Changed, Move, Why
from rules.powers.pewter import pewter_minutes, pewter_time

MINUTES_MAX = 7 * 24 * 60
"""The longest step the Narrator moves time on at once: a week."""
HOUR = 60


def burn_cost(name: str, minutes: int, *, flared: bool) -> int:
    """Charges ``minutes`` of burning ``name`` costs (flared: at the flared rate)."""
    facts = METAL_FACTS[name]
    if facts.instant or minutes <= 0:
        return 0
    seconds = facts.flared if flared and facts.flared is not None else facts.burn
    return ceil(minutes * 60 / seconds)


def _burn_for(character: Character, minutes: int) -> Changed:
    moves: list[Move] = []
    ended: list[str] = []
    notes: list[str] = []
    for name in character.allomancy.burning:
        flared = name in character.allomancy.flared
        cost = burn_cost(name, minutes, flared=flared)
        paid, whole = spend(character, name, cost, Why.FLARE if flared else Why.BURN)
        character, moves = paid.character, [*moves, *paid.moves]
        if character.allomancy.tracked and (not whole or character.allomancy.charges(name) == 0):
            dry = ran_dry(paid.model_copy(update={"moves": ()}), name)
            character, ended, notes = dry.character, [*ended, name], [*notes, *dry.notes]
    return Changed(character=character, moves=tuple(moves), ended=tuple(ended), notes=tuple(notes))


def _unburnt(character: Character, minutes: int) -> tuple[Character, list[str]]:
    allomancy = character.allomancy
    due: list[str] = []
    for reserve in allomancy.reserves:
        if reserve.metal in allomancy.burning or reserve.charges == 0:
            waited = 0
        else:
            waited = min(UNBURNT_MAX, reserve.unburnt + minutes)
            if reserve.unburnt < POISON_AFTER <= waited:
                due.append(reserve.metal)
        allomancy = allomancy.with_reserve(reserve.model_copy(update={"unburnt": waited}))
    notes = [
        f"{character.name} has held {m} unburnt for 8 hours: it poisons (the Narrator's /power poison)."
        for m in due
    ]
    return character.model_copy(update={"allomancy": allomancy}), notes


def _store_for(character: Character, minutes: int) -> Changed:
    moves: list[Move] = []
    notes: list[str] = []
    for storing in character.feruchemy.storing:
        total = storing.minutes + minutes
        hours, left = divmod(total, HOUR)
        if hours:
            filled = fill_metalmind(character, storing.metal, hours * storing.rate)
            character, moves, notes = filled.character, [*moves, *filled.moves], [*notes, *filled.notes]
        current = character.feruchemy.storing_of(storing.metal)
        if current is None:
            continue
        kept: Storing = current.model_copy(update={"minutes": left})
        listed = tuple(kept if s.metal == storing.metal else s for s in character.feruchemy.storing)
        character = character.model_copy(
            update={"feruchemy": character.feruchemy.model_copy(update={"storing": listed})}
        )
    return Changed(character=character, moves=tuple(moves), notes=tuple(notes))


def _gold_for(character: Character, minutes: int) -> tuple[Character, list[str]]:
    feruchemy = character.feruchemy
    if not feruchemy.gold_health:
        return character, []
    left = max(0, feruchemy.gold_minutes - minutes)
    if left:
        return character.model_copy(
            update={"feruchemy": feruchemy.model_copy(update={"gold_minutes": left})}
        ), []
    ended = feruchemy.model_copy(update={"gold_health": 0, "gold_minutes": 0})
    return character.model_copy(update={"feruchemy": ended}), [
        f"The Health {character.name} tapped from Gold fades."
    ]


def move_time(character: Character, minutes: int) -> Changed:
    """``minutes`` pass for ``character``: burns pay, unburnt metal waits, stores fill, Gold fades,
    Pewter's hours heal and lift its drag (``rules.powers.pewter``); Gold's borrowed Health
    fading to 0 knocks the sheet out (§9.2)."""
    if not 1 <= minutes <= MINUTES_MAX:
        raise RulesError(f"Move time on by 1 minute to {MINUTES_MAX // (24 * 60)} days.")
    burned = _burn_for(character, minutes)
    pewter_burnt = pewter_minutes(character, burned.character, minutes)
    character, waiting = _unburnt(burned.character, minutes)
    stored = _store_for(character, minutes)
    character, gold = _gold_for(stored.character, minutes)
    character, pewter = pewter_time(character, minutes, pewter_burnt)
    return then_knocked_out(
        Changed(
            character=character,
            moves=(*burned.moves, *stored.moves),
            ended=burned.ended,
            notes=(*burned.notes, *waiting, *stored.notes, *gold, *pewter),
        )
    )
