"""A campaign across nights (docs/rulings.md §9): a Hero's Advancements ledger, and Destiny
and Tragedy as subplots, the Narrator's Secrets."""

from bot.cogs.campaign.advancements import AdvancementCommands
from bot.cogs.campaign.secrets import SecretCommands
from bot.cogs.campaign.story import StoryCommands

__all__ = ["AdvancementCommands", "SecretCommands", "StoryCommands"]
