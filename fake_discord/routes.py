"""The REST endpoints of the fake Discord, with Discord's status and error codes.

Each handler mirrors one documented endpoint closely enough for discord.py's parser, records
what the bot sent on the fake's state, and refuses what Discord would refuse (late or repeated
interaction responses, oversize messages) with the same error code. The channel endpoints are in
``fake_discord.channel_routes``; how an answer is built, in ``fake_discord.responses``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.channel_access import closed
from fake_discord.channel_routes import channel_message, channel_messages, pins
from fake_discord.emoji_routes import application_emoji, application_emojis
from fake_discord.event_routes import scheduled_events
from fake_discord.layout import edit_problems
from fake_discord.payloads import EPHEMERAL, LOADING
from fake_discord.poll_routes import answer_voters, expire
from fake_discord.records import InteractionRecord, clock
from fake_discord.responses import (
    check_message,
    error,
    read_body,
    refuse,
    refuse_form,
    reply,
    spec_problems,
)
from fake_discord.thread_routes import create_thread, delete_channel, edit_channel
from fake_discord.validate import (
    mention_problems,
    validate_autocomplete,
    validate_message,
    validate_modal,
)
from fake_discord.webhook_routes import channel_webhooks, execute_webhook, webhook_by_token
from fake_discord.world import THREAD_TYPES
from fake_discord.world_json import channel_json, guild_json, member_json, role_json, user_json

JSON = dict[str, Any]
Handler = Callable[..., Awaitable[web.StreamResponse]]
# Interaction type -> the callback types Discord accepts for it.
ALLOWED_RESPONSES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def registered_command(command: JSON, command_id: int, application_id: int, guild_id: int | None) -> JSON:
    """A command as Discord returns it after a sync: ids, version and string permissions added."""
    permissions = command.get("default_member_permissions")
    data = command | {
        "id": str(command_id),
        "application_id": str(application_id),
        "version": str(command_id),
        "type": command.get("type", 1),
        "description": command.get("description", ""),
        "default_member_permissions": None if permissions is None else str(permissions),
        "nsfw": bool(command.get("nsfw")),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return data


def _response_problems(kind: int, data: JSON, target: JSON | None) -> list[str]:
    """What Discord refuses in an initial response; ``target``: the message an update (7) edits."""
    if kind == 8:
        return validate_autocomplete(data)
    if kind == 9:
        return validate_modal(data)
    if kind == 4:
        return validate_message(data)
    if kind == 7:
        return validate_message(data, creating=False) + (edit_problems(target, data) if target else [])
    return []


async def interaction_callback(
    fake: Backend, request: web.Request, route: str, interaction_id: str, token: str
) -> web.StreamResponse:
    record = fake.interactions.get(int(interaction_id))
    if record is None or record.token != token:
        return error(404, 10062, "Unknown interaction")
    # The callback's clock starts when the request arrives: reading a large multipart body is the
    # fake's own work (Discord parses uploads on its side), not the bot's.
    arrived = clock()
    body, uploads = await read_body(request)
    if record.response is not None:
        why = "a second initial response to one interaction"
        return refuse(fake, record, route, 400, 40060, "Interaction has already been acknowledged.", why)
    elapsed = arrived - record.sent_at
    if elapsed > fake.limits.ack_deadline:
        why = f"first response after {elapsed:.2f}s (limit {fake.limits.ack_deadline}s)"
        return refuse(fake, record, route, 404, 10062, "Unknown interaction", why)
    kind, data = int(body.get("type", 0)), body.get("data") or {}
    if kind not in ALLOWED_RESPONSES.get(record.type, set()):
        why = f"response type {kind} is not valid for interaction type {record.type}"
        return refuse(fake, record, route, 400, 50035, "Invalid Form Body", why)
    if kind in (6, 7) and "message" not in record.payload:
        why = "a modal submitted from a command has no message to update (types 6 and 7)"
        return refuse(fake, record, route, 400, 50035, "Invalid Form Body", why)
    clicked = record.payload.get("message")
    target = fake.messages.get(int(clicked["id"])) if kind == 7 and clicked else None
    if problems := _response_problems(kind, data, target):
        fake.violate(route, problems, rejected=fake.limits.reject_invalid)
    if refused := refuse_form(fake, problems or spec_problems(request), record):
        return refused
    if kind in (4, 7) and fake.limits.silent_mentions:
        fake.violate(route, mention_problems(data), rejected=False)
    record.responded_at = arrived
    record.response = body
    channel_id = int(record.payload["channel"]["id"])
    message: JSON | None = None
    if kind == 4:
        message = await fake.create_message(channel_id, data, uploads, record.payload)
    elif kind == 5:
        loading = {"flags": LOADING | (int(data.get("flags") or 0) & EPHEMERAL)}
        message = await fake.create_message(channel_id, loading, [], record.payload)
    elif kind == 7 and (target := fake.messages.get(int(record.payload["message"]["id"]))) is not None:
        await fake.edit_message(target, data, uploads)
        message = target
    record.original = message
    record.touch()
    if request.query.get("with_response", "").lower() not in ("1", "true"):
        return web.Response(status=204)
    resource: JSON = {"type": kind} | ({"message": message} if message else {})
    flags = int((message or {}).get("flags") or 0)
    summary = {
        "id": str(record.id),
        "type": record.type,
        "response_message_id": message["id"] if message else None,
        "response_message_loading": kind == 5,
        "response_message_ephemeral": bool(flags & EPHEMERAL),
    }
    return reply({"interaction": summary, "resource": resource})


async def followup(
    fake: Backend, request: web.Request, route: str, _app: str, token: str
) -> web.StreamResponse:
    """POST /webhooks/{app}/{token}; after a defer the first followup replaces the "thinking" message.
    The same path with a channel webhook's id posts through that webhook."""
    if (hook := fake.webhooks.get(int(_app))) is not None:
        return await execute_webhook(fake, request, route, hook, token)
    record = fake.record_by_token(token)
    if record is None:
        return error(404, 10015, "Unknown Webhook")
    if record.response_type in (None, 8):
        why = (
            "followup before any initial response" if record.response is None else "followup to autocomplete"
        )
        return refuse(fake, record, route, 404, 10015, "Unknown Webhook", why)
    body, uploads = await read_body(request)
    if refused := check_message(fake, route, body, creating=True, record=record, spec=spec_problems(request)):
        return refused
    original = record.original
    if original is not None and original["flags"] & LOADING:
        await fake.edit_message(original, body, uploads)
        message = original
    else:
        channel_id = int(record.payload["channel"]["id"])
        message = await fake.create_message(channel_id, body, uploads, record.payload)
        record.followups.append(message)
    record.touch()
    return (
        reply(message) if request.query.get("wait", "").lower() in ("1", "true") else web.Response(status=204)
    )


def _webhook_target(fake: Backend, record: InteractionRecord, message_id: str) -> JSON | None:
    if message_id != "@original":
        found = fake.messages.get(int(message_id))
        return (
            found if found is not None and (found is record.original or found in record.followups) else None
        )
    if record.original is not None:
        return record.original
    clicked = record.payload.get("message")
    return fake.messages.get(int(clicked["id"])) if clicked else None


async def webhook_message(
    fake: Backend, request: web.Request, route: str, _app: str, token: str, message_id: str
) -> web.StreamResponse:
    """GET/PATCH/DELETE of an interaction's original response or one of its followups."""
    record = fake.record_by_token(token)
    if record is None:
        return error(404, 10015, "Unknown Webhook")
    target = _webhook_target(fake, record, message_id)
    if target is None:
        return error(404, 10008, "Unknown Message")
    if request.method == "GET":
        return reply(target)
    if request.method == "DELETE":
        await fake.delete_message(target)
        if target is record.original:
            record.original = None
        elif target in record.followups:
            record.followups.remove(target)
        record.touch()
        return web.Response(status=204)
    body, uploads = await read_body(request)
    if refused := check_message(
        fake, route, body, creating=False, record=record, spec=spec_problems(request), editing=target
    ):
        return refused
    await fake.edit_message(target, body, uploads)
    if message_id == "@original":
        record.original = target
    record.touch()
    return reply(target)


async def commands(
    fake: Backend, request: web.Request, route: str, _app: str, guild: str | None = None
) -> web.StreamResponse:
    guild_id = int(guild) if guild else None
    if guild_id is not None and fake.world.guild_by_id(guild_id) is None:
        return error(403, 50001, "Missing Access")
    if request.method == "GET":
        return reply(fake.commands.scopes.get(guild_id, []))
    body, _ = await read_body(request)
    commands = list(body) if isinstance(body, list) else []
    stored = fake.store_commands(guild_id, commands, route, spec_problems(request))
    return stored if isinstance(stored, web.Response) else reply(stored)


async def info(fake: Backend, request: web.Request, route: str, *ids: str) -> web.StreamResponse:
    """Read-only lookups: who am I, the application, gateway, users, members, guilds, channels."""
    world = fake.world
    guild = world.guild
    path = request.path.removeprefix("/api/v10")
    if path == "/users/@me":
        return reply(user_json(world.bot) | {"verified": True, "mfa_enabled": False, "flags": 0})
    if path.endswith("/applications/@me"):
        owner = guild.member("narrator") or guild.members[-1]
        app = {"id": str(world.application_id), "name": world.bot.name, "description": "", "icon": None}
        extra = {"bot_public": False, "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0}
        return reply(
            app | extra | {"owner": user_json(owner.user), "team": None, "bot": user_json(world.bot)}
        )
    if path.startswith("/gateway"):
        return reply({"url": fake.gateway_url, "shards": 1, "session_start_limit": _session_limit()})
    if path.startswith("/users/"):
        member = guild.member(ids[0])
        return reply(user_json(member.user)) if member else error(404, 10013, "Unknown User")
    found = world.guild_by_id(int(ids[0])) if path.startswith("/guilds/") else None
    if path.startswith("/guilds/") and found is None:
        return error(404, 10004, "Unknown Guild")
    if path.startswith("/guilds/") and found is not None:
        if path.endswith("/roles"):
            return reply([role_json(role) for role in found.roles])
        if path.endswith("/channels"):  # as Discord: every channel with its overwrites, no thread
            return reply([channel_json(found, c) for c in found.channels if c.type not in THREAD_TYPES])
        if len(ids) == 1:
            return reply(guild_json(found))
        member = found.member(ids[1])
        return reply(member_json(found, member)) if member else error(404, 10007, "Unknown Member")
    if path.startswith("/channels/"):
        if refused := closed(fake, int(ids[0])):
            return refused
        for candidate in world.guilds:
            if (channel := candidate.channel(ids[0])) is not None:
                return reply(channel_json(candidate, channel))
    return error(404, 10003, f"Unknown object ({path})")


def _session_limit() -> JSON:
    return {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}


async def open_dm(fake: Backend, request: web.Request, route: str) -> web.StreamResponse:
    body, _ = await read_body(request)
    member = fake.world.guild.member(str(body.get("recipient_id")))
    if member is None:
        return error(400, 50007, "Cannot send messages to this user")
    channel_id = fake.dm_channels.setdefault(member.user.id, fake.world.ids.next())
    return reply(
        {"id": str(channel_id), "type": 1, "recipients": [user_json(member.user)], "last_message_id": None}
    )


async def no_permissions(fake: Backend, request: web.Request, route: str, *_: str) -> web.StreamResponse:
    return reply([])


_TABLE: list[tuple[str, str, Handler]] = [
    ("GET", r"/users/@me", info),
    ("GET", r"/users/(\d+)", info),
    ("GET", r"/(?:oauth2/)?applications/@me", info),
    ("GET", r"/gateway(?:/bot)?", info),
    ("GET", r"/guilds/(\d+)", info),
    ("GET", r"/guilds/(\d+)/members/(\d+)", info),
    ("GET", r"/guilds/(\d+)/roles", info),
    ("GET", r"/guilds/(\d+)/channels", info),
    ("GET", r"/channels/(\d+)", info),
    ("POST", r"/users/@me/channels", open_dm),
    ("GET", r"/applications/(\d+)/commands", commands),
    ("PUT", r"/applications/(\d+)/commands", commands),
    ("GET", r"/applications/(\d+)/guilds/(\d+)/commands", commands),
    ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands", commands),
    ("GET", r"/applications/(\d+)/guilds/(\d+)/commands/permissions", no_permissions),
    ("POST", r"/interactions/(\d+)/([^/]+)/callback", interaction_callback),
    ("POST", r"/webhooks/(\d+)/([^/]+)", followup),
    ("GET", r"/webhooks/(\d+)/([^/]+)", webhook_by_token),
    ("GET", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", webhook_message),
    ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", webhook_message),
    ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)", webhook_message),
    ("POST", r"/channels/(\d+)/threads", create_thread),
    ("POST", r"/channels/(\d+)/messages/(\d+)/threads", create_thread),
    ("PATCH", r"/channels/(\d+)", edit_channel),
    ("DELETE", r"/channels/(\d+)", delete_channel),
    ("GET", r"/channels/(\d+)/webhooks", channel_webhooks),
    ("POST", r"/channels/(\d+)/webhooks", channel_webhooks),
    ("GET", r"/channels/(\d+)/messages", channel_messages),
    ("POST", r"/channels/(\d+)/messages", channel_messages),
    ("GET", r"/channels/(\d+)/messages/(\d+)", channel_message),
    ("PATCH", r"/channels/(\d+)/messages/(\d+)", channel_message),
    ("DELETE", r"/channels/(\d+)/messages/(\d+)", channel_message),
    ("PUT", r"/channels/(\d+)/messages/pins/(\d+)", pins),
    ("DELETE", r"/channels/(\d+)/messages/pins/(\d+)", pins),
    ("PUT", r"/channels/(\d+)/pins/(\d+)", pins),
    ("DELETE", r"/channels/(\d+)/pins/(\d+)", pins),
    ("POST", r"/channels/(\d+)/polls/(\d+)/expire", expire),
    ("GET", r"/channels/(\d+)/polls/(\d+)/answers/(\d+)", answer_voters),
    ("GET", r"/applications/(\d+)/emojis", application_emojis),
    ("POST", r"/applications/(\d+)/emojis", application_emojis),
    ("GET", r"/applications/(\d+)/emojis/(\d+)", application_emoji),
    ("PATCH", r"/applications/(\d+)/emojis/(\d+)", application_emoji),
    ("DELETE", r"/applications/(\d+)/emojis/(\d+)", application_emoji),
    ("GET", r"/guilds/(\d+)/scheduled-events", scheduled_events),
    ("POST", r"/guilds/(\d+)/scheduled-events", scheduled_events),
]
ROUTES = [(method, re.compile(pattern), handler) for method, pattern, handler in _TABLE]
