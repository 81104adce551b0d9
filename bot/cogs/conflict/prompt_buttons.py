"""The buttons a prompt offers, drawn with the move that asks it (``bot.render.buttons`` has their
look; the cog's ``DynamicItem``s answer the clicks)."""

from typing import Any

import discord

from bot.cogs.conflict.answers import Prompt
from bot.cogs.conflict.metal_offers import room
from bot.cogs.conflict.turns import MIN_POOL, Turn
from bot.render.buttons import (
    act_button,
    declare_button,
    declare_detail_select,
    declare_select,
    defeat_burden_select,
    defend_button,
    deflect_select,
    hidden_dice_button,
    metal_button,
    narrator_view_button,
    new_action_button,
    nudge_button,
    nudge_split_button,
    react_traits_select,
    stopped,
    throw_button,
    undo_button,
)

Items = list[discord.ui.Item[Any]]


def turn_items(conflict_id: int, turn: Turn) -> Items:
    """A turn's buttons: the target menu (with a Steel or Iron burner's pushes) and the other
    declarations, or the pool sizes."""
    who, round_number, targets, pushes = turn.participant, turn.round, turn.targets, turn.pushes_with
    if turn.step == "declare":
        menu: Items = [declare_select(conflict_id, round_number, who, targets, pushes)] if targets else []
        choices = ("action", "defence", "noroll")
        buttons = [declare_button(conflict_id, round_number, who, choice) for choice in choices]
        return [*menu, *buttons, declare_detail_select(conflict_id, round_number, who, targets, pushes)]
    items: Items = [act_button(conflict_id, round_number, who, dice) for dice in (*turn.act_with, 0)]
    can_switch = not turn.switched and (turn.held is None or turn.held >= MIN_POOL)
    if can_switch and (turn.act_with or turn.target_down) and turn.targets:
        items.append(new_action_button(conflict_id, round_number, who))
    if turn.attacks and turn.act_with:
        items.append(defeat_burden_select(conflict_id, round_number, who))
    return items


def prompt_view(prompt: Prompt | None) -> discord.ui.View | None:
    """The buttons of a prompt, or None when nothing waits for an answer."""
    if prompt is None:
        return None
    return stopped(prompt_items(prompt))


def prompt_items(prompt: Prompt) -> Items:
    """A prompt's buttons, in the order it shows them."""
    conflict, attack = prompt.conflict_id, prompt.attack_id
    items: Items = turn_items(conflict, prompt.turn) if prompt.turn is not None else []
    items += [defend_button(conflict, attack, dice) for dice in prompt.defend_with]
    if prompt.deflect_with:
        items.append(deflect_select(conflict, attack, prompt.deflect_with, prompt.deflect_metal))
    if prompt.react_traits:
        items.append(react_traits_select(conflict, attack, prompt.react_traits))
    items += [throw_button(conflict, attack, mode) for mode in (("type", "bot") if prompt.throw else ())]
    items += [nudge_button(conflict, attack, mode) for mode in prompt.nudge_modes]
    items += [nudge_split_button(conflict, attack)] if prompt.nudge_modes else []
    if prompt.hidden:
        items.append(hidden_dice_button(conflict, prompt.hidden))
    if prompt.narrator_view:
        items.append(narrator_view_button(conflict))
    # One place is kept for the reply's Undo (``with_undo``).
    fits = max(0, room(items) - 1)
    if prompt.burn_to_deflect is not None:  # docs/rulings.md §9.3
        round_number, who, burns = prompt.burn_to_deflect
        burn = [metal_button(conflict, round_number, who, v, m, label) for v, m, label in burns[:fits]]
        return items + burn
    return items + metal_items(conflict, prompt.turn, fits)


def metal_items(conflict_id: int, turn: Turn | None, fits: int) -> Items:
    """Burn, flare and drink for an Allomancer's turn, as many as fit on the message (the rest
    by ``/burn`` and ``/drink``)."""
    if turn is None:
        return []
    who, round_number = turn.participant, turn.round
    return [
        metal_button(conflict_id, round_number, who, verb, what, label)
        for verb, what, label in turn.metals[:fits]
    ]


def with_undo(view: discord.ui.View | None, conflict_id: int, version: int) -> discord.ui.View | None:
    """A move's reply's buttons and its **Undo** (docs/rulings.md §4.24), when a row is free.

    ``view`` is the reply's own, drawn by this move (``prompt_view``): Undo joins it there."""
    if view is None:
        return stopped([undo_button(conflict_id, version)])
    try:
        return view.add_item(undo_button(conflict_id, version))
    except ValueError:  # five rows full: the prompt's buttons matter more (nothing was added)
        return view
