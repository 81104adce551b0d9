"""The offline console for this project's bot: what ``python -m bot`` opens without a token.

``bot/__main__.py`` finds :func:`run` through the ``mistborn_bot.offline_console`` entry point
(declared in pyproject.toml) instead of importing it, so the bot never depends on the fake.
This module is the glue the other way round: it builds MistbornBot on the real database and
hands it to the generic console (``console.py``). With ``remote.py`` it is one of the two
modules of the package that know our bot.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys

from bot.app import MistbornBot
from bot.config import Settings
from bot.logs import redact_handlers
from fake_discord.console import run_console
from fake_discord.world import offline_world
from storage import Storage


def run(settings: Settings, *, user: str, player: bool) -> int:
    """Run the console on ``settings.db_path`` as `user`, with the Narrator role unless `player`.

    Prompts on a terminal, runs a script from a pipe, and returns 1 if any line failed.
    """
    # The console's output is the conversation; only problems belong on stderr.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)
    redact_handlers()
    return asyncio.run(run_offline(settings, user=user, narrator=not player))


async def run_offline(settings: Settings, *, user: str, narrator: bool) -> int:
    """The same server and member ids on every run (``offline_world``), so sheets persist."""
    world = offline_world(user=user, narrator=narrator)
    local = settings.model_copy(update={"dev_guild_id": world.guild.id})
    if local.web_port is None:  # the web view is on in the console: /web gives its link
        local = local.model_copy(update={"web_port": 0})
    async with await Storage.open(settings.db_path) as storage:

        def make_bot() -> MistbornBot:
            return MistbornBot(settings=local, storage=storage, rng=random.SystemRandom())

        return await run_console(make_bot, input=sys.stdin, output=sys.stdout, user=user, world=world)
