"""What the REST routes need from the fake Discord, so they can be written apart from it.

:class:`~fake_discord.server.FakeDiscord` holds the state and dispatches requests to the
handlers of ``routes``; the handlers take it as a :class:`Backend`, which keeps the two modules
from importing each other. The small types both sides share live here too.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from fake_discord.places import CONTEXTS, DM, SERVER
from fake_discord.ratelimits import RateLimits
from fake_discord.records import InteractionRecord
from fake_discord.world import World

JSON = dict[str, Any]
Upload = tuple[str, bytes, str | None]
"""An uploaded file: its name, its bytes and its content type."""


@dataclass
class Limits:
    """What the fake enforces; tests loosen or tighten these to provoke specific failures."""

    ack_deadline: float = 3.0
    reject_invalid: bool = True
    silent_mentions: bool = True
    heartbeat_ms: int = 30_000
    nonce_window: float = 300.0
    """Seconds a message nonce is remembered per channel for ``enforce_nonce`` ("a few minutes")."""
    rate_limits: RateLimits | None = None
    """Discord's REST rate limits (``fake_discord.ratelimits``); None: no limits."""
    openapi: bool = True
    """Hold every request against Discord's OpenAPI description (``fake_discord.openapi``): a
    path it does not describe, or a body its schema refuses, is a violation. About a third of a
    millisecond per message body; a load bench may turn it off to measure the bot alone."""


@dataclass
class CommandStore:
    """Registered commands per scope (None = global), ids kept stable across re-syncs as Discord does."""

    scopes: dict[int | None, list[JSON]] = field(default_factory=dict)
    ids: dict[tuple[int | None, str, int], int] = field(default_factory=dict)
    synced: asyncio.Event = field(default_factory=asyncio.Event)

    def visible_in(self, guild_id: int) -> list[JSON]:
        """Guild commands first: they shadow global ones of the same name and type."""
        found = list(self.scopes.get(guild_id, []))
        seen = {(c["name"], c.get("type", 1)) for c in found}
        return found + [c for c in self.scopes.get(None, []) if (c["name"], c.get("type", 1)) not in seen]

    def visible_at(self, place: str, guild_id: int) -> list[JSON]:
        """What Discord offers in ``place`` (``places.PLACES``): in the bot's server, its commands;
        elsewhere only global ones, in a server without the bot or a group DM those a member
        may install (``integration_types`` has 1), where ``contexts`` (default: all) allows."""
        if place == SERVER:
            return self.visible_in(guild_id)
        context = CONTEXTS[place]
        return [c for c in self.scopes.get(None, []) if offered(c, context, user_install=place != DM)]


def offered(command: JSON, context: int, *, user_install: bool) -> bool:
    """Whether a global command shows in a channel of ``context``; ``user_install``: only
    through a member's own install of the app (a server without the bot, a group DM)."""
    contexts = command.get("contexts")
    if contexts is None:
        contexts = [0, 1, 2] if command.get("dm_permission", True) is not False else [0]
    installs = command.get("integration_types") or [0]
    return context in contexts and (not user_install or 1 in installs)


class Backend(Protocol):
    """The fake Discord as its REST handlers see it."""

    world: World
    limits: Limits
    commands: CommandStore
    interactions: dict[int, InteractionRecord]
    messages: dict[int, JSON]
    dm_channels: dict[int, int]
    webhooks: dict[int, JSON]
    scheduled_events: dict[int, JSON]
    app_emojis: dict[int, JSON]
    emoji_images: dict[int, bytes]
    poll_votes: dict[int, dict[int, set[int]]]

    @property
    def gateway_url(self) -> str: ...

    def violate(self, route: str, problems: list[str], *, rejected: bool) -> None: ...

    async def dispatch(self, event: str, data: JSON) -> None: ...

    def record_by_token(self, token: str) -> InteractionRecord | None: ...

    async def create_message(
        self,
        channel_id: int,
        body: JSON,
        uploads: list[Upload],
        trigger: JSON | None = None,
        webhook: JSON | None = None,
    ) -> JSON: ...

    async def edit_message(self, message: JSON, body: JSON, uploads: list[Upload]) -> None: ...

    async def delete_message(self, message: JSON) -> None: ...

    def has_channel(self, channel_id: int) -> bool: ...

    async def delete_channel(self, channel_id: int) -> None: ...

    def message_by_nonce(self, channel_id: int, nonce: str) -> JSON | None: ...

    def remember_nonce(self, channel_id: int, nonce: str, message: JSON) -> None: ...

    def store_commands(
        self, guild_id: int | None, commands: list[JSON], route: str, spec: list[str] | None = None
    ) -> list[JSON] | web.Response: ...
