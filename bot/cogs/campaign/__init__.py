"""A campaign across nights (docs/rulings.md §9): a Hero's Advancements ledger."""

from bot.cogs.campaign.advancements import AdvancementCommands

__all__ = ["AdvancementCommands"]
