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
from pathlib import Path
from typing import TextIO, cast

from bot.app import MistbornBot
from bot.config import Settings
from bot.logs import redact_handlers
from fake_discord.console import Terminal, run_console
from fake_discord.console_commands import MEMBER_NAME
from fake_discord.terminal import PromptTerminal
from fake_discord.world import DEFAULT_MEMBERS, World, offline_world
from storage import Storage

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def run(settings: Settings, *, user: str, player: bool) -> int:
    """Run the console on ``settings.db_path`` as `user`, with the Narrator role unless `player`.

    At a terminal it edits lines and shows colour (``terminal.py``); from a pipe it runs a
    script in plain text, and returns 1 if any line failed.
    """
    log_path = console_logging(settings.console_log_path)
    print(f"Log: {log_path} (only errors are shown here).", file=sys.stderr)
    terminal = None
    if sys.stdin.isatty() and sys.stdout.isatty():
        terminal = PromptTerminal(history=settings.db_path.parent / "console-history")
    return asyncio.run(run_offline(settings, user=user, narrator=not player, terminal=terminal))


def console_logging(path: Path) -> Path:
    """The log goes to a file; the screen is the conversation, so only errors reach stderr.

    discord.py warns "Can't keep up" and about heartbeats whenever the event loop is busy for a
    moment, which at a console is often; those belong in the file, not between the answers.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    to_file = logging.FileHandler(path, encoding="utf-8")
    to_file.setFormatter(logging.Formatter(LOG_FORMAT))
    to_screen = logging.StreamHandler(sys.stderr)
    to_screen.setLevel(logging.ERROR)
    to_screen.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[to_file, to_screen], force=True)
    redact_handlers()
    return path


async def run_offline(
    settings: Settings,
    *,
    user: str,
    narrator: bool,
    input: TextIO | None = None,
    output: TextIO | None = None,
    terminal: Terminal | None = None,
) -> int:
    """The same server and member ids on every run (``offline_world``), so sheets persist; and
    the same members, each by name (``seated_members``), so a mention of one shows who it is."""
    seats = settings.db_path.parent / "console-members"
    world = offline_world(user=user, narrator=narrator, seated=seated_members(seats))
    # The console draws text: the dice too, never the app's emojis (bot.workers.emojis).
    local = settings.model_copy(update={"dev_guild_id": world.guild.id, "dice_emojis": False})
    if local.web_port is None:  # the web view is on in the console: /web gives its link
        local = local.model_copy(update={"web_port": 0})
    async with await Storage.open(settings.db_path) as storage:

        def make_bot() -> MistbornBot:
            # Global commands too: a DM or a server without the bot (!where) offers only those.
            return MistbornBot(settings=local, storage=storage, rng=random.SystemRandom(), sync_global=True)

        try:
            return await run_console(
                make_bot,
                input=input or sys.stdin,
                output=output or sys.stdout,
                user=user,
                world=world,
                terminal=terminal,
                idle=lambda bot: cast(MistbornBot, bot).conflicts.idle(),
                saves=saved_files(settings),
            )
        finally:
            keep_seated(seats, world)


def seated_members(path: Path) -> list[str]:
    """The members earlier runs seated (``!as player3``, ``--user alice``), one name a line;
    a line that cannot be a member's name is passed over."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    return [line for line in map(str.strip, lines) if MEMBER_NAME.fullmatch(line)]


def keep_seated(path: Path, world: World) -> None:
    """Write down who sits at the table beyond the default three, for the next run."""
    names = [
        m.user.name for m in world.guild.members if not m.user.bot and m.user.name not in DEFAULT_MEMBERS
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{name}\n" for name in names), encoding="utf-8")


def saved_files(settings: Settings) -> Path:
    """Where ``!save`` puts files: beside the database (``data/saved``), never in the folder the
    console was started from, which is often the project's own tree."""
    return settings.db_path.parent / "saved"
