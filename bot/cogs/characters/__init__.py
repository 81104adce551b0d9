"""Character sheets through slash commands: ``/character``, ``/edit``, ``/sheet`` and ``/burden``,
plus the "View sheet" member menu (added by :class:`CharacterCommands`) and the guided Hero
builder's buttons, menus and forms (:class:`HeroBuilder`)."""

from bot.cogs.characters.builder import HeroBuilder
from bot.cogs.characters.edit import EditCommands
from bot.cogs.characters.manage import CharacterCommands
from bot.cogs.characters.play import BurdenCommands, SheetCommands

__all__ = ["BurdenCommands", "CharacterCommands", "EditCommands", "HeroBuilder", "SheetCommands"]
