"""Rolling dice: ``/roll``, ``/gmroll``, ``/read`` and ``/contest``; saved rolls and their
panel (``/rolls``)."""

from bot.cogs.dice.commands import Dice
from bot.cogs.dice.saved import SavedRolls

__all__ = ["Dice", "SavedRolls"]
