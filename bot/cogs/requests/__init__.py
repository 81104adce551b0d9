"""``/request``: the Narrator asks for rolls and Contests; each player rolls from a button."""

from bot.cogs.requests.commands import RequestCommands

__all__ = ["RequestCommands"]
