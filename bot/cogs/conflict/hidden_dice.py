"""A hidden character's dice on the Narrator's private prompt (docs/rulings.md §7.1): the public
prompt of a Narrator's secret Villain or Extras offers every count, so its buttons tell the table
nothing; **Its dice (Narrator)** answers a Narrator privately with what the character holds and
the buttons its dice allow, without opening the whole Narrator view.

The button is a ``DynamicItem`` naming the Conflict and the character, so it works after a
restart; the buttons it answers with are the prompt's own (``DefendButton``, ``ActButton``),
which run the move through the one flow.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.conflict.buttons import MAX_DEFENCE, DefendButton
from bot.cogs.conflict.deflect_select import DeflectSelect
from bot.cogs.conflict.turn_buttons import ActButton
from bot.cogs.conflict.turns import turn_of
from bot.errors import BotError, answers_errors
from bot.render.buttons import HIDDEN_DICE, hidden_dice_button
from bot.render.common import plain
from bot.render.conflict import FULL
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board
from rules.conflict import Awaiting, available_defence
from rules.conflict.deflecting import deflect_offer

ANSWERED = "That question has been answered; the board shows who is up now."


class HiddenDiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HIDDEN_DICE):
    def __init__(self, conflict: int, who: int) -> None:
        super().__init__(hidden_dice_button(conflict, who))
        self.conflict, self.who = conflict, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "HiddenDiceButton":
        return cls(int(match["conflict"]), int(match["who"]))

    @answers_errors
    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        (await caller(interaction)).require_narrator("see a hidden character's dice")
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        state, sheets = found[1].conflict, found[1].sheets
        view = discord.ui.View(timeout=None)
        pending = state.pending
        if pending is not None and pending.awaiting is Awaiting.DEFENCE and pending.target == self.who:
            held = available_defence(state, sheets, self.who)
            for dice in (0, *range(2, min(MAX_DEFENCE, held) + 1)):
                view.add_item(DefendButton(self.conflict, pending.id, dice))
            text = f"holds {held} Defense Dice: defend with how many?"
            if (offer := deflect_offer(state, sheets)) is not None:  # its Steel or Iron (§9.3)
                dice = tuple(range(2, offer[1] + 1))
                view.add_item(DeflectSelect(self.conflict, pending.id, 0, dice, offer[0].metal))
                text += f" Or deflect it with {offer[0].metal}."
        else:
            turn = turn_of(state, sheets, FULL)
            if turn is None or turn.step != "act" or turn.participant != self.who:
                raise BotError(ANSWERED)
            for dice in (*turn.act_with, 0):
                view.add_item(ActButton(self.conflict, turn.round, self.who, dice))
            text = f"holds {turn.held} Action Dice: act with how many?"
        name = plain(state.participant(self.who).name)
        await replies.send(interaction, f"**{name}** {text}", view=view, ephemeral=True)
