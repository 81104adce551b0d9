"""The Conflict's status board, its closing summary, and the prompt to defend.

The board is one embed per Conflict, edited after every change, so it must fit Discord's
limits with 25 participants whose names are 64 characters of Markdown (escaping doubles
them). Each participant gets one compact line, packed into a field per side; if the whole
board is still too long, names are shortened step by step (before escaping, so no escape is
cut in half), and only then are fields shaved by ``fit_embed``.

The board in the channel is public: a participant the :class:`Visibility` hides (the
Narrator's secret Villains and Extras, docs/rulings.md §7.1) shows as a name, what it does and
a plain state ("wounded"); the Narrator's own view of the board shows every number.
"""

from collections.abc import Callable, Mapping

import discord

from bot.render.common import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    INFO,
    NEUTRAL,
    fit,
    plain,
)
from bot.render.conflict_events import ended_text
from bot.render.conflict_words import (
    TITLE_LIMIT,
    aim_text,
    aimed_at,
    bold,
    declared,
    is_group,
    next_step_line,
    order_text,
    pile_dice,
    plural,
)
from bot.render.metals import held_emotion
from bot.render.rows import INDENT, wrap_row
from bot.render.sheet import add_lines, embed_units, fit_embed
from bot.render.visibility import FULL, Visibility
from rules.character import Character, Resilience, resilience_current, resilience_max
from rules.conflict import (
    ActionKind,
    Awaiting,
    Conflict,
    EndReason,
    Participant,
    Phase,
    Pile,
    Side,
    Status,
    available_defence,
    declaration_order,
    resolve_order,
    waiting,
)
from rules.conflict.defend import needs_grant
from rules.conflict.events import ConflictEnded, SummaryLine
from rules.conflict.figure import kind_of
from rules.conflict.order import declaration_key
from rules.conflict.specs import DEFENCE_ATTRIBUTE
from rules.errors import RulesError
from rules.words import count_of, says

NAME_LIMITS: tuple[int | None, ...] = (None, 32, 20, 12, 8)
"""Name lengths tried, longest first, until an embed fits Discord's 6000 characters."""
STAKES_LIMIT = 200
MARK = "▶ "
RESILIENCE_SHORT = {Resilience.HEALTH: "Health", Resilience.REPUTATION: "Rep", Resilience.WILLPOWER: "Will"}
PHASES = {
    Phase.GATHER: "gathering the cast",
    Phase.DECLARE: "declaring actions",
    Phase.RESOLVE: "resolving actions",
    Phase.ENDED: "ended",
}
STATUS_FOOTER = "▶ whose move it is · AD Action Dice · DD Defense Dice"
PUBLIC_FOOTER = STATUS_FOOTER + " · the Narrator's characters show their state only"


def shrink_to_fit(
    build: Callable[[int | None], discord.Embed], limit: int = EMBED_TOTAL_LIMIT
) -> discord.Embed:
    """The first rendering (full names, then shorter) within ``limit``; else the shortest, shaved."""
    embed = build(None)
    for names in NAME_LIMITS[1:]:
        if embed_units(embed) <= limit:
            return embed
        embed = build(names)
    return fit_embed(embed, limit)


def status_word(conflict: Conflict, participant: Participant) -> str:
    state = participant.round
    if participant.defeated:
        return "defeated, still acts" if participant.in_order else "defeated"
    if conflict.phase is Phase.ENDED:
        return "standing"
    if conflict.phase is Phase.GATHER:
        return "joined"
    if state.late:
        return "joins next round"
    if state.extra_action:
        return "extra action (Beat)"
    if state.status is Status.UNDECLARED:
        return "undeclared"
    if state.status is Status.WAITING:
        return "waiting (switched)" if state.switched else "waiting"
    return "done"


def _health_text(participant: Participant, sheet: Character | None) -> str:
    if participant.is_extra:
        return f"{participant.members_left}/{participant.size} standing"
    if sheet is None:
        return "sheet missing"
    pewter = participant.burning_pewter
    return " · ".join(
        f"{RESILIENCE_SHORT[r]} {resilience_current(sheet, r, pewter)}/{resilience_max(sheet, r, pewter)}"
        for r in Resilience
    )


def bought_dice(conflict: Conflict, participant: Participant) -> str:
    """Dice bought with Nudges: "1 die next round" while this round runs; once the next round is
    being declared, they join this declaration, so "1 die this round" (docs/rulings.md §8.3)."""
    undeclared = participant.round.status is Status.UNDECLARED
    when = "this round" if conflict.phase is Phase.DECLARE and undeclared else "next round"
    return f"{count_of(participant.next_round_dice, 'die')} {when}"


def participant_line(
    conflict: Conflict,
    participant: Participant,
    sheet: Character | None,
    marked: bool,
    limit: int | None,
    view: Visibility = FULL,
) -> str:
    """Two rows for a phone (``bot.render.rows``): who and what they do, then their numbers —
    "▶ **Thorrow** · burning Pewter · waiting · attack → **Carrow**" over
    "AD 12 · DD 0 · Health 14/14 · Rep 5/5 · Will 7/7 · 0 Burdens". A hidden participant's second
    row is its plain state instead of its numbers."""
    who_row = _identity(conflict, participant, sheet, marked, limit, view.shows(participant.id))
    if not view.shows(participant.id):
        return who_row + "\n" + INDENT + view.state(participant.id)
    return who_row + "\n" + INDENT + wrap_row(_numbers(conflict, participant, sheet))


def _identity(
    conflict: Conflict,
    participant: Participant,
    sheet: Character | None,
    marked: bool,
    limit: int | None,
    shown: bool,
) -> str:
    """Who, and what they do; what a hidden participant burns or flares, and its Pewter drag,
    are the Narrator's, as its sheet is (docs/rulings.md §7.1, §9.9)."""
    parts = [(MARK if marked else "") + bold(participant.name, limit)]
    if participant.surprised:
        parts.append("surprised")
    if shown:
        parts += _metals(participant)
        if sheet is not None and sheet.allomancy.pewter.drag:
            parts.append("Pewter drag")  # Physique halved, so Health (§9.3)
        if sheet is not None and (held := held_emotion(sheet)):
            parts.append(f"holding {held[0]} +{held[1]}")  # on Charm and Influence (§9.3)
    parts.append(status_word(conflict, participant))
    doing = declared(
        conflict, participant, lambda target: aimed_at(conflict, target, limit), RESILIENCE_SHORT.__getitem__
    )
    if doing:
        parts.append(doing)
    return wrap_row(" · ".join(parts))


def _metals(participant: Participant) -> list[str]:
    """ "burning Pewter+Tin", "flaring Steel" (docs/rulings.md §9.2)."""
    steady = [plain(m) for m in participant.burning if m not in participant.flared]
    flared = [plain(m) for m in participant.burning if m in participant.flared]
    return [
        f"{verb} " + "+".join(metals) for verb, metals in (("burning", steady), ("flaring", flared)) if metals
    ]


def _numbers(conflict: Conflict, participant: Participant, sheet: Character | None) -> str:
    state = participant.round
    parts = [f"AD {state.action_dice} · DD {state.defense_dice}"]
    if participant.next_round_dice:
        parts.append(f"+{bought_dice(conflict, participant)}")
    parts.append(_health_text(participant, sheet))
    if sheet is not None and sheet.burdens:
        parts.append(plural(len(sheet.burdens), "Burden"))
    elif sheet is None and participant.is_extra:
        parts.append("sheet missing")
    return " · ".join(parts)


def _order_line(conflict: Conflict, turn: tuple[int, ...], limit: int | None, view: Visibility) -> str:
    if conflict.phase is Phase.GATHER:  # docs/rulings.md §4.22: who is in so far, in their order
        names = [bold(p.name, limit) for p in declaration_order(conflict)]
        return f"Joined so far ({len(names)}): " + (" · ".join(names) or "nobody yet")
    if conflict.phase is Phase.DECLARE:
        names = []
        for p in declaration_order(conflict):
            done = p.round.status is not Status.UNDECLARED
            late = " (next round)" if p.round.late else ""
            names.append(("✓ " if done else MARK if p.id in turn else "") + bold(p.name, limit) + late)
        return "Declaration order: " + (" → ".join(names) or "nobody yet")
    if conflict.phase is Phase.RESOLVE:
        order = resolve_order(conflict)
        text = order_text(conflict, order, limit, view) if order else "everyone has acted"
        beat = [p for p in conflict.participants if p.round.extra_action]
        marker = MARK if order and not beat and set(order[0]) & set(turn) else ""
        if beat:
            text = f"{MARK}{bold(beat[0].name, limit)} (extra action) · {text}"
        return f"Resolve order: {marker}{text}"
    return ""


def _pending_line(conflict: Conflict, limit: int | None) -> str:
    pending = conflict.pending
    if pending is None:
        return ""
    attacker = bold(conflict.name_of(pending.attacker), limit)
    target = bold(conflict.name_of(pending.target), limit) if pending.target is not None else "no one"
    action = pending.action
    aim = aim_text(action.attack_kind, action.resilience) if action.kind is ActionKind.ATTACK else ""
    aimed = f"{target} ({aim})" if aim else target
    if pending.awaiting is Awaiting.DEFENCE:
        pool = count_of(pending.pool, "die")
        return f"In progress: {attacker} → {aimed}, {pool}, waiting for {target}'s defence"
    if pending.awaiting is Awaiting.ROLL:  # docs/rulings.md §7.2
        pool = count_of(pending.pool, "die")
        return f"In progress: {attacker} → {aimed}, {pool} rolled at the table, defence set"
    return f"In progress: {attacker} → {aimed} succeeded, {plural(pending.nudges, 'Nudge')} to spend"


def _status(
    conflict: Conflict, sheets: Mapping[int, Character], limit: int | None, view: Visibility
) -> discord.Embed:
    now = waiting(conflict)
    title = f"Conflict — round {conflict.round} · {conflict.type.label}"
    embed = discord.Embed(
        title=fit(title, TITLE_LIMIT), colour=NEUTRAL if conflict.phase is Phase.ENDED else INFO
    )
    stakes = conflict.stakes[:STAKES_LIMIT]
    lines = [f"Stakes: {plain(stakes)}", f"Phase: {PHASES[conflict.phase]}"]
    if conflict.ended is not None:
        lines[-1] += (
            " (by the Narrator)" if conflict.ended is EndReason.NARRATOR else " (a side was defeated)"
        )
    order, pending = _order_line(conflict, now.participants, limit, view), _pending_line(conflict, limit)
    lines += [line for line in (wrap_row(order), pending) if line]  # the attack in progress: a sentence
    embed.description = fit("\n".join(lines), DESCRIPTION_LIMIT)
    people = sorted(conflict.participants, key=declaration_key)
    for side in Side:
        members = [p for p in people if p.side is side]
        if members:
            rows = [
                participant_line(conflict, p, sheets.get(p.id), p.id in now.participants, limit, view)
                for p in members
            ]
            add_lines(embed, f"{side.label} ({len(members)})", rows)
    if not conflict.participants and conflict.phase is not Phase.GATHER:  # gathering says it above
        add_lines(embed, "Participants", ["Nobody yet."])
    embed.add_field(
        name="Next",
        value=fit(wrap_row(next_step_line(conflict, now, limit, view)), FIELD_VALUE_LIMIT),
        inline=False,
    )
    embed.set_footer(text=wrap_row(STATUS_FOOTER if view.full else PUBLIC_FOOTER))
    return embed


def status_embed(
    conflict: Conflict, sheets: Mapping[int, Character], view: Visibility = FULL
) -> discord.Embed:
    """THE status board: round, phase, order with ▶ on whose move it is, and everyone's state
    (as far as ``view`` shows it)."""
    return shrink_to_fit(lambda limit: _status(conflict, sheets, limit, view))


def summary_line(line: SummaryLine, limit: int | None, view: Visibility = FULL) -> str:
    parts = [f"dealt {line.dealt} damage"]
    if not view.shows(line.participant):
        state = "defeated" if line.defeated else view.states.get(line.participant or -1)
        return f"{bold(line.name, limit)}: " + " · ".join(parts + ([state] if state else []))
    if line.taken:
        parts.append("took " + ", ".join(f"{n} to {r.label}" for r, n in line.taken))
    if line.members_lost:
        parts.append(f"lost {plural(line.members_lost, 'member')}")
    if line.burdens:
        parts.append("Burdens: " + ", ".join(f"{plain(b.name)} ({b.severity.label})" for b in line.burdens))
    if line.defeated:
        parts.append("defeated")
    return f"{bold(line.name, limit)}: " + " · ".join(parts)


def _summary(ended: ConflictEnded, limit: int | None, view: Visibility) -> discord.Embed:
    embed = discord.Embed(title=f"Conflict over — {plural(ended.rounds, 'round')}", colour=NEUTRAL)
    embed.description = ended_text(ended) + "."
    for side, label in (
        (Side.HEROES, "Heroes"),
        (Side.OPPOSITION, "Opposition"),
        (None, "Left the Conflict"),
    ):
        rows = [summary_line(line, limit, view) for line in ended.summary if line.side is side]
        if rows:
            add_lines(embed, label, rows)
    if not ended.summary:
        add_lines(embed, "Participants", ["Nobody took part."])
    if ended.log_dropped:
        embed.set_footer(
            text=(
                "The oldest log entry was dropped"
                if ended.log_dropped == 1
                else f"The oldest {ended.log_dropped} log entries were dropped"
            )
            + " to keep the record small; the totals count only what was kept."
        )
    return embed


def summary_embed(
    ended: ConflictEnded, *, limit: int = EMBED_TOTAL_LIMIT, view: Visibility = FULL
) -> discord.Embed:
    """The closing summary: why it ended, and what each participant dealt and took (a hidden
    participant: what they dealt, and how they end up).

    ``limit`` is this embed's share of the message's 6000 characters (see ``events_embed``).
    """
    return shrink_to_fit(lambda names: _summary(ended, names, view), limit)


def defence_prompt(
    conflict: Conflict, sheets: Mapping[int, Character], view: Visibility = FULL
) -> str | None:
    """The question to the target of an attack waiting for a defence, or None.

    For a target ``view`` hides, the question goes to the Narrator without the dice it holds
    (the buttons offer every count; the Narrator view shows the pile).
    """
    pending = conflict.pending
    if pending is None or pending.awaiting is not Awaiting.DEFENCE or pending.target is None:
        return None
    target = conflict.find(pending.target)
    if target is None:
        return None
    hidden = not view.shows(target.id)
    attacker = plain(conflict.name_of(pending.attacker))
    many = is_group(conflict, pending.attacker)
    action = pending.action
    kind = kind_of(conflict, action)
    whose = "their" if hidden else "your"
    if action.kind is ActionKind.ATTACK and action.resilience is not None:
        attack = f"a {kind.value} attack" if action.attack_kind is not None else "an attack"
        pool = count_of(pending.pool, "die")
        what = f"{says(attacker, 'makes', many)} {attack} on {whose} {action.resilience.label} with {pool}"
    else:
        them = "them" if hidden else "you"
        what = f"{says(attacker, 'acts', many)} against {them} with {count_of(pending.pool, 'die')}"
    if pending.difficulty > 1:
        what += f" (Difficulty {pending.difficulty})"
    if action.label:
        what += f", “{plain(action.label)}”"
    if needs_grant(target):
        # docs/rulings.md §4.11: busy elsewhere, the kind of the attack picks the Attribute.
        attribute = DEFENCE_ATTRIBUTE[kind].label
        busy = (
            f"they get Defense Dice from their {attribute}"
            if hidden
            else (f"you get Defense Dice from your {attribute}")
        )
        what += f". Busy elsewhere, {busy} against a {kind.value} attack"
    if hidden:
        ask = "Narrator: choose the defence below (0 = don't defend); the Narrator view shows their dice."
        return fit(f"{bold(target.name)}: {what}. {ask}", 2000)
    try:
        available = available_defence(conflict, sheets, target.id)
    except RulesError:
        available = target.pile
    pile = Pile.ACTION if target.round.status is Status.WAITING else Pile.DEFENSE
    if available < 2:
        ask = f"You hold only {pile_dice(available, pile)}, too few for a pool: choose 0 (no defence)."
    else:
        ask = (
            f"Defend with how many of your {pile_dice(available, pile)}? "
            f"({'2' if available == 2 else f'2–{min(10, available)}'}, or 0 = don't defend)"
        )
        if pile is Pile.ACTION:
            ask += " Dice spent now leave fewer for your own action."
    return fit(f"{bold(target.name)}: {what}. {ask}", 2000)
