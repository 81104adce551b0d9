"""The buttons a prompt offers, drawn with the move that asks it (``bot.render.buttons`` has their
look; the cog's ``DynamicItem``s answer the clicks).

They are drawn as the JSON of the message body (``bot.render.components``): the move queues that
body in the outbox, and a discord.py view is made of it only where the reply is sent."""

from typing import Any

import discord

from bot.cogs.conflict.answers import Prompt
from bot.cogs.conflict.turns import MIN_POOL, Turn
from bot.render.buttons import (
    act_component,
    declare_component,
    declare_detail_component,
    declare_select_component,
    defeat_burden_component,
    defend_component,
    deflect_component,
    hidden_dice_component,
    metal_component,
    narrator_view_component,
    new_action_component,
    nudge_component,
    nudge_split_component,
    react_traits_component,
    throw_component,
    undo_component,
)
from bot.render.components import JSON, item_of, room

Components = list[JSON]


def turn_components(conflict_id: int, turn: Turn) -> Components:
    """A turn's buttons: the target menu (with a Steel or Iron burner's pushes) and the other
    declarations, or the pool sizes."""
    who, round_number, targets, pushes = turn.participant, turn.round, turn.targets, turn.pushes_with
    if turn.step == "declare":
        menu = [declare_select_component(conflict_id, round_number, who, targets, pushes)] if targets else []
        choices = ("action", "defence", "noroll")
        buttons = [declare_component(conflict_id, round_number, who, choice) for choice in choices]
        return [*menu, *buttons, declare_detail_component(conflict_id, round_number, who, targets, pushes)]
    drawn = [act_component(conflict_id, round_number, who, dice) for dice in (*turn.act_with, 0)]
    can_switch = not turn.switched and (turn.held is None or turn.held >= MIN_POOL)
    if can_switch and (turn.act_with or turn.target_down) and turn.targets:
        drawn.append(new_action_component(conflict_id, round_number, who))
    if turn.attacks and turn.act_with:
        drawn.append(defeat_burden_component(conflict_id, round_number, who))
    return drawn


def prompt_items(prompt: Prompt) -> list[discord.ui.Item[Any]]:
    """A prompt's buttons as discord.py items, for the board's card (``questions.board_buttons``)."""
    return [item_of(component) for component in prompt_components(prompt)]


def prompt_components(prompt: Prompt | None) -> Components:
    """A prompt's buttons, in the order it shows them (none when nothing waits for an answer)."""
    if prompt is None:
        return []
    conflict, attack = prompt.conflict_id, prompt.attack_id
    drawn = turn_components(conflict, prompt.turn) if prompt.turn is not None else []
    drawn += [defend_component(conflict, attack, dice) for dice in prompt.defend_with]
    if prompt.deflect_with:
        drawn.append(deflect_component(conflict, attack, prompt.deflect_with, prompt.deflect_metal))
    if prompt.react_traits:
        drawn.append(react_traits_component(conflict, attack, prompt.react_traits))
    drawn += [throw_component(conflict, attack, mode) for mode in (("type", "bot") if prompt.throw else ())]
    drawn += [nudge_component(conflict, attack, mode) for mode in prompt.nudge_modes]
    drawn += [nudge_split_component(conflict, attack)] if prompt.nudge_modes else []
    if prompt.hidden:
        drawn.append(hidden_dice_component(conflict, prompt.hidden))
    if prompt.narrator_view:
        drawn.append(narrator_view_component(conflict))
    # One place is kept for the reply's Undo (``with_undo``).
    fits = max(0, room(drawn) - 1)
    if prompt.burn_to_deflect is not None:  # docs/rulings.md §9.3
        round_number, who, burns = prompt.burn_to_deflect
        burn = [metal_component(conflict, round_number, who, v, m, label) for v, m, label in burns[:fits]]
        return drawn + burn
    return drawn + metal_components(conflict, prompt.turn, fits)


def metal_components(conflict_id: int, turn: Turn | None, fits: int) -> Components:
    """Burn, flare and drink for an Allomancer's turn, as many as fit on the message (the rest
    by ``/burn`` and ``/drink``)."""
    if turn is None:
        return []
    who, round_number = turn.participant, turn.round
    return [
        metal_component(conflict_id, round_number, who, verb, what, label)
        for verb, what, label in turn.metals[:fits]
    ]


def with_undo(components: Components, conflict_id: int, version: int) -> Components:
    """A move's reply's buttons and its **Undo** (docs/rulings.md §4.24), when a row has room
    (five rows full: the prompt's buttons matter more)."""
    if room(components) < 1:
        return components
    return [*components, undo_component(conflict_id, version)]
