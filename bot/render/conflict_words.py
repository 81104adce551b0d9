"""The words every Conflict message shares: names, dice, aims, the resolve order and who moves next.

Each function that can show a participant's numbers takes a :class:`Visibility`; for a
participant it hides (a secret Villain or Extra in a public message, docs/rulings.md §7.1) it
says what happens without the dice held, ratings or Wits behind it.
"""

from collections.abc import Callable, Sequence

import discord

from bot.render.common import plain
from bot.render.visibility import FULL, Visibility
from rules.character import Resilience
from rules.conflict import (
    ActionKind,
    ActionSpec,
    Conflict,
    ConflictType,
    Participant,
    Phase,
    Pile,
    Step,
    Waiting,
)
from rules.conflict.resolve import too_few_to_act
from rules.pool import Contribution, Source
from rules.words import count_of, names_say, verb

DEFEAT = discord.Colour.dark_red()
COUNTED = (Source.TRAIT, Source.TOOL, Source.CIRCUMSTANCE)
"""Parts read as a count ("+ Trait", "+ Tool"), as in ``bot.render.dice.pool_breakdown``."""
PILES = {Pile.ACTION: "Action Dice", Pile.DEFENSE: "Defense Dice", Pile.NONE: "dice"}
TITLE_LIMIT = 256


def plural(count: int, word: str) -> str:
    """ "1 Nudge", "2 Nudges", "1 die" (``rules.words.count_of``)."""
    return count_of(count, word)


def bold(name: str, limit: int | None = None) -> str:
    """A name in bold, clipped before escaping so an escape is never cut in half."""
    if limit is not None and len(name) > limit:
        name = name[: limit - 1] + "…"
    return f"**{plain(name)}**"


def who(conflict: Conflict, participant_id: int | None, limit: int | None = None) -> str:
    return bold(conflict.name_of(participant_id), limit)


def aimed_at(conflict: Conflict, participant_id: int | None, limit: int | None = None) -> str:
    """Whom a declaration aims at, in bold; a fighter who left since is named and said to have
    left ("**Thug** (left)"), never "someone"."""
    if participant_id is None or conflict.find(participant_id) is not None:
        return who(conflict, participant_id, limit)
    name = conflict.departed_name(participant_id)
    return f"{bold(name, limit)} (left)" if name is not None else conflict.name_of(participant_id)


def is_group(conflict: Conflict, participant_id: int | None) -> bool:
    """A group of Extras (size above 1) reads as plural, whatever its name (docs/rulings.md §8.2)."""
    found = conflict.find(participant_id) if participant_id is not None else None
    return found is not None and found.many


def does(conflict: Conflict, participant_id: int | None, singular: str, limit: int | None = None) -> str:
    """ "**Vin** joins", "**Guards** join": the name and its verb in agreement."""
    return f"{who(conflict, participant_id, limit)} {verb(singular, is_group(conflict, participant_id))}"


def dice(count: int) -> str:
    return count_of(count, "die")


def pile_dice(count: int, pile: Pile) -> str:
    """ "1 Action Die", "12 Action Dice"."""
    if pile is Pile.NONE:
        return dice(count)
    kind = "Action" if pile is Pile.ACTION else "Defense"
    return count_of(count, f"{kind} Die")


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
    """ "a physical attack on **Carrow** (Health)", "full defence", "an action against **Koel**";
    what a Steelpush throws or a Steel or Iron burner may deflect (docs/rulings.md §9.3)."""
    if action.kind is ActionKind.ATTACK:
        aim = f" ({action.resilience.label})" if action.resilience is not None else ""
        kind = f"a {action.attack_kind.value} attack" if action.attack_kind is not None else "an attack"
        text = f"{kind} on {aimed_at(conflict, action.target)}{aim}"
    elif action.kind is ActionKind.ACTION:
        text = "an action" + (
            f" against {aimed_at(conflict, action.target)}" if action.target is not None else ""
        )
    elif action.kind is ActionKind.FULL_DEFENCE:
        text = "full defence"
    else:
        text = "an action that needs no roll"
    if action.push is not None:  # docs/rulings.md §9.3
        text += f" with a {action.push.value} metal object pushed or pulled"
    elif action.metal:
        text += " with a metal projectile"
    if action.held or action.anchored:
        text += (
            (" on metal in their body" if action.inside else " on a metal object they hold")
            if action.held
            else ""
        )
        text += ", braced on anchors" if action.anchored else ""
    if action.kind.rolls and not action.contest:
        text += " that cannot be resisted"
    if action.difficulty is not None and action.difficulty > 1:
        text += f" at Difficulty {action.difficulty}"
    if action.label:
        text += f", “{plain(action.label)}”"
    return text


def declared(
    conflict: Conflict,
    participant: Participant,
    name: Callable[[int | None], str],
    resilience: Callable[[Resilience], str],
) -> str:
    """A participant's declared action in a few words ("physical attack → Vin (Health)",
    "action", "full defence"), empty before they declare: the one wording the board
    (``bot.render.conflict_status``) and the web view (``bot.web.snapshot``) share, each naming
    the target and the Resilience its own way (the board clips and escapes for Discord, the web
    page's script escapes for HTML)."""
    declaration = participant.round.declaration
    if declaration is None:
        return ""
    action = declaration.action
    if action.kind is ActionKind.ATTACK:
        kind = f"{action.attack_kind.value} " if action.attack_kind is not None else ""
        aim = f" ({resilience(action.resilience)})" if action.resilience is not None else ""
        return f"{kind}attack → {name(action.target)}{aim}"
    if action.kind is ActionKind.ACTION:
        return "action" + (f" → {name(action.target)}" if action.target is not None else "")
    return "full defence" if action.kind is ActionKind.FULL_DEFENCE else "no roll"


def order_text(
    conflict: Conflict, order: Sequence[Sequence[int]], limit: int | None = None, view: Visibility = FULL
) -> str:
    """ "Thorrow 12 · Carrow 9 · Cordal & Koel 6 · Ignus (switched)": ties share a step.

    A step with a hidden participant shows no count: it would be their Action Dice.
    """
    steps = []
    for step in order:
        names = " & ".join(who(conflict, pid, limit) for pid in step)
        found = conflict.find(step[0]) if step else None
        if found is not None and found.round.switched:
            steps.append(f"{names} (switched, goes last)")
        elif not all(view.shows(pid) for pid in step):
            steps.append(names)
        else:
            steps.append(f"{names} {found.order_key if found is not None else '?'}")
    return " · ".join(steps) or "nobody"


def _act_line(people: Sequence[Participant], limit: int | None, view: Visibility) -> str:
    """Whose turn it is; anyone under 2 Action Dice is told they can only not act (§4.9). A
    hidden character reads like any other hidden turn, whatever it holds: "too few" would tell
    its dice (§7.1)."""
    stuck = [p for p in people if view.shows(p.id) and too_few_to_act(p)]

    def one(p: Participant) -> str:
        if not view.shows(p.id):
            return bold(p.name, limit)
        held = pile_dice(p.round.action_dice, Pile.ACTION)
        short = ": too few for a pool, so they can only not act" if p in stuck else ""
        return f"{bold(p.name, limit)} ({held}{short})"

    listed = ", ".join(one(p) for p in people)
    together = " (at the same moment)" if len(people) > 1 else ""
    if len(stuck) == len(people):
        return f"Not act{together}: {listed} — `/pass`"
    if all(p.round.switched for p in people):  # one switch a round (§4.8)
        return f"Act{together}: {listed} — `/act` (or `/pass`)"
    return f"Act{together}: {listed} — `/act` (or `/switch`, or `/pass`)"


def _declarer(p: Participant, limit: int | None, view: Visibility) -> str:
    notes = [f"Wits {p.wits}"] if view.shows(p.id) else []
    notes += ["surprised"] if p.surprised else []
    return bold(p.name, limit) + (f" ({', '.join(notes)})" if notes else "")


def next_step_line(
    conflict: Conflict, waiting: Waiting, limit: int | None = None, view: Visibility = FULL
) -> str:
    """Who must do what next, and the command for it."""
    names = [conflict.find(pid) for pid in waiting.participants]
    people = [p for p in names if p is not None]
    match waiting.step:
        case Step.DECLARE:
            listed = ", ".join(_declarer(p, limit, view) for p in people)
            return f"Declare: {listed or 'nobody'} — `/declare`"
        case Step.ACT:
            beat = [p for p in people if p.round.extra_action]
            if beat:
                p = beat[0]
                held = f" ({pile_dice(p.round.defense_dice, Pile.DEFENSE)} left)" if view.shows(p.id) else ""
                name = bold(p.name, limit)
                return (
                    f"Extra action: {name}{held} — `/act`, `/switch` for a new one, or `/pass` to let it go"
                )
            return _act_line(people, limit, view)
        case Step.DEFEND:
            pending = conflict.pending
            against = f" against {who(conflict, pending.attacker, limit)}" if pending is not None else ""
            listed = ", ".join(bold(p.name, limit) for p in people)
            return f"Defend: {listed}{against} — choose dice below (0 = no defence)"
        case Step.ROLL:  # docs/rulings.md §7.2
            listed = names_say([bold(p.name, limit) for p in people], "rolls", any(p.many for p in people))
            pool = conflict.pending.pool if conflict.pending is not None else 0
            return f"Roll at the table: {listed} {pool} dice — type them below, or `/act faces:`"
        case Step.NUDGES:
            nudges = conflict.pending.nudges if conflict.pending is not None else 0
            listed = names_say([bold(p.name, limit) for p in people], "has", any(p.many for p in people))
            return f"Spend Nudges: {listed} {nudges} — `/nudges`"
        case Step.NEXT_ROUND:
            return "Round over: Narrator, **Next round** on the board or `/conflict next-round`"
        case Step.BEGIN:  # docs/rulings.md §4.22
            return (
                "The cast gathers: `/conflict join` (Heroes) or `/conflict add`. Narrator, once everyone "
                "is in, press **Begin round 1** on the board or `/conflict begin`"
            )
        case Step.JOIN:
            begin = ", then `/conflict begin`" if waiting.phase is Phase.GATHER else ""
            return f"Add participants with `/conflict add` / `/conflict join`{begin}"
    return "The Conflict has ended."
