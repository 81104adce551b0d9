"""A campaign across nights (docs/rulings.md §10): a Hero's Advancements ledger, and Destiny
and Tragedy as subplots, the Narrator's Secrets and
the Narrator's own templates."""

from bot.cogs.campaign.advancements import AdvancementCommands
from bot.cogs.campaign.secrets import SecretCommands
from bot.cogs.campaign.story import StoryCommands
from bot.cogs.campaign.templates import TemplateCommands

__all__ = ["AdvancementCommands", "SecretCommands", "StoryCommands", "TemplateCommands"]
