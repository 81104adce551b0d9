"""Serving the web view: inside the bot's process, or on its own with ``python -m bot web``.

The view only reads the database, so it can run in the bot's process (the default when
``MISTBORN_WEB_PORT`` is set, and in the offline console) or as its own process next to any
number of bot processes on a shared database; links then point at it through
``MISTBORN_WEB_PUBLIC_URL``. Both are this one class over aiohttp, the web framework
discord.py already brings in.
"""

import logging

import discord
from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.web_request import BaseRequest

from bot.config import Settings
from bot.web.app import make_app
from bot.web.reach import DiscordReaches
from bot.web.standing import DiscordStandings
from storage import Storage

log = logging.getLogger(__name__)
STANDALONE_PORT = 8750
"""``python -m bot web``'s port when ``MISTBORN_WEB_PORT`` is not set."""
SHUTDOWN_SECONDS = 2.0
"""Open event streams are told to end at shutdown; this bounds the wait for them."""


def link_url(base: str, token: str) -> str:
    """The ``/web`` link: ``/login`` with the link token, at the view's public address."""
    return f"{base.rstrip('/')}/login?t={token}"


class PathOnlyAccessLog(AbstractAccessLogger):
    """aiohttp's access log without the query string: ``/login?t=…`` carries a link's token,
    which must never reach a log file (``bot.logs`` keeps interaction tokens out the same way)."""

    def log(self, request: BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            '%s "%s %s" %s %.3fs', request.remote, request.method, request.path, response.status, time
        )

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.INFO)


class WebServer:
    """The web view listening on ``settings.web_host``:``settings.web_port`` (0: a free port).

    ``http`` is how it asks Discord for a Narrator's standing (``bot.web.standing``) and the
    channels a player views (``bot.web.reach``): the bot's own HTTP client, or one logged in for
    the view alone (None: it cannot ask)."""

    def __init__(
        self, storage: Storage, settings: Settings, http: discord.http.HTTPClient | None = None
    ) -> None:
        self.settings = settings
        standings = DiscordStandings(http) if http is not None else None
        reaches = DiscordReaches(http) if http is not None else None
        self.runner = web.AppRunner(
            make_app(storage, settings, standings=standings, reaches=reaches),
            shutdown_timeout=SHUTDOWN_SECONDS,
            access_log_class=PathOnlyAccessLog,
        )
        self.port: int | None = None

    async def start(self) -> str:
        """Listen, and return the address links point at."""
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.settings.web_host, self.settings.web_port or 0)
        await site.start()
        self.port = int(self.runner.addresses[0][1])
        log.info("Web view on http://%s:%s", self.settings.web_host, self.port)
        return self.url

    @property
    def url(self) -> str:
        if self.settings.web_public_url:
            return self.settings.web_public_url.rstrip("/")
        return f"http://{self.settings.web_host}:{self.port}"

    async def stop(self) -> None:
        await self.runner.cleanup()


def public_url(settings: Settings, server: WebServer | None) -> str | None:
    """Where ``/web`` links point: this process's view, else the view run elsewhere (None: off).

    In a cluster only the process holding shard 0 serves ``MISTBORN_WEB_PORT`` (one port, one
    process); the others link to it there unless ``MISTBORN_WEB_PUBLIC_URL`` says otherwise."""
    if server is not None and server.port is not None:
        return server.url
    if settings.web_public_url:
        return settings.web_public_url.rstrip("/")
    if settings.web_port:
        host = "127.0.0.1" if settings.web_host in ("0.0.0.0", "::", "") else settings.web_host
        return f"http://{host}:{settings.web_port}"
    return None
