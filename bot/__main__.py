"""``python -m bot`` (or ``mistborn-bot``): run on Discord with a token, else the offline console.

The entry point owns every resource's lifetime — settings, the database, the bot — and hands
them to the bot (discord.py's ``advanced_startup.py``).

``python -m bot web`` runs only the web view (``bot.web``) over the database, for deployments
where several bot processes share one and the view is served once beside them.

Without a token it opens the offline console, which connects the very same bot to a fake
Discord on 127.0.0.1. The bot never imports that fake: the console is a plugin, found through
the ``mistborn_bot.offline_console`` entry point group, that this project's pyproject.toml
declares. An installation without it still runs on Discord, and says so when there is no token.
"""

import argparse
import asyncio
import contextlib
import logging
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Protocol

import discord
from pydantic import ValidationError

from bot import event_loop
from bot.app import make_bot
from bot.cluster import launch, shard_ranges
from bot.config import Settings
from bot.logs import redact_handlers
from bot.web.server import STANDALONE_PORT, WebServer
from storage import Storage
from storage.backup import backup_file

log = logging.getLogger("bot")

CONSOLE_GROUP = "mistborn_bot.offline_console"
"""Entry point group of the offline console; its object is called as an :class:`OfflineConsole`."""
NO_CONSOLE = "No DISCORD_TOKEN set and no offline console installed; set DISCORD_TOKEN in .env"


class OfflineConsole(Protocol):
    """Run the console on ``settings.db_path`` as member `user` (without the Narrator role when
    `player`) until its input ends; return the process exit code."""

    def __call__(self, settings: Settings, *, user: str, player: bool) -> int: ...


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
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    copy = commands.add_parser(
        "backup",
        help="copy the database, while the bot runs, with SQLite's backup API",
        description="Copy the database (MISTBORN_DB_PATH) to FILE as one consistent snapshot, WAL "
        "included, while the bot may be running. Restore by stopping the bot and putting FILE in "
        "the database's place.",
    )
    copy.add_argument("file", type=Path, metavar="FILE", help="where to write the copy (replaced if present)")
    commands.add_parser(
        "web",
        help="run only the Narrator's web view over the database (MISTBORN_WEB_PORT, default 8750)",
        description="Serve the Narrator's web view on its own, over the bot's database, for when "
        "it should not run inside the bot's process.",
    )
    cluster = commands.add_parser(
        "cluster",
        help="run N bot processes over one PostgreSQL database (DATABASE_URL), each with its shards",
        description="Start N processes of the bot, each holding a contiguous range of the M shards, "
        "all on the PostgreSQL database of DATABASE_URL; report each exit.",
    )
    cluster.add_argument("--processes", type=int, required=True, help="how many bot processes (N)")
    cluster.add_argument("--shards", type=int, required=True, help="how many shards in all (M >= N)")
    return parser.parse_args(argv)


def load_settings() -> Settings | None:
    """The settings, or None after saying in one line what is wrong with them."""
    try:
        return Settings()
    except ValidationError as error:
        for problem in error.errors():
            message = problem["msg"].removeprefix("Value error, ")
            where = ".".join(str(part) for part in problem["loc"])
            if where:
                print(f"Invalid setting MISTBORN_{where.upper()}: {message}", file=sys.stderr)
            else:  # a rule across settings names them itself
                print(f"Invalid settings: {message}", file=sys.stderr)
        return None


class StartupError(Exception):
    """A start that cannot go on; its message is the one line the operator reads."""


async def open_storage(settings: Settings) -> Storage:
    """The database the settings name (``DATABASE_URL``, else the SQLite file), or a
    :class:`StartupError` saying in one line why it cannot be opened (never the password)."""
    where = "PostgreSQL (DATABASE_URL)" if settings.database_dsn else f"SQLite ({settings.db_path})"
    try:
        return await Storage.open(settings.db_path, url=settings.database_dsn)
    except Exception as error:  # any failure to open is a failed start, said in one line
        reason = " ".join(str(error).split()) or type(error).__name__
        raise StartupError(f"Cannot open the database, {where}: {reason}") from None


async def run_discord(settings: Settings, *, sync_global: bool) -> None:
    assert settings.token is not None
    async with await open_storage(settings) as storage:
        bot = make_bot(settings=settings, storage=storage, sync_global=sync_global, freeze_gc=True)
        async with bot:
            try:
                await bot.start(settings.token.get_secret_value())
            except discord.LoginFailure as error:  # at login, or later (bot.rest_watch)
                raise StartupError(f"Discord refused DISCORD_TOKEN (401): {error} Check the token.") from None


@contextlib.asynccontextmanager
async def discord_http(settings: Settings) -> AsyncIterator[discord.http.HTTPClient | None]:
    """discord.py's HTTP client logged in with the bot's token (None without one): how the
    view on its own asks Discord for a Narrator's standing and the channels a player views
    (``bot.web.standing``, ``bot.web.reach``)."""
    if not settings.has_token:
        yield None
        return
    assert settings.token is not None
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await http.static_login(settings.token.get_secret_value())
        yield http
    finally:
        await http.close()


async def run_web(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """The web view alone over the database the settings name, until interrupted (or ``stop``
    is set). With ``DISCORD_TOKEN`` it asks Discord for Narrators' standing and players'
    channels; without, a Narrator's page turns into a player's a few minutes after the link
    (``bot.web.standing``) and a player's Sessions pages read nothing (``bot.web.reach``)."""
    if settings.web_port is None:
        settings = settings.model_copy(update={"web_port": STANDALONE_PORT})
    async with await open_storage(settings) as storage, discord_http(settings) as http:
        server = WebServer(storage, settings, http)
        url = await server.start()
        print(f"Web view on {url} (links from /web)", file=sys.stderr)
        try:
            await (stop or asyncio.Event()).wait()
        finally:
            await server.stop()


def run_cluster(settings: Settings, processes: int, shards: int) -> int:
    """The launcher (``bot.cluster``), after checking what every process will need."""
    if not settings.has_token:
        print("A cluster runs on Discord: set DISCORD_TOKEN.", file=sys.stderr)
        return 2
    if not settings.database_url:
        print("A cluster shares one PostgreSQL database: set DATABASE_URL.", file=sys.stderr)
        return 2
    try:
        shard_ranges(processes, shards)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return launch(processes, shards, metrics_port=settings.metrics_port)


def find_offline_console() -> OfflineConsole | None:
    """The installed offline console, if any (the first by entry point name, if several are)."""
    found = sorted(entry_points(group=CONSOLE_GROUP), key=lambda point: point.name)
    if not found:
        return None
    console: OfflineConsole = found[0].load()
    return console


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = load_settings()
    if settings is None:
        return 2
    if args.command == "backup" and settings.database_url:
        print("DATABASE_URL is set: back up PostgreSQL with its own tools (pg_dump).", file=sys.stderr)
        return 2
    if args.command == "backup":
        try:
            backup_file(settings.db_path, args.file)
        except (OSError, sqlite3.Error) as error:
            print(f"Backup failed: {error}", file=sys.stderr)
            return 1
        print(f"Backed up {settings.db_path} to {args.file}.", file=sys.stderr)
        return 0
    if args.command == "cluster":
        return run_cluster(settings, args.processes, args.shards)
    try:
        return run_service(args, settings)
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1


def run_service(args: argparse.Namespace, settings: Settings) -> int:
    """The web view alone, the bot on Discord, or the offline console; Ctrl-C ends either of
    the first two quietly (docs/operations.md tells operators to stop ``--sync-global`` that way)."""
    if args.command == "web":
        logging.basicConfig(level=logging.getLevelName(settings.log_level))
        redact_handlers()
        with contextlib.suppress(KeyboardInterrupt):
            event_loop.run(run_web(settings))
        return 0
    if settings.has_token:
        discord.utils.setup_logging(level=logging.getLevelName(settings.log_level))
        redact_handlers()  # no interaction token in the log, at any level
        with contextlib.suppress(KeyboardInterrupt):
            event_loop.run(run_discord(settings, sync_global=args.sync_global))
        return 0
    console = find_offline_console()
    if console is None:
        print(NO_CONSOLE, file=sys.stderr)
        return 2
    print(f"No DISCORD_TOKEN set: offline console on {settings.db_path}.", file=sys.stderr)
    return console(settings, user=args.user, player=args.player)


if __name__ == "__main__":
    sys.exit(main())
