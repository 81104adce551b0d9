"""What a prompt offers: the defence or Nudge buttons, or a turn's (``turn_buttons``)."""

from typing import Any

import discord

from bot.cogs.conflict.buttons import (
    BUTTONS,
    DefendButton,
    NarratorViewButton,
    NudgeButton,
    ReactTraitsSelect,
)
from bot.cogs.conflict.turn_buttons import TURN_BUTTONS, add_turn
from bot.moves.answers import Prompt

ALL_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = BUTTONS + TURN_BUTTONS
"""Registered with the client while the moves' cog is loaded."""


def prompt_view(prompt: Prompt | None) -> discord.ui.View | None:
    """The buttons of a prompt, or None when nothing waits for an answer."""
    if prompt is None:
        return None
    view = discord.ui.View(timeout=None)
    if prompt.turn is not None:
        add_turn(view, prompt.conflict_id, prompt.turn)
    for dice in prompt.defend_with:
        view.add_item(DefendButton(prompt.conflict_id, prompt.attack_id, dice))
    if prompt.react_traits:
        view.add_item(ReactTraitsSelect(prompt.conflict_id, prompt.attack_id, prompt.react_traits))
    for mode in prompt.nudge_modes:
        view.add_item(NudgeButton(prompt.conflict_id, prompt.attack_id, mode))
    if prompt.narrator_view:
        view.add_item(NarratorViewButton(prompt.conflict_id))
    return view if view.children else None
