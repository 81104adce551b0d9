"""The runner for this project's bot: MistbornBot in its own process, against a fake Discord.

Spawned by :class:`~fake_discord.process.BotProcess` (which documents the command line) for
the crash tests and ``bench/soak_faults.py``::

    python -m fake_discord.remote --api http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway --db PATH --guild ID [--seed N]

It points discord.py at the fake (as ``patch.py`` does), opens the database, starts
:class:`~bot.app.MistbornBot` with the fake guild as its development server, and prints
``ready`` on stdout each time discord.py is ready, then ``caught-up`` once the bot has brought
every channel up to what is saved. SIGINT or SIGTERM stops it cleanly (exit 0).

Control lines on stdin (``BotProcess.control``): ``crash-at <point>[:<visit>]`` arms one of the
bot's crash points (``bot.crash``), so a test can run the bot to the state it wants and
then have the very next move die exactly where it says; each line is answered ``done``. The
environment variable ``MISTBORN_CRASH_AT`` arms points from the start instead.

The stop does not rely on Python's default Ctrl-C handling. A process inherits *ignored*
signals across exec, and a shell without job control starts every background job (``pytest &``
in a script) with SIGINT ignored; Python then installs no KeyboardInterrupt handler, neither
does ``asyncio.run``, and the child would shrug SIGINT off until the parent gave up and killed
it. So :func:`serve` sets its own handlers, which only set an event; the shutdown then runs
in order, awaiting each step: the bot closes (gateway, HTTP), interactions already being
handled finish, the database closes, the process exits.

With ``bot_console.py``, this is one of the two modules of the package that know our bot;
nothing else in ``fake_discord`` imports ``bot`` or ``storage``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bot import crash, event_loop
from bot.app import MistbornBot, make_bot
from bot.config import Settings
from bot.logs import redact_handlers
from fake_discord.harness import OFFLINE_TOKEN
from fake_discord.patch import pointed_at
from fake_discord.process import READY
from fake_discord.records import handler_tasks
from storage import Storage

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

MakeBot = Callable[..., MistbornBot]
"""Builds the bot from its settings, storage and generator (:func:`bot.app.make_bot`)."""

CAUGHT_UP = "caught-up"
"""Printed once the bot has caught up every channel after connecting (``bot.workers.catchup``)."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m fake_discord.remote", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--api", required=True, help="the fake's REST base, ending in /api/v10")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL (ws://127.0.0.1:…)")
    parser.add_argument("--db", required=True, type=Path, help="the SQLite file")
    parser.add_argument("--guild", required=True, type=int, help="the development server's id")
    parser.add_argument("--seed", type=int, default=None, help="seed the dice (default: system random)")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace, make: MakeBot = make_bot) -> None:
    """Run the bot ``make`` builds until SIGINT or SIGTERM asks it to stop (or SIGKILL ends it)."""
    for host in (args.api, args.gateway):
        if "://127.0.0.1:" not in host:
            raise SystemExit(f"refusing to connect anywhere but 127.0.0.1: {host}")
    # Dice as text, as the in-process tests have them (testbed.bot_env.make_settings).
    settings = Settings(
        token=None, db_path=args.db, dev_guild_id=args.guild, dice_emojis=False, _env_file=None
    )
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in STOP_SIGNALS:  # whatever this process inherited, even SIG_IGN
        loop.add_signal_handler(signum, stop.set)
    try:
        async with await Storage.open(args.db, url=settings.database_dsn) as storage:
            with pointed_at(args.api, args.gateway):
                bot = make(
                    settings=settings, storage=storage, rng=rng, guild_ready_timeout=0.05, freeze_gc=True
                )

                async def announce() -> None:
                    sys.stdout.write(READY.decode() + "\n")
                    sys.stdout.flush()

                async def caught_up() -> None:
                    await asyncio.sleep(0)  # after the bot's own on_ready has started its catch-up
                    await bot.catch_up.done.wait()
                    sys.stdout.write(CAUGHT_UP + "\n")
                    sys.stdout.flush()

                bot.add_listener(announce, "on_ready")
                bot.add_listener(caught_up, "on_ready")
                control = asyncio.create_task(obey(), name="remote-control")
                try:
                    async with bot:
                        await run_until(bot, stop)
                finally:
                    control.cancel()
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


async def obey() -> None:
    """Answer the test's control lines on stdin until it closes."""
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode():
        verb, _, argument = line.strip().partition(" ")
        try:
            if verb != "crash-at":
                raise ValueError(f"unknown control line {line.strip()!r}")
            crash.arm(argument)
        except ValueError as error:
            sys.stdout.write(f"error {error}\n")
        else:
            sys.stdout.write("done\n")
        sys.stdout.flush()


async def run_until(bot: MistbornBot, stop: asyncio.Event) -> None:
    """Run `bot` until `stop` is set, then close it; return once nothing of it runs any more.

    Closing the bot closes the gateway (no new interactions) and the HTTP session; handlers
    already running then finish, or fail on the closed session, before the caller closes the
    database under them. The connect loop is cancelled rather than left to notice the closed
    socket, so the stop never waits on discord.py's reconnect back-off. If the bot stopped on
    its own (a failed login), its error is raised.
    """
    running = asyncio.create_task(bot.start(OFFLINE_TOKEN), name="remote-bot")
    stopping = asyncio.create_task(stop.wait(), name="remote-stop")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        await bot.close()
        running.cancel()
        await asyncio.wait({running})
        await asyncio.gather(*handler_tasks(), return_exceptions=True)
    if not running.cancelled() and (error := running.exception()) is not None:
        raise error


def main(argv: Sequence[str] | None = None, make: MakeBot = make_bot) -> int:
    """``make``: how the runner builds its bot (a benchmark's runner answers with a bot of its own)."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact_handlers()
    with contextlib.suppress(KeyboardInterrupt):
        event_loop.run(serve(args, make))
    return 0


if __name__ == "__main__":
    sys.exit(main())
