"""A loopback fake Discord for the real discord.py client: end-to-end tests and the offline console.

`running_bot(make_bot)` (harness.py) starts the fake on 127.0.0.1, points discord.py at it and
yields a Harness to send slash commands, clicks and menus; `run_console` (console.py) puts a
person at the same harness. Nothing here reaches the network beyond the loopback interface.

The package knows nothing of the project's bot, with two exceptions that compose the two:
``bot_console.py`` (what ``python -m bot`` opens without a token, found through an entry point)
and ``remote.py`` (the bot in its own process, for crash tests). The bot never imports this
package; ``tests/test_import_boundaries.py`` keeps it that way.

- server, gateway, gateway_hooks, routes, request_guards, validate, records, render: the fake
  itself; world (the model and sample worlds), permissions, world_json: what it hosts and how that
  looks on the wire; payloads, message_payloads: interactions and posted messages as Discord sends
  them; openapi holds every request against Discord's published OpenAPI description; modal_parts:
  the parts a modal's Labels hold (menus, radio groups, checkboxes), their limits and submitted
  shapes; layout: layout messages (IS_COMPONENTS_V2) as Discord takes, refuses and edits them;
- patch: points discord.py at it; harness: a bot in this process, driven like a person would,
  with component_search (what a person sees and points at) and modal_filling (a modal filled in);
- commandline, console, console_commands: typed lines to interactions, the console loop for any
  bot factory, and its ``!`` commands;
- process, load: a bot in another process (start, kill, stop) and a stream of writes to it.
"""

from fake_discord.backend import Limits
from fake_discord.commandline import CommandLineError
from fake_discord.console import run_console
from fake_discord.harness import Harness, running_bot
from fake_discord.patch import pointed_at
from fake_discord.records import InteractionRecord, Violation
from fake_discord.server import FakeDiscord
from fake_discord.world import World, default_world

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
