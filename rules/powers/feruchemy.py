"""Feruchemy in play: storing into a metalmind over time or in a Breather, and tapping it on a
roll (docs/rulings.md §9.4).

A Keeper stores while touching a metalmind of the metal: each full hour adds the rate they chose
(at most their rating, and at most the linked stat less 1; Iron at most 9), and costs them that
many dice on the rolls the metal helps while it lasts. A tap is declared before a roll: at most
10 × the rating, from one metalmind, spent whatever the roll does; it gives the metal's effect
(dice, mostly), or instead a Nudge for every 5 charges or +1 Outcome for every 10; Zinc and
Bronze may buy +1 Wits a charge for a Conflict's declaring order instead (``rules.conflict.quickened``).
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from rules.character import Character, PowerType, Prop
from rules.character.feruchemy import GOLD_HEALTH_MAX, Feruchemy, Metalmind, Storing
from rules.character.metals import METAL_FACTS, Task, metal
from rules.character.power_stats import sheet_powers
from rules.character.stats import rating_for
from rules.errors import RulesError
from rules.outcome import MAX_OUTCOME
from rules.powers.burning import unconscious
from rules.powers.ledger import Changed, Move, Store, Why

TAP_PER_RATING = 10
CHARGES_PER_NUDGE = 5
CHARGES_PER_OUTCOME = 10
BREATHER_HOURS = {"short": 10, "long": 30}
"""A Breather stores at most this many hours' worth (§9.4)."""
GOLD_MINUTES = 60


class TapUse(StrEnum):
    """What a tap buys: the metal's effect, Nudges, or Outcome (§9.4)."""

    EFFECT = "effect"
    NUDGES = "nudges"
    OUTCOME = "outcome"
    WITS = "wits"


WITS_METALS = ("Zinc", "Bronze")
"""The metals whose tap adds 1 Wits a charge for declaring (§9.4)."""


def feruchemy_rating(character: Character, name: str) -> int:
    """The Feruchemical rating of ``name`` (a spike's included), 0 without it."""
    for power in sheet_powers(character):
        if power.type is PowerType.FERUCHEMY and power.name == name:
            return power.rating
    return 0


def require_feruchemist(character: Character, name: str) -> str:
    found = metal(name).name
    if not feruchemy_rating(character, found):
        raise RulesError(f"{character.name} has no Feruchemical {found}: add the Power with /edit power-add.")
    return found


def require_awake(character: Character, name: str) -> str:
    """The metal's proper name, if the character can store it now: a Feruchemist of it, awake."""
    found = require_feruchemist(character, name)
    if unconscious(character):
        raise RulesError(f"{character.name} is unconscious (0 Health): storing needs a waking mind.")
    return found


def metalminds(character: Character, name: str) -> list[tuple[int, Prop, Metalmind]]:
    """The sheet's metalminds of ``name``, with their index among the Props."""
    found = []
    for index, prop in enumerate(character.props):
        if isinstance(prop.implement, Metalmind) and prop.implement.metal == name:
            found.append((index, prop, prop.implement))
    return found


def store_cap(character: Character, name: str) -> int:
    """Most charges ``name`` can be stored at an hour: the rating, and at most the linked stat
    less 1 (Iron: 9)."""
    facts = METAL_FACTS[name]
    cap = feruchemy_rating(character, name)
    if facts.store_cap is not None:
        cap = min(cap, facts.store_cap)
    if facts.linked is not None:
        cap = min(cap, rating_for(character, facts.linked.label, False) - 1)
    return max(0, cap)


def _feruchemy(character: Character, feruchemy: Feruchemy) -> Character:
    return character.model_copy(update={"feruchemy": feruchemy})


def start_storing(character: Character, name: str, rate: int | None = None) -> Character:
    """Start storing ``name`` at ``rate`` an hour (the most allowed when None), into a metalmind
    of it with room; storing it already, change the rate (the hour under way is kept). Storing
    needs a waking mind, as burning does (§9.4)."""
    found = require_awake(character, name)
    cap = store_cap(character, found)
    if cap < 1:
        raise RulesError(f"{character.name} cannot store {found}: the stat it draws on is too low.")
    chosen = cap if rate is None else rate
    if not 1 <= chosen <= cap:
        raise RulesError(f"{character.name} stores 1 to {cap} {found} an hour.")
    if not any(mind.room for _, _, mind in metalminds(character, found)):
        raise RulesError(f"{character.name} has no {found}mind with room: add one with /power metalmind.")
    current = character.feruchemy.storing_of(found)
    minutes = current.minutes if current else 0
    kept = [s for s in character.feruchemy.storing if s.metal != found]
    storing = (*kept, Storing(metal=found, rate=chosen, minutes=minutes))
    return _feruchemy(character, character.feruchemy.model_copy(update={"storing": storing}))


def stop_storing(character: Character, name: str) -> Character:
    """Stop storing ``name``; the hour under way stores nothing."""
    found = metal(name).name
    if character.feruchemy.storing_of(found) is None:
        raise RulesError(f"{character.name} is not storing {found}.")
    storing = tuple(s for s in character.feruchemy.storing if s.metal != found)
    return _feruchemy(character, character.feruchemy.model_copy(update={"storing": storing}))


def fill_metalmind(character: Character, name: str, charges: int, why: Why = Why.STORED) -> Changed:
    """Put ``charges`` of ``name`` into its metalminds, the first with room first; what finds no
    room is not stored, and storing stops once every one of them is full."""
    moves: list[Move] = []
    props = list(character.props)
    left = charges
    for index, prop, mind in metalminds(character, name):
        put = min(left, mind.room)
        if put:
            props[index] = prop.model_copy(
                update={"implement": mind.model_copy(update={"charges": mind.charges + put})}
            )
            moves.append(Move(metal=name, store=Store.METALMIND, delta=put, why=why, prop=prop.name))
            left -= put
    character = character.model_copy(update={"props": tuple(props)})
    notes: tuple[str, ...] = ()
    if not any(mind.room for _, _, mind in metalminds(character, name)) and character.feruchemy.storing_of(
        name
    ):
        character = stop_storing(character, name)
        notes = (f"{character.name}'s {name}minds are full: storing stops.",)
    return Changed(character=character, moves=tuple(moves), notes=notes)


def store_in_breather(character: Character, name: str, kind: str, rate: int | None = None) -> Changed:
    """A Breather spent storing: at most 10 hours' worth (Short) or 30 (Long) at once (§9.4)."""
    found = require_awake(character, name)
    cap = store_cap(character, found)
    chosen = cap if rate is None else rate
    if not 1 <= chosen <= cap:
        raise RulesError(f"{character.name} stores 1 to {cap} {found} an hour.")
    return fill_metalmind(character, found, BREATHER_HOURS[kind] * chosen)


def storing_dice(character: Character, task: Task | None) -> list[tuple[str, int]]:
    """Dice lost on a roll of ``task`` while storing the metal that helps it (§9.4)."""
    return [
        (f"Storing {s.metal}", -s.rate)
        for s in character.feruchemy.storing
        if task is not None and METAL_FACTS[s.metal].task is task
    ]


def storing_action_dice(character: Character) -> int:
    """Action Dice lost in a Conflict while storing Steel (§9.4)."""
    return character.feruchemy.stored_rate("Steel")


def storing_declare_wits(character: Character) -> int:
    """Wits lost for the declaring order while storing Zinc or Bronze (§9.4)."""
    return character.feruchemy.stored_rate("Zinc") + character.feruchemy.stored_rate("Bronze")


class TapEffect(BaseModel):
    """What a tap gives a roll: dice (on ``task``), Nudges or Outcome; Health lent by Gold; and
    a line for the table when it does something the dice do not show."""

    model_config = ConfigDict(frozen=True)

    metal: str
    charges: int
    dice: int = 0
    task: Task | None = None
    nudges: int = 0
    outcome: int = 0
    health: int = 0
    wits: int = 0
    """Wits for a Conflict's declaring order (Zinc or Bronze, ``TapUse.WITS``)."""
    note: str = ""


def tap_effect(character: Character, name: str, charges: int, use: TapUse = TapUse.EFFECT) -> TapEffect:
    """What tapping ``charges`` of ``name`` gives, checked against 10 × the rating and what one
    metalmind holds (§9.4). Nudges and Outcome take whole fives and tens."""
    found = require_feruchemist(character, name)
    most = TAP_PER_RATING * feruchemy_rating(character, found)
    if not 1 <= charges <= most:
        raise RulesError(f"{character.name} taps 1 to {most} {found} at once (10 × the rating).")
    fullest = max((m.charges for _, _, m in metalminds(character, found)), default=0)
    if charges > fullest:
        raise RulesError(
            f"{character.name}'s fullest {found}mind holds {fullest}: one roll taps one metalmind."
        )
    return bought(found, charges, use)


def bought(name: str, charges: int, use: TapUse) -> TapEffect:
    """What ``charges`` of ``name`` buy, the tap already checked against the sheet: the metal's
    effect, a Nudge for every 5, or +1 Outcome for every 10 (at most 6) (§9.4). A Conflict's
    roll reads a tap spent at its declaration with this (``rules.conflict.taps``)."""
    if use is TapUse.NUDGES:
        if charges % CHARGES_PER_NUDGE:
            raise RulesError(
                f"A Nudge costs {CHARGES_PER_NUDGE} charges: tap a multiple of {CHARGES_PER_NUDGE}."
            )
        return TapEffect(metal=name, charges=charges, nudges=charges // CHARGES_PER_NUDGE)
    if use is TapUse.WITS:
        if name not in WITS_METALS:
            raise RulesError(f"Only Zinc or Bronze is tapped for Wits to declare by, not {name}.")
        return TapEffect(metal=name, charges=charges, wits=charges)
    if use is TapUse.OUTCOME:
        if charges % CHARGES_PER_OUTCOME:
            raise RulesError(
                f"+1 Outcome costs {CHARGES_PER_OUTCOME} charges: tap a multiple of {CHARGES_PER_OUTCOME}."
            )
        return TapEffect(
            metal=name, charges=charges, outcome=min(MAX_OUTCOME, charges // CHARGES_PER_OUTCOME)
        )
    return _effect(name, charges)


def _effect(name: str, charges: int) -> TapEffect:
    facts = METAL_FACTS[name]
    if name == "Copper":
        note = f"{charges} memories recalled"
        return TapEffect(metal=name, charges=charges, dice=charges // 2, task=Task.MEMORY, note=note)
    if name == "Gold":
        return TapEffect(metal=name, charges=charges, health=charges, note=f"+{charges} Health for an hour")
    if name == "Iron":
        return TapEffect(metal=name, charges=charges, note=f"{10 * charges}% heavier")
    if facts.task is not None:
        return TapEffect(metal=name, charges=charges, dice=charges, task=facts.task)
    return TapEffect(metal=name, charges=charges, note=f"{charges} charges of {facts.stores or name}")


def tap(character: Character, effect: TapEffect) -> Changed:
    """Spend a planned tap from the fullest metalmind of its metal (spent whatever the roll
    does), and lend Gold's Health for an hour."""
    minds = metalminds(character, effect.metal)
    index, prop, mind = max(minds, key=lambda found: found[2].charges)
    if mind.charges < effect.charges:
        raise RulesError(f"{prop.name} holds only {mind.charges} {effect.metal}.")
    props = list(character.props)
    props[index] = prop.model_copy(
        update={"implement": mind.model_copy(update={"charges": mind.charges - effect.charges})}
    )
    character = character.model_copy(update={"props": tuple(props)})
    if effect.health:
        feruchemy = character.feruchemy
        lent = feruchemy.model_copy(
            update={
                "gold_health": min(GOLD_HEALTH_MAX, feruchemy.gold_health + effect.health),
                "gold_minutes": GOLD_MINUTES,
            }
        )
        character = _feruchemy(character, lent)
    move = Move(
        metal=effect.metal, store=Store.METALMIND, delta=-effect.charges, why=Why.TAPPED, prop=prop.name
    )
    return Changed(character=character, moves=(move,))
