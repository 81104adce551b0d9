"""``python -m bot`` (or ``mistborn-bot``): run on Discord with a token, else the offline console.

The entry point owns every resource's lifetime — settings, the database, the bot — and hands
them to the bot (discord.py's ``advanced_startup.py``). The offline console connects the very
same bot to a fake Discord on 127.0.0.1, so a command typed there runs through discord.py's
real gateway, dispatch and REST code, against the same default database file.
"""

import argparse
import asyncio
import logging
import random
import sys
from collections.abc import Sequence

import discord

from bot.app import MistbornBot
from bot.config import Settings
from storage import Storage

log = logging.getLogger("bot")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sync-global", action="store_true", help="sync slash commands globally once at start (Discord only)"
    )
    parser.add_argument(
        "--user", default="narrator", help="offline console: who you type as (default narrator)"
    )
    parser.add_argument(
        "--player", action="store_true", help="offline console: type without the Narrator role"
    )
    return parser.parse_args(argv)


async def run_discord(settings: Settings, *, sync_global: bool) -> None:
    assert settings.token is not None
    async with await Storage.open(settings.db_path) as storage:
        bot = MistbornBot(settings=settings, storage=storage, sync_global=sync_global, freeze_gc=True)
        async with bot:
            await bot.start(settings.token.get_secret_value())


async def run_offline(settings: Settings, *, user: str, narrator: bool) -> int:
    from fake_discord.console import run_console
    from fake_discord.world import offline_world

    world = offline_world(user=user, narrator=narrator)
    local = settings.model_copy(update={"dev_guild_id": world.guild.id})
    async with await Storage.open(settings.db_path) as storage:

        def make_bot() -> MistbornBot:
            return MistbornBot(settings=local, storage=storage, rng=random.SystemRandom())

        return await run_console(make_bot, input=sys.stdin, output=sys.stdout, user=user, world=world)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = Settings()
    if settings.has_token:
        discord.utils.setup_logging(level=logging.getLevelName(settings.log_level.upper()))
        asyncio.run(run_discord(settings, sync_global=args.sync_global))
        return 0
    # The console's output is the conversation; only problems belong on stderr.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)
    print(f"No DISCORD_TOKEN set: offline console on {settings.db_path}.", file=sys.stderr)
    return asyncio.run(run_offline(settings, user=args.user, narrator=not args.player))


if __name__ == "__main__":
    sys.exit(main())
