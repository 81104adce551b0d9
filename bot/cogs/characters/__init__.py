"""Character sheets through slash commands: ``/character``, ``/edit``, ``/sheet`` and ``/burden``,
plus the "View sheet" member menu (added by :class:`CharacterCommands`)."""

from bot.cogs.characters.edit import EditCommands
from bot.cogs.characters.manage import CharacterCommands
from bot.cogs.characters.play import BurdenCommands, SheetCommands

__all__ = ["BurdenCommands", "CharacterCommands", "EditCommands", "SheetCommands"]
