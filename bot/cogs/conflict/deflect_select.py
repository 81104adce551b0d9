"""Deflecting a metal attack from the defence prompt (docs/rulings.md §9.3): the menu a Steel or
Iron burner picks their dice from makes the very move of ``/defend deflect:true``.

A ``DynamicItem``, like the prompt's other buttons: the Conflict, the attack and any reaction
Traits are in its custom id, so it keeps working after a restart, and a stale pick is refused
plainly by the move itself.
"""

import re
from typing import Any

import discord

from bot.client import Interaction
from bot.cogs.conflict.build import DefenceOptions
from bot.cogs.conflict.delivery import run_click
from bot.render.buttons import DEFLECT, deflect_select


class DeflectSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DEFLECT):
    """Deflect with N dice; ``traits``: with that many reaction Traits helping (§4.11)."""

    def __init__(
        self,
        conflict: int,
        attack: int,
        traits: int = 0,
        dice: tuple[int, ...] = (),
        metal: str = "the metal",
    ) -> None:
        super().__init__(deflect_select(conflict, attack, dice, metal, traits))
        self.conflict = conflict
        self.attack = attack
        self.traits = traits

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "DeflectSelect":
        traits = int(match["traits"]) if match["traits"] else 0
        return cls(int(match["conflict"]), int(match["attack"]), traits)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        grace = interaction.client.conflicts.grace
        picked = self.item.values[0] if self.item.values else ""
        options = DefenceOptions(
            dice=int(picked) if picked.isdigit() else 0,
            attack_id=self.attack,
            traits=self.traits,
            deflect=True,
            waited=await grace.waits(interaction, self.attack),
            grace=grace.seconds,
        )
        await run_click(interaction, options, title="Defence", conflict_id=self.conflict)
