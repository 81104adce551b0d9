"""Burning, flaring and drinking in a Conflict, and what they cost (docs/rulings.md §9.2).

* The sheet's ``allomancy`` holds what burns and is flared, and its reserves; the participant's
  ``burning`` and ``flared`` mirror it after every move and whenever the Conflict is read with its
  sheets (``Conflict.with_sheets``), so a change made outside the Conflict (``/sheet damage``,
  ``/power``) counts at once, and the Conflict's figures (Pewter) read them without the sheet.
* A metal's first burn in the Conflict costs 1 charge, for the whole Conflict
  (``Participant.paid``): stopping and starting it again costs nothing more, even when that
  charge was the last.
* Each new round every flared metal costs 1 more, and Atium 1 (``rules.powers.burning.pay_round``):
  a flare that cannot be paid dies down, a burn that cannot be paid ends, and Pewter's end can
  fell a Pewterarm (§5.5).
* One vial a round, with no roll (``rules.powers.drinking.drink``); drinking turns the counting
  of reserves on.
* Burning Pewter (or stopping it) changes dice figured from then on and Health for damage from then on; dice
  already declared stay as they were, as at the table.
* Every charge moved is a :class:`ChargesMoved` event, for the journal (§9.9).
"""

from rules.character import Character, PowerType, Resilience, resilience_current
from rules.character.metals import METAL_FACTS
from rules.character.names import METALS, RESILIENCE_DEFEAT, canonical_metal
from rules.conflict.commands import Burn, Drink
from rules.conflict.events import BurningChanged, ChargesMoved, Defeated
from rules.conflict.state import Conflict, Participant, Phase
from rules.conflict.work import Work, require_phase
from rules.errors import RulesError
from rules.naming import did_you_mean
from rules.powers.burning import (
    knocked_out,
    pay_for_conflict,
    pay_round,
    ran_dry,
    set_flare,
    spend,
    start_burn,
    stop_burn,
)
from rules.powers.drinking import drink as drink_vial
from rules.powers.ledger import Changed, Why


def _metal(participant: Participant, typed: str, sheet: Character) -> str:
    found = canonical_metal(str(typed)[:40])
    if found is None:
        raise RulesError(f"'{str(typed)[:40]}' is not a metal.{did_you_mean(str(typed)[:40], METALS)}")
    if not any(p.type is PowerType.ALLOMANCY and p.name == found for p in sheet.powers):
        raise RulesError(
            f"{participant.name} cannot burn {found}: the sheet has no Allomantic {found}. "
            "Add the Power with /edit power-add first."
        )
    return found


def _start(sheet: Character, metal: str, flared: bool, paid: bool) -> Changed:
    """Start burning ``metal`` (or set its flare), paying the Conflict's charge unless paid."""
    allomancy = sheet.allomancy
    if metal in allomancy.burning:
        lit = Changed(character=sheet)
        if (metal in allomancy.flared) != flared:
            lit = set_flare(sheet, metal, flared)
    elif paid and allomancy.tracked and allomancy.charges(metal) == 0:
        # The Conflict's charge is paid: the last one lasts the Conflict.
        loose = sheet.model_copy(update={"allomancy": allomancy.model_copy(update={"tracked": False})})
        lit = start_burn(loose, metal, flared=flared)
        kept = lit.character.allomancy.model_copy(update={"tracked": True})
        lit = lit.model_copy(update={"character": lit.character.model_copy(update={"allomancy": kept})})
    else:
        lit = start_burn(sheet, metal, flared=flared)
    if paid or METAL_FACTS[metal].instant:
        return lit
    charged = pay_for_conflict(lit.character, metal)
    return Changed(character=charged.character, moves=(*lit.moves, *charged.moves), notes=lit.notes)


def burn(conflict: Conflict, work: Work, command: Burn) -> Conflict:
    """Start, flare, let down or stop burning an Allomantic metal the sheet has (docs/rulings.md §9.2)."""
    require_phase(conflict, Phase.GATHER, Phase.DECLARE, Phase.RESOLVE)
    participant = conflict.participant(command.participant)
    sheet = work.sheet(participant)
    metal = _metal(participant, command.metal, sheet)
    lit = metal in sheet.allomancy.burning
    if command.burning:
        if lit and (metal in sheet.allomancy.flared) == command.flared and metal in participant.burning:
            state = "flaring" if command.flared else "burning"
            undo = "flare to false to let it down" if command.flared else "burning to false to stop"
            raise RulesError(f"{participant.does('is')} already {state} {metal}; set {undo}.")
        changed = _start(sheet, metal, command.flared, metal in participant.paid)
    else:
        if not lit and metal not in participant.burning:
            raise RulesError(f"{participant.does('is')} not burning {metal}; set burning to true to start.")
        changed = stop_burn(sheet, metal) if lit else Changed(character=sheet)
    after = changed.character
    health = resilience_current(after, Resilience.HEALTH, "Pewter" in after.allomancy.burning)
    work.emit(
        BurningChanged(
            participant=participant.id,
            metal=metal,
            burning=command.burning,
            health=health,
            flared=metal in after.allomancy.flared,
        )
    )
    if command.burning and not METAL_FACTS[metal].instant and metal not in participant.paid:
        participant = participant.model_copy(update={"paid": (*participant.paid, metal)})
    return _settle(conflict.with_participant(participant), work, participant.id, sheet, changed)


def _settle(conflict: Conflict, work: Work, pid: int, before: Character, changed: Changed) -> Conflict:
    """Save the changed sheet, tell the charges it moved, mirror its burning on the participant,
    and fell a Pewterarm left at 0 Health (§5.5, §5.8)."""
    participant = conflict.participant(pid)
    after = changed.character
    if after != before:
        work.save_sheet(pid, after)
    if changed.moves or changed.ended or changed.notes:
        work.emit(
            ChargesMoved(participant=pid, moves=changed.moves, ended=changed.ended, notes=changed.notes)
        )
    burning = tuple(sorted(after.allomancy.burning))
    flared = tuple(sorted(after.allomancy.flared))
    mirrored = participant.model_copy(update={"burning": burning, "flared": flared})
    if participant.burning_pewter and not mirrored.burning_pewter and not participant.defeated:
        health = resilience_current(after, Resilience.HEALTH, False)
        if health == 0 and not participant.is_extra:
            mirrored = mirrored.model_copy(update={"defeated": True})
            work.emit(Defeated(participant=pid, condition=RESILIENCE_DEFEAT[Resilience.HEALTH]))
    return conflict.with_participant(mirrored)


def knocked_out_burns(conflict: Conflict, work: Work, pid: int) -> Conflict:
    """A participant knocked out (0 Health, Pewter counted while it burns) stops burning every
    metal at once, the board and the sheet alike (§9.2, §5.5)."""
    sheet = work.sheet(conflict.participant(pid))
    changed = knocked_out(sheet)
    if changed.character is sheet:
        return conflict
    return _settle(conflict, work, pid, sheet, changed)


def joined_burning(conflict: Conflict, work: Work, pid: int) -> Conflict:
    """A character who joins already burning: each metal pays its charge for the Conflict now,
    or goes out (*we chose*, §9.2), and the participant burns what the sheet burns."""
    sheet = work.sheet(conflict.participant(pid))
    changed = Changed(character=sheet)
    lit = [m for m in sheet.allomancy.burning if not METAL_FACTS[m].instant]
    for name in lit:
        paid, whole = spend(changed.character, name, 1, Why.BURN)
        paid = paid.model_copy(update={"moves": (*changed.moves, *paid.moves), "notes": changed.notes})
        changed = paid if whole else ran_dry(paid, name)
    participant = conflict.participant(pid).model_copy(update={"paid": tuple(lit)})
    return _settle(conflict.with_participant(participant), work, pid, sheet, changed)


def pay_rounds(conflict: Conflict, work: Work) -> Conflict:
    """A new round: each participant's flared metals and Atium cost their charge (§9.2)."""
    for participant in conflict.participants:
        sheet = work.sheets.get(participant.id)
        if sheet is None or not sheet.allomancy.burning:
            continue
        conflict = _settle(conflict, work, participant.id, sheet, pay_round(sheet))
    return conflict


def drink(conflict: Conflict, work: Work, command: Drink) -> Conflict:
    """Drink a vial: no roll, one a round (§9.2)."""
    require_phase(conflict, Phase.GATHER, Phase.DECLARE, Phase.RESOLVE)
    participant = conflict.participant(command.participant)
    if participant.round.drank:
        raise RulesError(f"{participant.does('has')} already drunk a vial this round: one a round.")
    sheet = work.sheet(participant)
    changed = drink_vial(sheet, command.vial)
    drank = participant.model_copy(update={"round": participant.round.model_copy(update={"drank": True})})
    return _settle(conflict.with_participant(drank), work, participant.id, sheet, changed)
