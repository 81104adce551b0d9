"""What a Conflict waits for next, asked: the question of a pending defence or Nudges, or of the
turn to declare or act, with its prompt's buttons, for whoever must answer (docs/rulings.md §4.21).

The move service (``bot.cogs.conflict.service``) asks it after every move; the board draws the same
buttons under whoever is up (:func:`board_buttons`); the catch-up asks it anew after a restart
(:func:`asked_again`). One place decides what is asked, so the three never disagree.
"""

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.cogs.conflict.answers import NudgeMode, Prompt, Question, Reply, message
from bot.cogs.conflict.metal_offers import Offer, metal_offers
from bot.cogs.conflict.prompt_buttons import prompt_components, prompt_items
from bot.cogs.conflict.turns import turn_of
from bot.render.common import plain
from bot.render.conflict import Visibility, defence_prompt
from bot.render.conflict_card import CardButtons
from bot.render.conflict_turns import act_question, declare_question, throw_question
from bot.render.conflict_words import is_group
from bot.secrecy import visibility_of
from bot.workers.board_state import Shown, own_buttons
from rules.character import Character
from rules.conflict import Awaiting, Conflict, available_defence, beat_possible
from rules.conflict.defend import needs_grant
from rules.conflict.deflecting import deflect_offer, metal_attack_waiting
from rules.conflict.events import BeatActionNamed, BurningChanged, ChargesMoved, Defeated, Event, Left
from rules.errors import RulesError
from rules.powers.pushes import PUSHERS
from rules.words import count_of, verb
from storage import MessageKind, NewMessage

Sheets = Mapping[int, Character]

MAX_DEFENCE = 10
MAX_OPTIONS = 25
"""Options one Discord select menu holds."""


def reaction_traits(conflict: Conflict, sheets: Sheets, target: int) -> tuple[str, ...]:
    """The Traits a busy defender may react with (docs/rulings.md §4.11), for the prompt's menu;
    none for anyone whose Defense Dice are already in hand."""
    sheet = sheets.get(target)
    if sheet is None or not needs_grant(conflict.participant(target)):
        return ()
    traits = sheet.traits
    named = (traits.drive, traits.profession, traits.specialty, traits.feature, traits.personality)
    return tuple(dict.fromkeys(t for t in (*named, *traits.extras) if t))[:MAX_OPTIONS]


def deflect_burns(conflict: Conflict, sheets: Sheets) -> tuple[Offer, ...]:
    """The Steel or Iron a metal attack's target holds unlit and could burn to deflect it, as their
    turn's prompt would offer it, its label and all (docs/rulings.md §9.2, §9.3)."""
    pending = conflict.pending
    if not metal_attack_waiting(conflict) or pending is None or pending.target is None:
        return ()
    sheet = sheets.get(pending.target)
    if sheet is None:
        return ()
    return tuple(o for o in metal_offers(sheet) if o[0] == "burn" and o[1] in PUSHERS)


def turn_changed(asked: Question, events: Sequence[Event], answering: int | None = None) -> bool:
    """Whether this move changed what the turn still waiting offers, so it is asked again: its
    target fell (no pool for a fallen target), a Beat's extra action became a new one
    (docs/rulings.md §4.15: now a pool against the new target), or an Allomancer the prompt offers
    metals to burnt, flared or drank (§9.2); or, for a defence waiting, its defender (``answering``)
    lit or put out Steel or Iron, which changes the deflection offered (§9.3)."""
    turn = asked.prompt.turn
    if turn is None:
        return bool(asked.prompt.defend_with) and any(
            isinstance(e, BurningChanged) and e.participant == answering and e.metal in PUSHERS
            for e in events
        )
    if turn.beat and any(isinstance(e, BeatActionNamed) for e in events):
        return True
    if turn.allomancer and any(
        isinstance(e, BurningChanged | ChargesMoved) and e.participant == turn.participant for e in events
    ):
        return True  # what it may burn, flare or drink changed: the prompt offers the new choices
    return bool(turn.target_down) and any(isinstance(e, Defeated | Left) for e in events)


def question(conflict_id: int, conflict: Conflict, sheets: Sheets, view: Visibility) -> Question | None:
    """The question of the pending action (a defence, dice from the table or Nudges) or of the
    turn to declare or act, or None when nothing waits for anyone (the Narrator's next round,
    an ended fight)."""
    pending = conflict.pending
    if pending is None:
        return _turn_question(conflict_id, conflict, sheets, view)
    hidden_target = pending.target is not None and not view.shows(pending.target)
    if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
        answerer = pending.target
        text = defence_prompt(conflict, sheets, view) or ""
        # The buttons of a hidden target offer every count: their number would tell its dice.
        held = MAX_DEFENCE if hidden_target else available_defence(conflict, sheets, pending.target)
        most = min(MAX_DEFENCE, held)
        traits = () if hidden_target else reaction_traits(conflict, sheets, pending.target)
        if traits:
            text += " A Trait that helps you react adds a die: pick it in the menu."
        # A hidden target's Steel or Iron is the Narrator's: deflecting is then typed (§7.1, §9.3).
        offer = None if hidden_target else deflect_offer(conflict, sheets)
        if offer is not None:
            text += f" Burning {offer[0].metal}, you may deflect it: pick the dice in the menu."
        burns = () if hidden_target or offer is not None else deflect_burns(conflict, sheets)
        if burns:
            text += f" Burn {' or '.join(what for _, what, _ in burns)} to deflect it."
        prompt = Prompt(
            conflict_id,
            pending.id,
            defend_with=(0, *range(2, most + 1)),
            narrator_view=hidden_target,
            hidden=pending.target if hidden_target else 0,
            react_traits=traits,
            deflect_with=tuple(range(2, offer[1] + 1)) if offer is not None else (),
            deflect_metal=offer[0].metal if offer is not None else "",
            burn_to_deflect=(conflict.round, pending.target, burns) if burns else None,
        )
    elif pending.awaiting is Awaiting.ROLL:  # dice rolled at the table (docs/rulings.md §7.2)
        answerer = pending.attacker
        many = is_group(conflict, pending.attacker)
        text = throw_question(conflict.name_of(pending.attacker), pending.pool, many)
        prompt = Prompt(conflict_id, pending.id, throw=True)
    else:
        answerer = pending.attacker
        name = plain(conflict.name_of(pending.attacker))
        has = verb("has", is_group(conflict, pending.attacker))
        text = (
            f"**{name}** {has} {count_of(pending.nudges, 'Nudge')} to spend: "
            "use the buttons, or **Split Nudges…** (damage, remove dice, next round, story)."
        )
        # The Beat is offered only when it can be taken (docs/rulings.md §2.10, §4.15).
        beat: tuple[NudgeMode, ...] = ("beat",) if beat_possible(conflict, pending) else ()
        prompt = Prompt(conflict_id, pending.id, nudge_modes=("damage", *beat, "none"))
    sheet = sheets.get(answerer)
    return Question(prompt, text, () if sheet is None else (sheet.owner_id,))


def board_buttons(shown: Shown) -> CardButtons:
    """The board's buttons: its own at its foot, and under whoever must answer now the very
    buttons of their prompt (same custom ids, same flow when clicked; docs/rulings.md §4.21),
    as the public may see them (a hidden character's offer every count, §7.1)."""
    own = own_buttons(shown)
    conflict = shown.conflict
    if conflict is None:
        return own
    try:
        asked = question(shown.conflict_id, conflict, shown.sheets, shown.visibility())
    except RulesError:
        return own
    if asked is None:
        return own
    prompt = replace(asked.prompt, narrator_view=False, hidden=0)  # the board has its own at its foot
    pending = conflict.pending
    if prompt.turn is not None:
        up: int | None = prompt.turn.participant
    elif pending is not None:
        up = pending.target if prompt.defend_with else pending.attacker
    else:
        up = None
    return CardButtons(up=up, turn=prompt_items(prompt), bottom=own.bottom)


def _turn_question(conflict_id: int, conflict: Conflict, sheets: Sheets, view: Visibility) -> Question | None:
    turn = turn_of(conflict, sheets, view)
    if turn is None:
        return None
    if turn.step == "declare":
        text = declare_question(turn.name, turn.round, turn.stat, turn.many, turn.pushes_with)
    else:
        text = act_question(
            turn.name, turn.held, turn.act_with, turn.target_down, turn.many, turn.beat, turn.switched
        )
    sheet = sheets.get(turn.participant)
    # A hidden character's act buttons offer every size; the Narrator view tells the dice it holds.
    # Its metals are on its Narrator's private prompt alone, to declare with as to act (§9.10).
    burns = turn.step == "declare" and sheet is not None and bool(metal_offers(sheet))
    hidden = (turn.step == "act" or burns) and not view.shows(turn.participant)
    prompt = Prompt(conflict_id, turn=turn, narrator_view=hidden, hidden=turn.participant if hidden else 0)
    return Question(prompt, text, () if sheet is None else (sheet.owner_id,))


def asked_again(
    conflict_id: int, conflict: Conflict, sheets: Sheets, revealed: frozenset[int]
) -> NewMessage | None:
    """The pending action's question posted anew, with working buttons (after a restart, when
    the old prompt is gone or shows no buttons for it); None when nothing waits."""
    asked = question(conflict_id, conflict, sheets, visibility_of(conflict, sheets, revealed))
    if asked is None:
        return None
    reply = Reply(
        guild_id=0,
        channel_id=conflict.channel_id,
        embeds=[],
        content=asked.content,
        ping=asked.ping,
        prompt=asked.prompt,
        components=prompt_components(asked.prompt),
    )
    return message(MessageKind.PROMPT, reply, None)
