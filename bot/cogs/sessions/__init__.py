"""``/session``: a night at one channel's table, its recap, its journal and the next one."""

from bot.cogs.sessions.commands import SessionCommands

__all__ = ["SessionCommands"]
