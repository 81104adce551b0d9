"""Conflicts in a channel: ``/conflict`` (the Narrator's set-up and pacing) and the round's moves."""

from bot.cogs.conflict.moves import ConflictMoves
from bot.cogs.conflict.setup import ConflictCog

__all__ = ["ConflictCog", "ConflictMoves"]
