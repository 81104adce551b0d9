"""A hidden character's dice on the Narrator's private prompt (docs/rulings.md §7.1): the public
prompt of a Narrator's secret Villain or Extras offers every count, so its buttons tell the table
nothing; **Its dice (Narrator)** answers a Narrator privately with what the character holds and
the buttons its dice allow, without opening the whole Narrator view. (Its Narrator usually has
them already, on their private prompt: ``bot.cogs.conflict.narrator_prompt``.)

The button is a ``DynamicItem`` naming the Conflict and the character, so it works after a
restart; the buttons it answers with are the prompt's own (``DefendButton``, ``ActButton``'s
custom ids), which run the move through the one flow.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.cogs.conflict.narrator_prompt import exact_choices
from bot.errors import BotError
from bot.render.buttons import HIDDEN_DICE, hidden_dice_button
from bot.served import channel_id_of, guild_id_of
from bot.workers.board_state import stored_board


class HiddenDiceButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HIDDEN_DICE):
    def __init__(self, conflict: int, who: int) -> None:
        super().__init__(hidden_dice_button(conflict, who))
        self.conflict, self.who = conflict, who

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "HiddenDiceButton":
        return cls(int(match["conflict"]), int(match["who"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        (await caller(interaction)).require_narrator("see a hidden character's dice")
        interaction.client.conflicts.narrators.note(channel_id_of(interaction), interaction)
        found = await stored_board(
            interaction.client.storage, guild_id_of(interaction), channel_id_of(interaction)
        )
        if found is None or found[0].id != self.conflict or found[1].conflict is None:
            raise BotError("That Conflict has ended.")
        text, view = exact_choices(self.conflict, found[1].conflict, found[1].sheets, self.who)
        await replies.send(interaction, text, view=view, ephemeral=True)
