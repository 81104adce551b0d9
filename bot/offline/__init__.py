"""A loopback fake Discord for the real discord.py client: end-to-end tests and the offline console.

`running_bot(make_bot)` (harness.py) starts the fake on 127.0.0.1, points discord.py at it and
yields a Harness to send slash commands, clicks and menus; `run_console` (console.py) puts a
person at the same harness. Nothing here reaches the network beyond the loopback interface.
"""

from bot.offline.commandline import CommandLineError
from bot.offline.console import run_console
from bot.offline.harness import Harness, running_bot
from bot.offline.patch import pointed_at
from bot.offline.records import InteractionRecord, Violation
from bot.offline.server import FakeDiscord, Limits
from bot.offline.world import World, default_world

__all__ = [
    "CommandLineError",
    "FakeDiscord",
    "Harness",
    "InteractionRecord",
    "Limits",
    "Violation",
    "World",
    "default_world",
    "pointed_at",
    "run_console",
    "running_bot",
]
