"""The scene a Narrator sets in a channel: ``/scene circumstances`` and ``/scene breather``."""

from bot.cogs.scene.commands import SceneCommands

__all__ = ["SceneCommands"]
