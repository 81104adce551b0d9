"""Rolling dice: ``/roll``, ``/gmroll``, ``/read`` and ``/contest``."""

from bot.cogs.dice.commands import Dice

__all__ = ["Dice"]
