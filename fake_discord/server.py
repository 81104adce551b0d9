"""A fake Discord on 127.0.0.1 that the real discord.py client logs in to.

It speaks just enough REST and gateway for an app-command bot: login, command sync, interaction
callbacks, followups, channel messages (with nonces and history paging) and attachments.
Everything the bot sends is recorded and checked against Discord's limits and its published
OpenAPI description (``fake_discord.openapi``), so tests assert on the wire format rather than on
mocks. A test can delete a channel or a message as a moderator
would, and turn on Discord's rate limits (``fake_discord.ratelimits``).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import re
import socket
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import web

from fake_discord import gateway_hooks, request_guards, responses, routes, thread_routes
from fake_discord.backend import CommandStore, Limits, Upload
from fake_discord.gateway import RESUME_PATH, Gateway
from fake_discord.layout import IS_COMPONENTS_V2
from fake_discord.message_payloads import attachment_json, message_json
from fake_discord.payloads import EPHEMERAL, LOADING
from fake_discord.places import unreachable
from fake_discord.ratelimits import InvalidRequests, RateLimiter
from fake_discord.records import InteractionRecord, Violation, clock
from fake_discord.validate import validate_command_set
from fake_discord.world import World, default_world

JSON = dict[str, Any]
SUPPRESS_EMBEDS = 1 << 2
API = "/api/v10"
log = logging.getLogger(__name__)


class FakeDiscord:
    """The server. Start it, point discord.py at it (see patch.py), then drive interactions."""

    def __init__(self, world: World | None = None, *, limits: Limits | None = None) -> None:
        self.world = world or default_world()
        self.limits = limits or Limits()
        self.commands = CommandStore()
        self.interactions: dict[int, InteractionRecord] = {}
        self.messages: dict[int, JSON] = {}
        self.activity: list[tuple[str, int]] = []
        self.files: dict[int, tuple[str, bytes, str | None]] = {}
        self.dm_channels: dict[int, int] = {}
        self.webhooks: dict[int, JSON] = {}
        """Channel webhooks by id (``fake_discord.webhook_routes``), tokens included."""
        self.scheduled_events: dict[int, JSON] = {}
        """Guild scheduled events by id (``fake_discord.event_routes``)."""
        self.app_emojis: dict[int, JSON] = {}
        """The application's own emojis by id (``fake_discord.emoji_routes``)."""
        self.emoji_images: dict[int, bytes] = {}
        """Each application emoji's picture, as uploaded."""
        self.poll_votes: dict[int, dict[int, set[int]]] = {}
        """Who voted for what: by poll message id, then answer id (``fake_discord.poll_routes``)."""
        self.violations: list[Violation] = []
        self.requests: deque[str] = deque(maxlen=10_000)
        self.faults: list[request_guards.Fault] = []
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._changed = asyncio.Event()
        self.changes = 0
        """Messages posted, edited or deleted so far (what :meth:`wait_for` wakes on)."""
        self.rate_limiter = RateLimiter(self.limits.rate_limits) if self.limits.rate_limits else None
        self.invalid = InvalidRequests()
        """Every request answered 401, 403 or 429, whichever process sent it (Discord's ban counts)."""
        self.gateway = Gateway(lambda: self.limits.heartbeat_ms, self._gateway_op)
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    @property
    def api_base(self) -> str:
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        return self.base_url.replace("http://", "ws://", 1) + "/gateway"

    @property
    def identified(self) -> asyncio.Event:
        """Set once a client has identified (it stays set across reconnects)."""
        return self.gateway.identified

    async def start(self) -> None:
        """Listen on an ephemeral 127.0.0.1 port."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get(RESUME_PATH, self._gateway)
        app.router.add_get("/files/{file_id}/{filename}", self._file)
        app.router.add_route("*", API + "/{path:.*}", self._api)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def inject_fault(
        self,
        method: str,
        path: str,
        status: int,
        *,
        times: int = 1,
        retry_after: float = 0.05,
        global_limit: bool = False,
    ) -> None:
        """Answer the next `times` requests matching `method` and regex `path` (no /api/v10) with
        `status` (a 429: of the global limit with `global_limit`)."""
        fault = request_guards.Fault(
            method.upper(), re.compile(path), status, times, retry_after, global_limit
        )
        self.faults.append(fault)

    def violate(self, route: str, problems: list[str], *, rejected: bool) -> None:
        self.violations.extend(Violation(route, problem, rejected) for problem in problems)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a gateway DISPATCH to every connected client (kept for a RESUME, as Discord does)."""
        await self.gateway.dispatch(event, data)

    async def send_interaction(self, payload: JSON) -> InteractionRecord:
        """Deliver INTERACTION_CREATE and start the 3-second acknowledgement clock.

        While a dropped client can still RESUME, the event waits in the session's replay.
        """
        if not self.gateway.reaches(payload):
            raise RuntimeError("no bot is connected to the fake gateway")
        record = InteractionRecord(payload, clock())
        self.interactions[record.id] = record
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    def record_by_token(self, token: str) -> InteractionRecord | None:
        return next((r for r in reversed(self.interactions.values()) if r.token == token), None)

    def add_file(self, filename: str, data: bytes, content_type: str | None = None) -> JSON:
        """Serve `data` at a 127.0.0.1 URL and return the attachment object pointing at it."""
        file_id = self.world.ids.next()
        self.files[file_id] = (filename, data, content_type)
        url = f"{self.base_url}/files/{file_id}/{filename}"
        return attachment_json(file_id, filename, len(data), url, content_type)

    def file_bytes(self, attachment: JSON) -> bytes:
        return self.files[int(attachment["id"])][1]

    # -- Message store -------------------------------------------------------------------------

    async def create_message(
        self,
        channel_id: int,
        body: JSON,
        uploads: list[Upload],
        trigger: JSON | None = None,
        webhook: JSON | None = None,
    ) -> JSON:
        """Store a message the bot posted (uploads become served files) and announce it on the
        gateway; ``webhook``: a channel webhook posted it."""
        names = [a.get("filename") for a in body.get("attachments") or []]
        attachments = [
            self.add_file(names[i] if i < len(names) and names[i] else name, data, kind)
            for i, (name, data, kind) in enumerate(uploads)
        ]
        elsewhere = self.world.elsewhere
        outside = unreachable(self.world, channel_id, set(self.dm_channels.values()))
        guild_id: int | None = (
            elsewhere.id if elsewhere is not None and elsewhere.channel(channel_id) else None
        )
        if guild_id is None:
            guild_id = place[0].id if (place := self.world.place_of(channel_id)) is not None else None
        message_id = self.world.ids.next()
        message = message_json(
            self.world,
            message_id=message_id,
            channel_id=channel_id,
            guild_id=guild_id,
            body=body,
            attachments=attachments,
            trigger=trigger,
            webhook=webhook,
        )
        self.messages[message_id] = message
        if not message["flags"] & EPHEMERAL:
            await thread_routes.posted_in(self, channel_id)
        self.activity.append(("create", message_id))
        self._pulse()
        if not message["flags"] & EPHEMERAL and not outside:  # the bot hears only where it is
            await self.dispatch("MESSAGE_CREATE", message)
        return message

    async def edit_message(self, message: JSON, body: JSON, uploads: list[Upload]) -> None:
        """Apply a PATCH body: attachments listed by id are kept, `{id: n}` entries are new uploads."""
        for key in ("content", "embeds", "components"):
            if key in body:
                message[key] = body[key] if body[key] is not None else ("" if key == "content" else [])
        if "attachments" in body or uploads:
            kept = {str(a["id"]): a for a in message["attachments"]}
            entries = body.get("attachments") or [{"id": i} for i in range(len(uploads))]
            new: list[JSON] = []
            for entry in entries:
                if str(entry.get("id")) in kept:
                    new.append(kept[str(entry["id"])])
                elif str(entry.get("id")).isdigit() and int(entry["id"]) < len(uploads):
                    name, data, kind = uploads[int(entry["id"])]
                    new.append(self.add_file(entry.get("filename") or name, data, kind))
            message["attachments"] = new
        flags = int(message["flags"])
        if "flags" in body:
            # SUPPRESS_EMBEDS may be set or unset; IS_COMPONENTS_V2 only set (fake_discord.layout).
            flags = (flags & ~SUPPRESS_EMBEDS) | (
                int(body["flags"] or 0) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2)
            )
        if not flags & LOADING:
            message["edited_timestamp"] = datetime.datetime.now(datetime.UTC).isoformat()
        message["flags"] = flags & ~LOADING
        self.activity.append(("edit", int(message["id"])))
        self._pulse()
        if not flags & EPHEMERAL:
            await self.dispatch("MESSAGE_UPDATE", message)

    async def delete_message(self, message: JSON) -> None:
        self.messages.pop(int(message["id"]), None)
        self.activity.append(("delete", int(message["id"])))
        self._pulse()
        event = {"id": message["id"], "channel_id": message["channel_id"]}
        await self.dispatch(
            "MESSAGE_DELETE", event | ({"guild_id": message["guild_id"]} if "guild_id" in message else {})
        )

    def has_channel(self, channel_id: int) -> bool:
        return channel_id in self.dm_channels.values() or self.world.place_of(channel_id) is not None

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a guild channel and its messages, as a moderator would (CHANNEL_DELETE is sent,
        or THREAD_DELETE for a thread)."""
        for guild in self.world.guilds:
            channel = guild.channel(channel_id)
            if channel is None:
                continue
            event, data = thread_routes.deleted_event(guild, channel)
            guild.channels.remove(channel)
            for message_id in [
                m for m, body in self.messages.items() if int(body["channel_id"]) == channel_id
            ]:
                del self.messages[message_id]
            await self.dispatch(event, data)

    def _pulse(self) -> None:
        self.changes += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until ``predicate()`` holds, looking again after every
        message posted, edited or deleted; return whether it holds."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    changed = self._changed
                    if predicate():
                        return True
                    await changed.wait()
        except TimeoutError:
            return predicate()

    def message_by_nonce(self, channel_id: int, nonce: str) -> JSON | None:
        """The message posted in the channel with this nonce in the last few minutes: ``{}`` if it
        was deleted since (Discord then refuses the post), None if there is none."""
        found = self.nonces.get((channel_id, nonce))
        if found is None or time.monotonic() - found[1] > self.limits.nonce_window:
            return None
        return self.messages.get(found[0], {})

    def remember_nonce(self, channel_id: int, nonce: str, message: JSON) -> None:
        self.nonces[(channel_id, nonce)] = (int(message["id"]), time.monotonic())

    # -- HTTP plumbing ---------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        path = request.path.removeprefix(API)
        self.requests.append(f"{request.method} {path}")
        if (injected := request_guards.injected(self.faults, request.method, path)) is not None:
            self.invalid.record(injected.status, f"{request.method} {path}")
            return injected
        try:
            response: web.StreamResponse = await handler(request)
            self.invalid.record(response.status, f"{request.method} {path}")
            return response
        except web.HTTPException:
            raise
        except Exception as exc:  # a 5xx would make discord.py sleep and retry; fail fast instead
            log.exception("fake Discord failed on %s %s", request.method, path)
            self.violate(f"{request.method} {path}", [f"fake Discord error: {exc!r}"], rejected=True)
            return responses.error(400, 0, f"fake Discord could not handle this request: {exc!r}")

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        if self.limits.openapi and (refused := await request_guards.described(self, request, path)):
            return refused
        for method, pattern, handler in routes.ROUTES:
            if method == request.method and (found := pattern.fullmatch(path)):
                route = f"{request.method} {re.sub(r'[(][^)]*[)]', '{id}', pattern.pattern)}"
                if self.rate_limiter is None:
                    return await handler(self, request, route, *found.groups())
                return await request_guards.limited(
                    self, self.rate_limiter, request, route, path, found.groups(), handler
                )
        self.violate(f"{request.method} {path}", ["route not implemented by the fake"], rejected=False)
        return responses.error(404, 0, f"404: Not Found ({request.method} {path} is not faked)")

    async def _file(self, request: web.Request) -> web.StreamResponse:
        found = self.files.get(int(request.match_info["file_id"]))
        if found is None:
            return web.Response(status=404, text="not found")
        return web.Response(body=found[1], content_type=found[2] or "application/octet-stream")

    # -- Gateway -------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        return await self.gateway.handle(request)

    async def _gateway_op(self, ws: web.WebSocketResponse, op: int, data: JSON) -> None:
        resume_url = self.base_url.replace("http://", "ws://", 1) + RESUME_PATH
        await gateway_hooks.answer_op(self, self.gateway, resume_url, ws, op, data)

    # -- Commands ------------------------------------------------------------------------------

    def store_commands(
        self, guild_id: int | None, commands: list[JSON], route: str, spec: list[str] | None = None
    ) -> list[JSON] | web.Response:
        """Bulk overwrite, as PUT .../commands does; Discord rejects the whole set on any problem
        (ours, or ``spec``: what its OpenAPI description refused, already recorded)."""
        if problems := validate_command_set(commands):
            self.violate(route, problems, rejected=self.limits.reject_invalid)
        if refused := responses.refuse_form(self, problems or spec or []):
            return refused
        stored = []
        for command in commands:
            key = (guild_id, command["name"], command.get("type", 1))
            command_id = self.commands.ids.setdefault(key, self.world.ids.next())
            stored.append(routes.registered_command(command, command_id, self.world.application_id, guild_id))
        self.commands.scopes[guild_id] = stored
        self.commands.synced.set()
        return stored
