"""Fixtures for the fault tests: the in-process bot of ``tests/bot`` and its fake Discord.

``bot_env`` is the very fixture the bot tests use (a real discord.py bot on the loopback fake,
SQLite in ``tmp_path``), re-exported so a fault test drives the same path a user does.
"""

from tests.bot.conftest import bot_env

__all__ = ["bot_env"]
