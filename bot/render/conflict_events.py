"""What one Conflict command did, in the bot's own words: a line per event and the next step.

The engine returns events as data (``rules.conflict.events``); this module turns them into
short lines for the reply to the command. Names come from the state after the command
(``Conflict.name_of``) or from the event when the participant may be gone, and every piece of
player text goes through ``plain``.
"""

from collections.abc import Sequence

import discord

from bot.render.common import plain
from bot.render.dice import DECISIONS, faces_text
from rules.character import Resilience
from rules.conflict import (
    ActionKind,
    ActionSpec,
    Conflict,
    ConflictType,
    EndReason,
    Event,
    Participant,
    Pile,
    Side,
    Step,
    Waiting,
)
from rules.conflict import events as ev
from rules.conflict.resolve import too_few_to_act
from rules.contest import Side as ContestSide
from rules.pool import Contribution, Source
from rules.roll import Reading

DEFEAT = discord.Colour.dark_red()
COUNTED = (Source.TRAIT, Source.TOOL, Source.CIRCUMSTANCE)
"""Parts read as a count ("+ Trait", "+ Tool"), as in ``bot.render.dice.pool_breakdown``."""
PILES = {Pile.ACTION: "Action Dice", Pile.DEFENSE: "Defense Dice", Pile.NONE: "dice"}
TITLE_LIMIT = 256


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def bold(name: str, limit: int | None = None) -> str:
    """A name in bold, clipped before escaping so an escape is never cut in half."""
    if limit is not None and len(name) > limit:
        name = name[: limit - 1] + "…"
    return f"**{plain(name)}**"


def who(conflict: Conflict, participant_id: int | None, limit: int | None = None) -> str:
    return bold(conflict.name_of(participant_id), limit)


def dice(count: int) -> str:
    return "1 die" if count == 1 else f"{count} dice"


def pile_dice(count: int, pile: Pile) -> str:
    """ "1 Action Die", "12 Action Dice"."""
    if pile is Pile.NONE:
        return dice(count)
    kind = "Action" if pile is Pile.ACTION else "Defense"
    return f"{count} {kind} {'Die' if count == 1 else 'Dice'}"


def parts_text(pool: Sequence[Contribution]) -> str:
    """ "Physique 6 + Trait + Pewter 5": the sum the way a table says it."""
    parts = [f"{plain(c.label)} {c.dice}" for c in pool[:1]]
    for c in pool[1:]:
        sign = "+" if c.dice > 0 else "−"
        parts.append(
            f"{sign} {plain(c.label)}" if c.source in COUNTED else f"{sign} {plain(c.label)} {abs(c.dice)}"
        )
    return " ".join(parts)


def aim_text(kind: ConflictType | None, resilience: Resilience | None) -> str:
    """ "physical, Willpower": how an attack lands and what it wears down (docs/rulings.md §4.5)."""
    return ", ".join(
        part for part in (kind.value if kind else "", resilience.label if resilience else "") if part
    )


def action_phrase(conflict: Conflict, action: ActionSpec) -> str:
    """ "a physical attack on **Carrow** (Health)", "full defence", "an action against **Koel**"."""
    if action.kind is ActionKind.ATTACK:
        aim = f" ({action.resilience.label})" if action.resilience is not None else ""
        kind = f"a {action.attack_kind.value} attack" if action.attack_kind is not None else "an attack"
        text = f"{kind} on {who(conflict, action.target)}{aim}"
    elif action.kind is ActionKind.ACTION:
        text = "an action" + (f" against {who(conflict, action.target)}" if action.target is not None else "")
    elif action.kind is ActionKind.FULL_DEFENCE:
        text = "full defence"
    else:
        text = "an action that needs no roll"
    if action.kind.rolls and not action.contest:
        text += " that cannot be resisted"
    if action.difficulty is not None and action.difficulty > 1:
        text += f" at Difficulty {action.difficulty}"
    if action.label:
        text += f", “{plain(action.label)}”"
    return text


def _declared(c: Conflict, e: ev.Declared) -> str:
    line = f"{who(c, e.participant)} declares {action_phrase(c, e.action)}"
    if e.pile is Pile.NONE:
        line += ": no dice (Defense Dice come if attacked)"
    else:
        line += f": {pile_dice(e.dice, e.pile)} — {parts_text(e.pool)}"
        if e.bonus:
            line += f" + {e.bonus} from last round's Nudges"
    if e.bonus_lost:
        line += f"; the {dice(e.bonus_lost)} bought with Nudges last round are lost"
    return line


def order_text(conflict: Conflict, order: Sequence[Sequence[int]], limit: int | None = None) -> str:
    """ "Thorrow 12 · Carrow 9 · Cordal & Koel 6 · Ignus (switched)": ties share a step."""
    steps = []
    for step in order:
        names = " & ".join(who(conflict, pid, limit) for pid in step)
        found = conflict.find(step[0]) if step else None
        if found is not None and found.round.switched:
            steps.append(f"{names} (switched, goes last)")
        else:
            steps.append(f"{names} {found.order_key if found is not None else '?'}")
    return " · ".join(steps) or "nobody"


def _acted(c: Conflict, e: ev.Acted) -> str:
    verb = {ActionKind.ATTACK: "attacks", ActionKind.ACTION: "acts"}.get(e.kind, "acts")
    line = f"{who(c, e.participant)} {'takes the extra action and ' if e.extra else ''}{verb}"
    if e.target is not None:
        line += f" {'' if e.kind is ActionKind.ATTACK else 'against '}{who(c, e.target)}"
        aim = aim_text(e.attack_kind, e.resilience)
        if aim:
            line += f" ({aim})"
    line += f" with {dice(e.pool)}"
    if e.difficulty > 1:
        line += f" at Difficulty {e.difficulty}"
    if e.kept:
        line += f", keeping {pile_dice(e.kept, Pile.DEFENSE)}"
    if e.awaiting_defence:
        line += f"; waiting for {who(c, e.target)} to defend"
    return line


def _switched(c: Conflict, e: ev.Switched) -> str:
    return (
        f"{who(c, e.participant)} switches to {action_phrase(c, e.action)}: "
        f"{e.refigured} dice ({parts_text(e.pool)}), halved to {e.halved}"
        + (f", less {e.lost} already gone" if e.lost else "")
        + f" → {pile_dice(e.dice, Pile.ACTION)}; goes last"
    )


def _passed(c: Conflict, e: ev.Passed) -> str:
    held = pile_dice(e.defense_dice, Pile.DEFENSE)
    if e.declined_beat:
        return f"{who(c, e.participant)} lets the Beat's extra action go ({held} left)"
    return f"{who(c, e.participant)} does not act: now holds {held}"


def _defended(c: Conflict, e: ev.Defended) -> str:
    if not e.dice:
        return f"{who(c, e.participant)} does not defend ({pile_dice(e.left, e.pile)} kept)"
    return f"{who(c, e.participant)} defends with {pile_dice(e.dice, e.pile)} ({e.left} left)"


def roll_text(name: str, reading: Reading) -> str:
    """ "**Thorrow** rolls **3** **3** 6✦ 6✦ 1 2 (Result 3, 2 Nudges)"."""
    result = f"Result {reading.result}" if reading.has_set else "no matching set"
    return f"{name} rolls {faces_text(reading)} ({result}, {plural(reading.tiebreak_nudges, 'Nudge')})"


def _resolved(c: Conflict, e: ev.Resolved) -> str:
    contest = e.contest
    attacker, target = who(c, e.attacker), who(c, e.target)
    line = roll_text(attacker, contest.acting)
    if contest.acting.difficulty > 1:
        line += f" against Difficulty {contest.acting.difficulty}"
    opposing = contest.opposing
    line += f"; {roll_text(target, opposing)}" if opposing is not None else ""
    if contest.winner is ContestSide.ACTING:
        verdict = f"{attacker} succeeds"
    elif contest.winner is None:
        verdict = "Stalemate"
    elif e.target is not None and opposing is not None:
        verdict = f"{target} holds off {attacker}"
    else:
        verdict = f"{attacker} fails"
    line += f" → {verdict}. {DECISIONS[contest.decided_by]}"
    if e.awaiting_nudges:
        line += f" {attacker} has {plural(e.nudges, 'Nudge')} to spend."
    return line


def _nudges(c: Conflict, e: ev.NudgesSpent) -> str:
    name = who(c, e.participant)
    if e.catch_beat:
        return f"{name} spends all {e.available} Nudges to catch a Beat"
    uses = [
        (e.damage, "on damage"),
        (e.remove_dice, "to remove dice"),
        (e.next_round, "for dice next round"),
        (e.story, "on the story"),
    ]
    spent = ", ".join(f"{n} {what}" for n, what in uses if n)
    line = f"{name} spends {plural(e.available - e.unspent, 'Nudge')}" + (f": {spent}" if spent else "")
    return line + (f" ({e.unspent} unspent, lost)" if e.unspent else "")


def _burdens_text(e: ev.DamageDealt) -> str:
    text = ""
    if len(e.burdens_added) == 1:
        burden = e.burdens_added[0]
        text = f" and gains a {burden.severity.label} Burden: {plain(burden.name)}"
    elif e.burdens_added:
        listed = ", ".join(f"{plain(b.name)} ({b.severity.label})" for b in e.burdens_added)
        text = f" and gains Burdens: {listed}"
    if e.burdens_skipped:
        text += f" (already had {', '.join(plain(b.name) for b in e.burdens_skipped)})"
    return text


def _damage(c: Conflict, e: ev.DamageDealt) -> str:
    target = who(c, e.target)
    parts = ["1"] + ([f"{plural(e.nudges, 'Nudge')}"] if e.nudges else [])
    parts += [f"weapon {e.weapon}"] if e.weapon else []
    sum_text = " + ".join(parts) + (f" − armour {e.armour}" if e.armour else "")
    found = c.find(e.target)
    if e.members_lost or (found is not None and found.is_extra):
        return (
            f"{target} take {e.amount} damage{f' ({sum_text})' if len(parts) > 1 else ''}: "
            f"{plural(e.members_lost, 'member')} down ({e.before} → {e.after} standing)"
        )
    if not e.amount:
        return f"{target} takes no damage ({sum_text})"
    taken = f"{e.taken} damage" if e.taken == e.amount else f"{e.taken} of {e.amount} damage"
    line = f"{target} takes {taken} to {e.resilience.label} ({e.before} → {e.after})"
    return line + _burdens_text(e) + f" [{sum_text}]"


def _defeated(c: Conflict, e: ev.Defeated) -> str:
    line = f"{who(c, e.participant)} is defeated"
    line += f": {e.condition.label}" if e.condition is not None else ": every member is down"
    if e.simultaneous:
        line += " — but still takes the action they share this moment with their attacker"
    return line


def _round_started(c: Conflict, e: ev.RoundStarted) -> str:
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


def event_line(c: Conflict, event: Event) -> str:
    """One event in a short line."""
    match event:
        case ev.Declared():
            return _declared(c, event)
        case ev.Acted():
            return _acted(c, event)
        case ev.Switched():
            return _switched(c, event)
        case ev.Passed():
            return _passed(c, event)
        case ev.Defended():
            return _defended(c, event)
        case ev.Resolved():
            return _resolved(c, event)
        case ev.NudgesSpent():
            return _nudges(c, event)
        case ev.DamageDealt():
            return _damage(c, event)
        case ev.Defeated():
            return _defeated(c, event)
        case ev.RoundStarted():
            return _round_started(c, event)
        case ev.ConflictEnded():
            return ended_text(event)
        case ev.Waiting():
            return next_step_line(c, event)
    return _roster_line(c, event)


def _roster_line(c: Conflict, event: Event) -> str:
    match event:
        case ev.Joined(participant=pid, side=side, surprised=surprised):
            return f"{who(c, pid)} joins the {side.label}" + (" (surprised)" if surprised else "")
        case ev.Left(name=name):
            return f"{bold(name)} leaves the Conflict"
        case ev.Reordered(order=order):
            return "Declaration order set: " + " → ".join(who(c, pid) for pid in order)
        case ev.SurpriseChanged(participant=pid, surprised=surprised):
            if surprised:
                return f"{who(c, pid)} is surprised: declares before the others"
            return f"{who(c, pid)} is no longer surprised"
        case ev.BurningChanged(participant=pid, metal=metal, burning=burning, health=health):
            verb = "burns" if burning else "stops burning"
            extra = f" (Health now {health})" if metal == "Pewter" else ""
            return f"{who(c, pid)} {verb} {plain(metal)}{extra}"
        case ev.ResolveStarted(order=order):
            return f"Everyone has declared. Resolve order: {order_text(c, order)}"
        case ev.DiceAdjusted(participant=pid, pile=pile, delta=delta, dice=count, reason=reason):
            why = f" ({plain(reason)})" if reason else ""
            return f"The Narrator changes {who(c, pid)}'s {PILES[pile]} by {delta:+d}{why}: now {count}"
        case ev.DefenceGranted(participant=pid, dice=count, pool=pool):
            granted = pile_dice(count, Pile.DEFENSE)
            return f"{who(c, pid)} is busy elsewhere, so gets {granted} — {parts_text(pool)}"
        case ev.DiceRemoved(participant=pid, pile=pile, removed=removed, left=left):
            return f"{who(c, pid)} loses {pile_dice(removed, pile)} to the Nudges ({left} left)"
        case ev.BeatCaught(participant=pid, dice=count):
            return f"{who(c, pid)} catches a Beat: an extra action now, from the {dice(count)} left"
    return "Something happened."


def event_lines(conflict: Conflict, events: Sequence[Event]) -> list[str]:
    """One line per event, leaving out the trailing ``Waiting`` (shown as the next step)."""
    return [event_line(conflict, e) for e in events if not isinstance(e, Waiting)]


def _act_line(people: Sequence[Participant], limit: int | None) -> str:
    """Whose turn it is; anyone under 2 Action Dice is told they can only not act (§4.9)."""
    stuck = [p for p in people if too_few_to_act(p)]
    listed = ", ".join(
        f"{bold(p.name, limit)} ({pile_dice(p.round.action_dice, Pile.ACTION)}"
        + (": too few for a pool, so they can only not act" if p in stuck else "")
        + ")"
        for p in people
    )
    together = " (at the same moment)" if len(people) > 1 else ""
    if len(stuck) == len(people):
        return f"Not act{together}: {listed} — `/pass`"
    return f"Act{together}: {listed} — `/act` (or `/switch`, or `/pass`)"


def next_step_line(conflict: Conflict, waiting: Waiting, limit: int | None = None) -> str:
    """Who must do what next, and the command for it."""
    names = [conflict.find(pid) for pid in waiting.participants]
    people = [p for p in names if p is not None]
    match waiting.step:
        case Step.DECLARE:
            listed = ", ".join(
                f"{bold(p.name, limit)} (Wits {p.wits}{', surprised' if p.surprised else ''})" for p in people
            )
            return f"Declare: {listed or 'nobody'} — `/declare`"
        case Step.ACT:
            beat = [p for p in people if p.round.extra_action]
            if beat:
                p = beat[0]
                held = pile_dice(p.round.defense_dice, Pile.DEFENSE)
                name = bold(p.name, limit)
                return f"Extra action: {name} ({held} left) — `/act`, or `/pass` to let it go"
            return _act_line(people, limit)
        case Step.DEFEND:
            pending = conflict.pending
            against = f" against {who(conflict, pending.attacker, limit)}" if pending is not None else ""
            listed = ", ".join(bold(p.name, limit) for p in people)
            return f"Defend: {listed}{against} — choose dice below (0 = no defence)"
        case Step.NUDGES:
            nudges = conflict.pending.nudges if conflict.pending is not None else 0
            listed = ", ".join(bold(p.name, limit) for p in people)
            return f"Spend Nudges: {listed} has {nudges} — `/nudges`"
        case Step.NEXT_ROUND:
            return "Round over: Narrator, `/conflict next-round`"
        case Step.JOIN:
            return "Add participants with `/conflict add` / `/conflict join`"
    return "The Conflict has ended."
