"""The operations endpoint: ``/health`` for a supervisor, ``/metrics`` for Prometheus.

Off unless ``MISTBORN_METRICS_PORT`` is set; it listens on ``MISTBORN_METRICS_HOST``
(127.0.0.1 by default: the figures are for the machine's own supervisor and Prometheus, not the
world). Served by aiohttp on the bot's own event loop, like the web view.

``/health`` answers 200 when the process is ready, every shard it holds is connected and the
database answers a read within :data:`DATABASE_TIMEOUT`; else 503. Either way its JSON body
says which of the three failed. ``/metrics`` is the process's counters and latency histograms
(``bot.metrics``) and, read at each scrape, its state: the event loop's lag, shards
connected, commands in progress, writes waiting, the outbox's backlog, whether it is ready and
the database reachable. A scrape costs one indexed count on the database, nothing per interaction.
"""

import asyncio
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from bot import metrics
from storage import Storage

log = logging.getLogger(__name__)
DATABASE_TIMEOUT = 2.0
"""Seconds a health check waits for the database before calling it unreachable."""


@dataclass(frozen=True)
class Health:
    """What one check found."""

    ready: bool
    shards_held: int
    shards_connected: int
    database: bool
    outbox_backlog: int | None
    checked_at: float

    @property
    def healthy(self) -> bool:
        return self.ready and self.shards_connected == self.shards_held and self.database

    def body(self) -> dict[str, object]:
        return {
            "status": "ok" if self.healthy else "unhealthy",
            "ready": self.ready,
            "shards": {"held": self.shards_held, "connected": self.shards_connected},
            "database": "reachable" if self.database else "unreachable",
            "outbox_backlog": self.outbox_backlog,
        }


def shards_of(client: discord.Client) -> tuple[int, int]:
    """(held, connected): the gateway sessions this process should have, and has open."""
    if isinstance(client, discord.AutoShardedClient):
        shards = client.shards
        held = len(client.shard_ids) if client.shard_ids is not None else len(shards)
        return held, sum(not info.is_closed() for info in shards.values())
    ws = client.ws
    return 1, int(ws is not None and ws.open and not client.is_closed())


class _State(Collector):
    """The process's state, read when Prometheus scrapes."""

    def __init__(self, server: "HealthServer") -> None:
        self.server = server

    def collect(self) -> Iterator[GaugeMetricFamily]:
        server, found = self.server, self.server.last
        yield GaugeMetricFamily(
            "mistborn_event_loop_lag_seconds",
            "How late the event loop ran its timers lately (bot.admission).",
            value=server.lag(),
        )
        yield GaugeMetricFamily(
            "mistborn_interactions_in_flight",
            "Commands and autocompletes running now.",
            value=server.in_flight(),
        )
        yield GaugeMetricFamily(
            "mistborn_database_waiting_writes",
            "Writes waiting for the database's writer (bot.admission refuses past its limit).",
            value=server.storage.database.waiting,
        )
        if found is None:
            return
        yield GaugeMetricFamily("mistborn_ready", "1 once connected and ready.", value=int(found.ready))
        yield GaugeMetricFamily(
            "mistborn_shards_held", "Gateway sessions (shards) this process holds.", value=found.shards_held
        )
        yield GaugeMetricFamily(
            "mistborn_shards_connected", "Of those, sessions connected now.", value=found.shards_connected
        )
        yield GaugeMetricFamily(
            "mistborn_database_up", "1 when the database answered a read in time.", value=int(found.database)
        )
        if found.outbox_backlog is not None:
            yield GaugeMetricFamily(
                "mistborn_outbox_backlog",
                "Queued Conflict messages not yet shown, in every server (bot.workers.outbox).",
                value=found.outbox_backlog,
            )


class HealthServer:
    """``/health`` and ``/metrics`` on ``host``:``port`` (0: a free port)."""

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        *,
        host: str,
        port: int,
        lag: Callable[[], float],
        in_flight: Callable[[], int],
    ) -> None:
        self.client, self.storage, self.host = client, storage, host
        self.lag, self.in_flight = lag, in_flight
        self.port = port
        self.last: Health | None = None
        self.registry = CollectorRegistry()
        for collector in (*metrics.COLLECTORS, _State(self)):
            self.registry.register(collector)
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/metrics", self._metrics)
        self.runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])
        log.info("Health and metrics on http://%s:%s (/health, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        await self.runner.cleanup()

    async def check(self) -> Health:
        """Ready, shards, and one read of the database (the outbox's backlog) within the timeout."""
        held, connected = shards_of(self.client)
        try:
            backlog: int | None = await asyncio.wait_for(self.storage.outbox.backlog(), DATABASE_TIMEOUT)
        except Exception as error:  # any failure to read is "unreachable", said in one line
            log.warning("Health check: the database did not answer: %r", error)
            backlog = None
        self.last = Health(
            ready=self.client.is_ready(),
            shards_held=held,
            shards_connected=connected,
            database=backlog is not None,
            outbox_backlog=backlog,
            checked_at=time.time(),
        )
        return self.last

    async def _health(self, request: web.Request) -> web.Response:
        found = await self.check()
        return web.json_response(found.body(), status=200 if found.healthy else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.check()
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
