"""A campaign across nights (docs/rulings.md §9): a Hero's Advancements ledger, and Destiny
and Tragedy as subplots."""

from bot.cogs.campaign.advancements import AdvancementCommands
from bot.cogs.campaign.story import StoryCommands

__all__ = ["AdvancementCommands", "StoryCommands"]
