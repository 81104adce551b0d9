"""The measured bot process of ``bench.memory_bench``: the product's imports and nothing else.

``python -m bench.memory_child --db PATH --api URL --gateway URL --guild ID`` opens the database,
starts ``MistbornBot`` pointed at the fake Discord of the parent process (the two class
attributes ``fake_discord.patch`` sets, set here so as not to import the fake), and prints a JSON
line with its RSS at each step: imports done, database open, ready, then for each line on stdin
until ``quit``. It lives in its own module so that its imports are the bot's alone.
"""

import argparse
import asyncio
import json
import logging
import random
import sys
import time
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot.app import MistbornBot
from bot.config import Settings
from storage import Storage


def rss_kib() -> dict[str, int]:
    """VmRSS and VmHWM of this process, in KiB."""
    found: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return found


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, "t": time.time(), **rss_kib(), **fields}), flush=True)


async def child_main(args: argparse.Namespace) -> None:
    """The bot process: the product's imports, database and bot, pointed at the fake Discord
    (the two class attributes ``fake_discord.patch`` sets, set here so as not to import the fake);
    then it reports its RSS for each line on stdin until 'quit'."""
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)
    emit("imported")
    db_path = Path(args.db)
    storage = await Storage.open(db_path)
    emit("storage")
    discord.http.Route.BASE = args.api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    settings = Settings(token=None, db_path=db_path, dev_guild_id=args.guild, _env_file=None)
    bot = MistbornBot(settings=settings, storage=storage, rng=random.Random(1))
    bot._connection.guild_ready_timeout = 0.05
    async with bot:  # as ``run_discord`` does; entering it sets the client up
        task = asyncio.create_task(bot.start("offline.fake-discord.token"))
        async with asyncio.timeout(60):
            await bot.wait_until_ready()
        emit("ready", guilds=len(bot.guilds))
        reader = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while line := (await reader.readline()).decode().strip():
            if line == "quit":
                break
            emit(line)
        await bot.close()
        await asyncio.wait({task}, timeout=5)
    await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.memory_child", description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--api", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--guild", type=int, required=True)
    asyncio.run(child_main(parser.parse_args()))


if __name__ == "__main__":
    main()
