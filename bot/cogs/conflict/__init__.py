"""Conflicts in a channel: the ``/conflict`` commands, their prompts and the status board."""

from bot.cogs.conflict.cog import ConflictCog

__all__ = ["ConflictCog"]
