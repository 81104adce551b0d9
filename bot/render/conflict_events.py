"""What one Conflict command did, in the bot's own words: a line per event and the next step.

The engine returns events as data (``rules.conflict.events``); this module turns them into
short lines for the reply to the command. Names come from the state after the command
(``Conflict.name_of``) or from the event when the participant may be gone, and every piece of
player text goes through ``plain``. A public reply hides the numbers of the Narrator's secret
participants (a :class:`Visibility`, docs/rulings.md §7.1): the dice they hold, the ratings
behind them and what a hit left of them; the dice they throw are shown, as at the table.
"""

from collections.abc import Sequence

from bot.render.common import plain
from bot.render.conflict_metal import deflection_text, in_body_text
from bot.render.conflict_words import (
    DEFEAT,
    PILES,
    TITLE_LIMIT,
    action_phrase,
    aim_text,
    bold,
    dice,
    does,
    is_group,
    next_step_line,
    order_text,
    parts_text,
    pile_dice,
    plural,
    who,
)
from bot.render.dice import PLAIN_FACES, DiceFaces, decision_text, faces_text, outcome_text
from bot.render.visibility import FULL, Visibility
from rules.conflict import ActionKind, Conflict, EndReason, Event, Pile, Side, Waiting
from rules.conflict import events as ev
from rules.contest import Side as ContestSide
from rules.powers.ledger import moves_line
from rules.roll import Reading
from rules.words import verb

__all__ = [
    "DEFEAT",
    "TITLE_LIMIT",
    "aim_text",
    "bold",
    "ended_text",
    "event_line",
    "event_lines",
    "next_step_line",
    "order_text",
    "pile_dice",
    "plural",
]


def _declared(c: Conflict, e: ev.Declared, v: Visibility) -> str:
    declares = "changes their declaration to" if e.changed else "declares"
    line = f"{does(c, e.participant, declares)} {action_phrase(c, e.action)}"
    if not v.shows(e.participant):
        return line  # the dice and the ratings behind them are the Narrator's (§7.1)
    if e.pile is Pile.NONE:
        line += ": no dice (Defense Dice come if attacked)"
    else:
        line += f": {pile_dice(e.dice, e.pile)} — {parts_text(e.pool)}"
        if e.bonus:
            line += f" + {e.bonus} from last round's Nudges"
    if e.electrum:  # docs/rulings.md §9.3
        line += f"; Electrum gives {pile_dice(e.electrum, Pile.DEFENSE)}"
    if e.bonus_lost:
        line += f"; the {dice(e.bonus_lost)} bought with Nudges last round are lost"
    return line


def _acted(c: Conflict, e: ev.Acted, v: Visibility) -> str:
    acts = {ActionKind.ATTACK: "attacks", ActionKind.ACTION: "acts"}.get(e.kind, "acts")
    line = does(c, e.participant, f"{'takes the extra action and ' if e.extra else ''}{acts}")
    if e.target is not None:
        line += f" {'' if e.kind is ActionKind.ATTACK else 'against '}{who(c, e.target)}"
        aim = aim_text(e.attack_kind, e.resilience)
        if aim:
            line += f" ({aim})"
    line += f" with {dice(e.pool)}"
    if e.difficulty > 1:
        line += f" at Difficulty {e.difficulty}"
    if e.kept and v.shows(e.participant):
        line += f", keeping {pile_dice(e.kept, Pile.DEFENSE)}"
    if e.awaiting_defence:
        line += f"; waiting for {who(c, e.target)} to defend"
    return line


def _switched(c: Conflict, e: ev.Switched, v: Visibility) -> str:
    goes = verb("goes", is_group(c, e.participant))
    if not v.shows(e.participant):
        return f"{does(c, e.participant, 'switches')} to {action_phrase(c, e.action)}; {goes} last"
    return (
        f"{does(c, e.participant, 'switches')} to {action_phrase(c, e.action)}: "
        f"{e.refigured} dice ({parts_text(e.pool)}), halved to {e.halved}"
        + (f", less {e.lost} already gone" if e.lost else "")
        + f" → {pile_dice(e.dice, Pile.ACTION)}; {goes} last"
    )


def _passed(c: Conflict, e: ev.Passed, v: Visibility) -> str:
    held = f" ({pile_dice(e.defense_dice, Pile.DEFENSE)} left)" if v.shows(e.participant) else ""
    if e.empty and v.shows(e.participant):  # §4.9: nothing to act with, so nobody waits for a click
        return f"{does(c, e.participant, 'has')} no Action Dice left, so the turn passes by{held}"
    if e.declined_beat:
        return f"{does(c, e.participant, 'lets')} the Beat's extra action go{held}"
    if not v.shows(e.participant):
        return f"{does(c, e.participant, 'does')} not act"
    return f"{does(c, e.participant, 'does')} not act: now {verb('holds', is_group(c, e.participant))} " + (
        pile_dice(e.defense_dice, Pile.DEFENSE)
    )


def _defended(c: Conflict, e: ev.Defended, v: Visibility) -> str:
    shows = v.shows(e.participant)
    if not e.dice:
        kept = f" ({pile_dice(e.left, e.pile)} kept)" if shows else ""
        return f"{does(c, e.participant, 'does')} not defend{kept}"
    deflects = f", deflecting with {e.deflected}" if e.deflected else ""
    redirected = f" and {dice(e.redirection)} of Improved Redirection" if e.redirection else ""
    if not shows:
        return f"{does(c, e.participant, 'defends')} with {dice(e.dice)}{redirected}{deflects}"
    held = f"{pile_dice(e.dice, e.pile)} ({e.left} left)"
    return f"{does(c, e.participant, 'defends')} with {held}{redirected}{deflects}"


def roll_text(name: str, reading: Reading, many: bool = False, faces: DiceFaces = PLAIN_FACES) -> str:
    """ "**Thorrow** rolls **3** **3** 6✦ 6✦ 1 2 (Result 3, 2 Nudges)": dice thrown in the open;
    a group rolls in the plural ("**House guards** roll", docs/rulings.md §8.2)."""
    result = f"Result {reading.result}" if reading.has_set else "no matching set"
    rolls = verb("rolls", many)
    dice = faces_text(reading, faces)
    return f"{name} {rolls} {dice} ({result}, {plural(reading.tiebreak_nudges, 'Nudge')})"


def _resolved(c: Conflict, e: ev.Resolved, faces: DiceFaces, v: Visibility = FULL) -> str:
    contest = e.contest
    acting = contest.acting  # the best of the acting rolls, worked out anew at each asking
    attacker, target = who(c, e.attacker), who(c, e.target)
    line = roll_text(attacker, acting, is_group(c, e.attacker), faces)
    if acting.difficulty > 1:
        line += f" against Difficulty {acting.difficulty}"
    opposing = contest.opposing
    line += f"; {roll_text(target, opposing, is_group(c, e.target), faces)}" if opposing is not None else ""
    if contest.winner is ContestSide.ACTING and not e.success:  # metal in a body (docs/rulings.md §9.3)
        verdict = f"{does(c, e.attacker, 'wins')} by Outcome {contest.outcome}, short of the 5 it needs"
    elif contest.winner is ContestSide.ACTING:
        verdict = does(c, e.attacker, "succeeds")
    elif contest.winner is None:
        verdict = "Stalemate"
    elif e.target is not None and opposing is not None:
        verdict = f"{does(c, e.target, 'holds')} off {attacker}"
    else:
        # Nobody resisted: a plain roll, read as any roll is (docs/rulings.md §3.5, §2.7).
        return line + f" → {does(c, e.attacker, 'fails')}. {outcome_text(acting)}." + _stirred(e, v)
    line += f" → {verdict}. {decision_text(contest.decided_by, attacker)}"
    tapped = ", ".join(b.label for b in acting.pool.boons if b.outcome)
    if tapped and contest.winner is ContestSide.ACTING and v.shows(e.attacker):  # a tap's Outcome (§9.4)
        line += f" Outcome {contest.outcome:+d}, with what {tapped} gave."
    if e.wrested:  # docs/rulings.md §9.3
        line += (
            in_body_text(c, e)
            or f" {does(c, e.target, 'is')} disarmed or knocked down, as {attacker} chooses."
        )
    line += deflection_text(c, e, v.shows(e.target) if e.target is not None else True)
    line += _stirred(e, v)
    if e.awaiting_nudges:
        line += f" {does(c, e.attacker, 'has')} {plural(e.nudges, 'Nudge')} to spend."
    return line


def _stirred(e: ev.Resolved, v: Visibility) -> str:
    """A rioting or soothing's hold or Complications (§9.3); a hidden actor's are the Narrator's (§7.1)."""
    return f" {e.stirred}" if e.stirred and v.shows(e.attacker) else ""


def _nudges(c: Conflict, e: ev.NudgesSpent) -> str:
    spends = does(c, e.participant, "spends")
    if e.catch_beat:
        return f"{spends} all {e.available} Nudges to catch a Beat"
    uses = [
        (e.damage, "on damage"),
        (e.remove_dice, "to remove dice"),
        (e.next_round, "for dice next round"),
        (e.story, "on the story"),
    ]
    spent = ", ".join(f"{n} {what}" for n, what in uses if n)
    line = f"{spends} {plural(e.available - e.unspent, 'Nudge')}" + (f": {spent}" if spent else "")
    return line + (f" ({e.unspent} unspent, lost)" if e.unspent else "")


def _burdens_text(e: ev.DamageDealt, many: bool) -> str:
    text = ""
    gains = verb("gains", many)
    if len(e.burdens_added) == 1:
        burden = e.burdens_added[0]
        text = f" and {gains} a {burden.severity.label} Burden: {plain(burden.name)}"
    elif e.burdens_added:
        listed = ", ".join(f"{plain(b.name)} ({b.severity.label})" for b in e.burdens_added)
        text = f" and {gains} Burdens: {listed}"
    if e.burdens_skipped:
        text += f" (already had {', '.join(plain(b.name) for b in e.burdens_skipped)})"
    return text


def _damage(c: Conflict, e: ev.DamageDealt, v: Visibility) -> str:
    line = _hit(c, e, v)
    if e.reflected:  # Reflect Ranged Attack (docs/rulings.md §9.7)
        return f"{does(c, e.attacker, 'sends')} the deflected attack back: {line}"
    return line


def _hit(c: Conflict, e: ev.DamageDealt, v: Visibility) -> str:
    found = c.find(e.target)
    extras = bool(e.members_lost) or (found is not None and found.is_extra)
    if not v.shows(e.target):
        # Armour, what was left and the wound are the sheet's: the table sees the hit land, or
        # glance off (only armour brings a hit to 0, docs/rulings.md §5.2).
        if not e.amount:
            return f"{does(c, e.target, 'is')} hit, but armour stops the blow: still {v.state(e.target)}"
        return f"{does(c, e.target, 'is')} hit: now {v.state(e.target)}"
    parts = ["1"] + ([f"{plural(e.nudges, 'Nudge')}"] if e.nudges else [])
    parts += [f"{plain(e.weapon_name) if e.weapon_name else 'weapon'} {e.weapon}"] if e.weapon else []
    sum_text = " + ".join(parts) + (f" − armour {e.armour}" if e.armour else "")
    sum_text += f" − {e.soaked_by} {e.soaked}" if e.soaked else ""  # docs/rulings.md §9.7
    if extras:
        return (
            f"{does(c, e.target, 'takes')} {e.amount} damage{f' ({sum_text})' if len(parts) > 1 else ''}: "
            f"{plural(e.members_lost, 'member')} down ({e.before} → {e.after} standing)"
        )
    takes = does(c, e.target, "takes")
    if not e.amount:
        return f"{takes} no damage ({sum_text})"
    taken = f"{e.taken} damage" if e.taken == e.amount else f"{e.taken} of {e.amount} damage"
    line = f"{takes} {taken} to {e.resilience.label} ({e.before} → {e.after})"
    return line + _burdens_text(e, is_group(c, e.target)) + f" [{sum_text}]"


def _defeated(c: Conflict, e: ev.Defeated) -> str:
    line = f"{does(c, e.participant, 'is')} defeated"
    line += f": {e.condition.label}" if e.condition is not None else ": every member is down"
    if e.simultaneous:
        takes = verb("takes", is_group(c, e.participant))
        line += f" — but still {takes} the action they share this moment with their attacker"
    return line


def _round_started(c: Conflict, e: ev.RoundStarted) -> str:
    if e.round == 1:  # the Narrator's Begin (docs/rulings.md §4.22)
        return "The cast is in: round 1 begins, and declaring starts with the slowest"
    line = f"Round {e.round} begins: every leftover die is gone; declare again"
    if e.dropped_action is not None:
        line += ". The unfinished action was dropped"
    if e.stalemates:
        pairs = ", ".join(
            f"{who(c, a)} vs {who(c, t)}" if t is not None else who(c, a) for a, t in e.stalemates
        )
        line += f". Stalemates carried over: {pairs}"
    return line


def ended_text(e: ev.ConflictEnded) -> str:
    rounds = plural(e.rounds, "round")
    if e.reason is EndReason.NARRATOR or not e.defeated_sides:
        return f"The Narrator ended the Conflict after {rounds}"
    if len(e.defeated_sides) > 1:
        return f"Both sides are defeated after {rounds}: the Conflict is over"
    side = e.defeated_sides[0]
    verb = "are" if side is Side.HEROES else "is"
    return f"The {side.label} {verb} defeated after {rounds}: the Conflict is over"


def event_line(c: Conflict, event: Event, view: Visibility = FULL, faces: DiceFaces = PLAIN_FACES) -> str:
    """One event in a short line, with the numbers ``view`` may show; dice written as ``faces``
    write them (text for the journal, the app's emojis on Discord's messages)."""
    match event:
        case ev.Declared():
            return _declared(c, event, view)
        case ev.Acted():
            return _acted(c, event, view)
        case ev.Switched():
            return _switched(c, event, view)
        case ev.Passed():
            return _passed(c, event, view)
        case ev.Defended():
            return _defended(c, event, view)
        case ev.Resolved():
            return _resolved(c, event, faces, view)
        case ev.NudgesSpent():
            return _nudges(c, event)
        case ev.DamageDealt():
            return _damage(c, event, view)
        case ev.Defeated():
            return _defeated(c, event)
        case ev.RoundStarted():
            return _round_started(c, event)
        case ev.ConflictEnded():
            return ended_text(event)
        case Waiting():
            return next_step_line(c, event, view=view)
    return _roster_line(c, event, view)


def _roster_line(c: Conflict, event: Event, v: Visibility) -> str:
    match event:
        case ev.Joined(participant=pid, side=side, surprised=surprised, late=late):
            line = f"{does(c, pid, 'joins')} the {side.label}" + (" (surprised)" if surprised else "")
            if late:  # docs/rulings.md §4.18
                line += f"; their place this round has passed, so they declare from round {c.round + 1}"
            return line
        case ev.Left(name=name):
            return f"{bold(name)} leaves the Conflict"
        case ev.Reordered(order=order):
            return "Declaration order set: " + " → ".join(who(c, pid) for pid in order)
        case ev.SurpriseChanged(participant=pid, surprised=surprised):
            if surprised:
                return (
                    f"{does(c, pid, 'is')} surprised: {verb('declares', is_group(c, pid))} before the others"
                )
            return f"{does(c, pid, 'is')} no longer surprised"
        case ev.BurningChanged(participant=pid, metal=metal, burning=burning, health=health, flared=flared):
            if not v.shows(pid):  # what a hidden sheet burns is the Narrator's (§7.1, §9.9)
                return ""
            burns = ("flares" if flared else "burns") if burning else "stops burning"
            extra = f" (Health now {health})" if metal == "Pewter" and v.shows(pid) else ""
            return f"{does(c, pid, burns)} {plain(metal)}{extra}"
        case ev.ChargesMoved():
            return _charges(c, event, v)
        case ev.ResolveStarted(order=order):
            return f"Everyone has declared. Resolve order: {order_text(c, order, view=v)}"
        case ev.DiceAdjusted(participant=pid, pile=pile, delta=delta, dice=count, reason=reason):
            why = f" ({plain(reason)})" if reason else ""
            if not v.shows(pid):
                return f"The Narrator adjusts {who(c, pid)}'s dice{why}"
            return f"The Narrator changes {who(c, pid)}'s {PILES[pile]} by {delta:+d}{why}: now {count}"
        case ev.DefenceGranted(participant=pid, dice=count, pool=pool):
            if not v.shows(pid):
                return (
                    f"{does(c, pid, 'is')} busy elsewhere, so {verb('gets', is_group(c, pid))} Defense Dice"
                )
            granted = pile_dice(count, Pile.DEFENSE)
            gets = verb("gets", is_group(c, pid))
            return f"{does(c, pid, 'is')} busy elsewhere, so {gets} {granted} — {parts_text(pool)}"
        case ev.DiceRemoved(participant=pid, pile=pile, removed=removed, left=left):
            if not v.shows(pid):
                return f"{does(c, pid, 'loses')} {dice(removed)} to the Nudges"
            return f"{does(c, pid, 'loses')} {pile_dice(removed, pile)} to the Nudges ({left} left)"
        case ev.BeatActionNamed(participant=pid, action=action):  # docs/rulings.md §4.15
            return f"{does(c, pid, 'makes')} the Beat's extra action a new one: {action_phrase(c, action)}"
        case ev.Anchored(participant=pid, health=health):  # docs/rulings.md §9.3
            now = f" (Health now {health})" if v.shows(pid) else ""
            return f"{does(c, pid, 'braces')} between two heavy anchors: 1 Health{now}"
        case ev.BeatCaught(participant=pid, dice=count):
            held = f", from the {dice(count)} left" if v.shows(pid) else ""
            return f"{does(c, pid, 'catches')} a Beat: an extra action now{held}"
    return "Something happened."


def _charges(c: Conflict, e: ev.ChargesMoved, v: Visibility) -> str:
    """The charges a Power moved; a hidden sheet's are the Narrator's (docs/rulings.md §9.9)."""
    if not v.shows(e.participant):
        return ""
    line = moves_line(c.name_of(e.participant), e.moves)
    return " ".join(plain(text) for text in (line, *e.notes) if text)


def event_lines(
    conflict: Conflict, events: Sequence[Event], view: Visibility = FULL, faces: DiceFaces = PLAIN_FACES
) -> list[str]:
    """One line per event, leaving out the trailing ``Waiting`` (shown as the next step)."""
    lines = (event_line(conflict, e, view, faces) for e in events if not isinstance(e, Waiting))
    return [line for line in lines if line]
