"""The Powers in play outside a Conflict: ``/power`` burns, flares and stops a metal, drinks a
vial, stores into a metalmind, and (the Narrator's hand) moves time on, sets a reserve, makes
metal impure and poisons (docs/rulings.md §9). A tap is declared on the roll it helps
(``/roll tap:``, ``bot.cogs.dice``)."""

from bot.cogs.powers.commands import PowerCommands

__all__ = ["PowerCommands"]
