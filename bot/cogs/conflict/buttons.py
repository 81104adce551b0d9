"""The buttons of a Conflict prompt: defend with N dice, or spend the Nudges of a hit.

They are ``DynamicItem``s: everything a click needs (which attack, how many dice) is in the
custom id, so they keep working after a restart without any view kept in memory. A click on
a prompt that is already settled (a stale button, or the second of two simultaneous clicks)
reaches the engine with its attack id and is refused with a clear private message.
"""

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import answer_error
from rules.character import Character
from rules.conflict import Awaiting, Conflict, available_defence
from rules.roll import CATCH_A_BEAT

if TYPE_CHECKING:
    from bot.app import MistbornBot

MAX_DEFENCE = 10


class DefendButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:defend:(?P<conflict>\d+):(?P<attack>\d+):(?P<dice>\d+)",
):
    def __init__(self, conflict: int, attack: int, dice: int) -> None:
        label = "Don't defend" if dice == 0 else f"Defend with {dice}"
        style = discord.ButtonStyle.secondary if dice == 0 else discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"mab:defend:{conflict}:{attack}:{dice}")
        )
        self.conflict = conflict
        self.attack = attack
        self.dice = dice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DefendButton":
        return cls(int(match["conflict"]), int(match["attack"]), int(match["dice"]))

    async def callback(self, interaction: discord.Interaction["MistbornBot"]) -> None:  # type: ignore[override]
        from bot.cogs.conflict.actions import ConflictActions

        try:
            cog = interaction.client.get_cog(ConflictActions.__cog_name__)
            assert isinstance(cog, ConflictActions)
            await cog.defend(interaction, dice=self.dice, attack_id=self.attack, conflict_id=self.conflict)
        except Exception as error:
            await answer_error(interaction, error)


NUDGE_MODES = {"damage": "All on damage", "beat": "Catch a Beat", "none": "Spend none"}


class NudgeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mab:nudges:(?P<conflict>\d+):(?P<attack>\d+):(?P<mode>damage|beat|none)",
):
    def __init__(self, conflict: int, attack: int, mode: str) -> None:
        style = discord.ButtonStyle.success if mode != "none" else discord.ButtonStyle.secondary
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=NUDGE_MODES[mode], style=style, custom_id=f"mab:nudges:{conflict}:{attack}:{mode}"
        )
        super().__init__(button)
        self.conflict = conflict
        self.attack = attack
        self.mode = mode

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "NudgeButton":
        return cls(int(match["conflict"]), int(match["attack"]), match["mode"])

    async def callback(self, interaction: discord.Interaction["MistbornBot"]) -> None:  # type: ignore[override]
        from bot.cogs.conflict.actions import ConflictActions

        try:
            cog = interaction.client.get_cog(ConflictActions.__cog_name__)
            assert isinstance(cog, ConflictActions)
            await cog.nudge_click(
                interaction, attack_id=self.attack, mode=self.mode, conflict_id=self.conflict
            )
        except Exception as error:
            await answer_error(interaction, error)


def prompt_view(
    conflict: Conflict, sheets: Mapping[int, Character], stored_id: int
) -> discord.ui.View | None:
    """Buttons for whoever must answer the pending attack, or None when nothing is pending.

    Each button names the stored Conflict and the attack it answers, so it can only ever
    settle that attack, even after a restart or once a new Conflict has begun.
    """
    pending = conflict.pending
    if pending is None:
        return None
    view = discord.ui.View(timeout=None)
    if pending.awaiting is Awaiting.DEFENCE and pending.target is not None:
        most = min(MAX_DEFENCE, available_defence(conflict, sheets, pending.target))
        view.add_item(DefendButton(stored_id, pending.id, 0))
        for dice in range(2, most + 1):
            view.add_item(DefendButton(stored_id, pending.id, dice))
        return view
    if pending.awaiting is Awaiting.NUDGES:
        view.add_item(NudgeButton(stored_id, pending.id, "damage"))
        if pending.nudges >= CATCH_A_BEAT:
            view.add_item(NudgeButton(stored_id, pending.id, "beat"))
        view.add_item(NudgeButton(stored_id, pending.id, "none"))
        return view
    return None
