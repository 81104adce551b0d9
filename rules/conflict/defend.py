"""Defending against an action and rolling it (docs/rulings.md §3, §4.10).

An action a target may resist waits in ``Conflict.pending`` until the target commits their
defence: 0 dice (no defence) or a pool of 2–10, settled before anyone rolls. The dice come
from Action Dice if the target has not acted yet (which moves them down the resolve order at
once) or from Defense Dice if they have. Someone who declared full defence spends the Defense
Dice it gave; someone busy with a no-roll action gets Defense Dice when first attacked.

Rulings:

* A busy character's Defense Dice are granted once, by the first attack they face; later
  attacks that round draw on what is left (one pile per character, as the text insists).
* A stalemate (equal Results and equal Nudges) has no effect this round; it is logged and
  listed when the next round starts, so the struggle can be taken up again.
* An action nobody can resist (a Challenge, or a target with fewer than 2 dice and none to be
  granted) rolls at once against its Difficulty.
"""

from collections.abc import Sequence

from rules.conflict.atium import advantage_dice
from rules.conflict.commands import Defend, SpendNudges, Throw
from rules.conflict.damage import apply_success
from rules.conflict.events import DefenceGranted, Defended, Pile, Resolved
from rules.conflict.figure import grant_pool
from rules.conflict.metal_wins import DeflectionWon, deflection_won, moves_metal, stirred
from rules.conflict.reflect import reflect
from rules.conflict.specs import ActionKind
from rules.conflict.state import (
    Awaiting,
    Conflict,
    LogEntry,
    LogKind,
    Participant,
    PendingAttack,
    Phase,
    Status,
)
from rules.conflict.taps import roll_boons, with_tapped_outcome
from rules.conflict.work import Work, require_phase
from rules.contest import ContestResult, decide
from rules.errors import RulesError
from rules.pool import MAX_DICE, MIN_DICE, Boon, Pool, build_pool
from rules.powers.pushes import Deflection, deflection
from rules.roll import Reading, read, roll


def needs_grant(participant: Participant) -> bool:
    """Busy with a no-roll action (or arrived mid-round) and not yet given Defense Dice."""
    state = participant.round
    if state.granted or state.status is Status.WAITING:
        return False
    declaration = state.declaration
    return declaration is None or declaration.action.kind is ActionKind.NO_ROLL


def can_defend(participant: Participant) -> bool:
    """Whether the target could commit a pool now (or will be granted dice to try)."""
    return needs_grant(participant) or participant.pile >= MIN_DICE


def _check_defence(conflict: Conflict, command: Defend) -> PendingAttack:
    pending = conflict.pending
    if command.attack_id is not None and (pending is None or pending.id != command.attack_id):
        raise RulesError("That action has already been settled; each action can be defended against once.")
    if pending is None:
        raise RulesError("There is no attack to defend against right now.")
    if pending.awaiting is not Awaiting.DEFENCE or pending.target is None:
        raise RulesError(
            f"{conflict.does(pending.target, 'has')} already defended against this action; once per action."
        )
    if command.participant != pending.target:
        raise RulesError(f"Only {conflict.name_of(pending.target)} can defend against this action.")
    if command.dice != 0 and not MIN_DICE <= command.dice <= MAX_DICE:
        raise RulesError(
            f"Defend with 0 dice (no defence) or a pool of {MIN_DICE} to {MAX_DICE}; "
            f"{command.dice} will not do."
        )
    if command.dice == 0 and command.defence_faces is not None:
        raise RulesError("No defence means no defence dice to roll; leave the faces out.")
    return pending


def _deflecting(
    work: Work, pending: PendingAttack, target: Participant, command: Defend
) -> Deflection | None:
    """A deflection, against a metal attack (a push, or a metal projectile), by a Steel or Iron
    burner only, with dice to defend with (docs/rulings.md §9.3)."""
    if not command.deflect:
        return None
    if pending.action.push is None and not pending.action.metal:
        raise RulesError("Only a metal attack (a push or pull, or a metal projectile) can be deflected.")
    if command.dice == 0:
        raise RulesError("Deflecting is a defence: commit 2 or more dice to deflect with.")
    return deflection(work.sheet(target))


def defend(conflict: Conflict, work: Work, command: Defend) -> Conflict:
    require_phase(conflict, Phase.RESOLVE)
    pending = _check_defence(conflict, command)
    target = conflict.participant(command.participant)
    deflecting = _deflecting(work, pending, target, command)
    state = target.round
    reacting = (command.traits_for, command.traits_against, command.tool, command.circumstances)
    if needs_grant(target):
        pool = grant_pool(conflict, work, target, pending.action, command, deflecting)
        granted = max(0, pool.total)
        state = state.model_copy(
            update={
                "defense_dice": state.defense_dice + granted,
                "gained": state.gained + granted,
                "granted": True,
            }
        )
        work.emit(DefenceGranted(participant=target.id, dice=granted, pool=pool.contributions))
    elif any(reacting):
        raise RulesError(
            "Reaction Traits, Tools and Circumstances only shape the Defense Dice of someone busy "
            "elsewhere, when first attacked; leave them at 0."
        )
    waiting = state.status is Status.WAITING
    held = state.action_dice if waiting else state.defense_dice
    kind = "Action" if waiting else "Defense"
    if command.dice > held:
        raise RulesError(f"{target.does('has')} only {held} {kind} Dice to defend with.")
    pile_field = "action_dice" if waiting else "defense_dice"
    redirection = deflecting.bonus if deflecting else 0
    state = state.model_copy(
        update={
            pile_field: held - command.dice,
            "spent": state.spent + command.dice,
            "defended": (*state.defended, pending.id),
        }
    )
    work.emit(
        Defended(
            action_id=pending.id,
            participant=target.id,
            dice=command.dice,
            pile=Pile.ACTION if waiting else Pile.DEFENSE,
            left=held - command.dice,
            deflected=deflecting.metal if deflecting else "",
            redirection=redirection,
        )
    )
    defended = target.model_copy(update={"round": state})
    rolled = min(MAX_DICE, command.dice + redirection)
    reflects = deflecting is not None and deflecting.reflects
    deflected = deflecting.metal if deflecting else ""
    if pending.table_roll and command.attack_faces is None:
        # The attacker throws at the table now the defence is set (docs/rulings.md §7.2, §4.10).
        defence = {"defence_dice": rolled, "defence_faces": command.defence_faces, "reflects": reflects}
        thrown = pending.model_copy(update={"awaiting": Awaiting.ROLL, "deflected": deflected, **defence})
        return conflict.with_participant(defended, pending=thrown)
    # Settled now: the attack leaves the state in the copy that records the defence.
    conflict = conflict.with_participant(defended, pending=None)
    pending = pending.model_copy(update={"deflected": deflected}) if deflected else pending
    return settle_roll(
        conflict, work, pending, command.attack_faces, rolled, command.defence_faces, reflects=reflects
    )


def throw(conflict: Conflict, work: Work, command: Throw) -> Conflict:
    """The attacker's dice, rolled at the table once the defence was committed (§7.2): the
    Contest is then decided as if both had been thrown together."""
    require_phase(conflict, Phase.RESOLVE)
    pending = conflict.pending
    if pending is None or pending.awaiting is not Awaiting.ROLL:
        raise RulesError("No action is waiting for dice rolled at the table.")
    if command.attack_id is not None and command.attack_id != pending.id:
        raise RulesError("Those dice were already given; the action is settled.")
    attacker = conflict.name_of(pending.attacker)
    if command.participant != pending.attacker:
        raise RulesError(f"Only {attacker}'s side gives the dice {attacker} rolled.")
    if command.faces is not None and len(command.faces) != pending.pool:
        raise RulesError(
            f"{attacker} acted with {pending.pool} dice: give {pending.pool} faces, not {len(command.faces)}."
        )
    return settle_roll(
        conflict,
        work,
        pending,
        command.faces,
        pending.defence_dice,
        pending.defence_faces,
        reflects=pending.reflects,
    )


def _reading(
    work: Work,
    dice: int,
    faces: Sequence[int] | None,
    label: str,
    *,
    difficulty: int = 1,
    extra: bool,
    boons: tuple[Boon, ...] = (),
    modifiers: tuple[tuple[str, int], ...] = (),
) -> Reading:
    """A pile's roll: a tap's Nudges and Outcome (``boons``, §9.4) and dice off (Atium
    Advantage, §9.7) ride on the plain count."""
    if boons or modifiers:
        pool = build_pool(dice, rating_label=label, modifiers=list(modifiers), boons=boons)
    else:
        pool = Pool.of_dice(dice, label=label)
    if faces is None:  # thrown here: 1-6 on each of the pool's dice, nothing to check
        return roll(pool, work.generator(), difficulty=difficulty, extra=extra)
    return read(tuple(faces), pool=pool, difficulty=difficulty, extra=extra)


def settle_roll(
    conflict: Conflict,
    work: Work,
    pending: PendingAttack,
    attack_faces: Sequence[int] | None,
    defence_dice: int,
    defence_faces: Sequence[int] | None,
    *,
    reflects: bool = False,
) -> Conflict:
    """Roll the action (and the defence), decide the Contest, and move on (docs/rulings.md §3);
    a deflection by someone with Reflect Ranged Attack may send it back (§9.7).

    The attacker's dice are thrown first, then the defender's, so a seeded generator replays.
    """
    attacker = conflict.participant(pending.attacker)
    acting = _reading(
        work,
        pending.pool,
        attack_faces,
        "Action Dice",
        difficulty=pending.difficulty,
        extra=attacker.is_extra,
        boons=roll_boons(conflict, work, pending),
    )
    opposing: list[Reading] = []
    if defence_dice:
        assert pending.target is not None
        target = conflict.participant(pending.target)
        advantage = advantage_dice(work, attacker)
        cut = (("Atium Advantage", advantage),) if advantage else ()
        opposing.append(
            _reading(work, defence_dice, defence_faces, "Defense Dice", extra=target.is_extra, modifiers=cut)
        )
    result = with_tapped_outcome(decide([acting], opposing), acting)
    success = moves_metal(pending, result)
    nudges = acting.nudges if success else 0
    awaiting = success and nudges > 0
    won = _deflection(conflict, work, pending, result, reflects)
    work.emit(
        Resolved(
            action_id=pending.id,
            attacker=pending.attacker,
            target=pending.target,
            contest=result,
            success=success,
            stalemate=result.stalemate,
            nudges=nudges,
            awaiting_nudges=awaiting,
            wrested=pending.action.held and success,
            in_body=pending.action.inside,
            deflected=pending.deflected if won is not None else "",
            caught=won is not None and won.caught,
            draws=won is not None and won.draws,
            stirred=stirred(work, attacker, pending, acting, result),
        )
    )
    if awaiting:
        settled = pending.model_copy(
            update={
                "awaiting": Awaiting.NUDGES,
                "nudges": nudges,
                "free_nudges": acting.free_nudges,
                "result": acting.result,
                "outcome": result.outcome,
            }
        )
        return conflict.model_copy(update={"pending": settled})
    if conflict.pending is not None:  # a defence has cleared it already
        conflict = conflict.model_copy(update={"pending": None})
    if result.stalemate:
        entry = LogEntry(
            kind=LogKind.STALEMATE,
            round=conflict.round,
            attacker=attacker.id,
            attacker_name=attacker.name,
            target=pending.target,
            target_name=conflict.name_of(pending.target) if pending.target is not None else "",
        )
        return conflict.with_log(entry)
    if success:
        spend = SpendNudges(participant=attacker.id, defeat_burden=pending.defeat_burden)
        return apply_success(conflict, work, pending, spend)
    return reflect(conflict, work, pending, won.back) if won is not None and won.back >= 0 else conflict


def _deflection(
    conflict: Conflict, work: Work, pending: PendingAttack, result: ContestResult, reflects: bool
) -> DeflectionWon | None:
    """A won deflection's extras (docs/rulings.md §9.3, §9.7): sent back, caught, or drawn in."""
    if not pending.deflected or pending.target is None:
        return None
    burns_iron = "Iron" in work.sheet(conflict.participant(pending.target)).allomancy.burning
    return deflection_won(pending, result, pending.deflected, reflects, burns_iron)
