"""The floor under the load bench: discord.py alone, answering every interaction at once.

``python -m bench.load_bench --floor`` starts this instead of our bot, after our bot has synced
its commands to the fake and stopped, so the generator sends the very same interactions. It
takes the command line of ``fake_discord.remote`` (``--api``, ``--gateway``, ``--db``,
``--guild``; the database is not opened) and answers, with no command tree, no database and no
rules: a command or a button with a fixed roll-sized embed, an autocomplete with no choices. It
runs as our bot does (same intents, uvloop, collector frozen and tuned after start-up), so the
CPU it uses per interaction is what discord.py, aiohttp and the event loop cost before any of
our code runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import signal
import sys
from collections.abc import Sequence

import discord

from bot import event_loop
from bot.client import GC_THRESHOLDS, INTENTS
from fake_discord.harness import OFFLINE_TOKEN
from fake_discord.patch import pointed_at
from fake_discord.process import READY

EMBED = discord.Embed(title="Leap the canal", description="Result **4** · Outcome **+2** · 1 Nudge")
EMBED.add_field(name="Dice", value="1 · 2 · 4 · 4 · 6")


class FloorClient(discord.Client):
    async def on_ready(self) -> None:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        sys.stdout.write(READY.decode() + "\n")
        sys.stdout.flush()

    async def on_interaction(self, interaction: discord.Interaction[discord.Client]) -> None:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(embed=EMBED)


async def serve(args: argparse.Namespace) -> None:
    client = FloorClient(intents=INTENTS, allowed_mentions=discord.AllowedMentions.none())
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(signum, stop.set)
    with pointed_at(args.api, args.gateway):
        running = asyncio.create_task(client.start(OFFLINE_TOKEN))
        await stop.wait()
        await client.close()
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.floor_bot", description=__doc__.splitlines()[0])
    for name in ("--api", "--gateway", "--db", "--guild", "--seed"):
        parser.add_argument(name)
    event_loop.run(serve(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
