"""The fake Discord's channel endpoints: a channel's history, posting (with Discord's nonce
deduplication), editing, deleting and pinning messages, with Discord's status codes.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.channel_access import closed
from fake_discord.payloads import EPHEMERAL
from fake_discord.permissions import MANAGE_MESSAGES
from fake_discord.places import unreachable
from fake_discord.responses import check_message, error, invalid_form, read_body, reply, spec_problems
from fake_discord.thread_routes import refused_edit, refused_post

JSON = dict[str, Any]


def history(fake: Backend, channel_id: int, query: Any) -> list[JSON]:
    """GET /channels/{id}/messages: newest first, ``limit`` (1-100, default 50) of them, ending
    ``before`` an id, starting right ``after`` one (the oldest after it), or ``around`` one.
    Ephemeral messages are never in a channel's history."""
    limit = max(1, min(int(query.get("limit", "50")), 100))
    found = sorted(
        (
            m
            for m in fake.messages.values()
            if int(m["channel_id"]) == channel_id and not m["flags"] & EPHEMERAL
        ),
        key=lambda m: int(m["id"]),
    )
    if "after" in query:
        after = int(query["after"])
        return list(reversed([m for m in found if int(m["id"]) > after][:limit]))
    if "around" in query:
        around = int(query["around"])
        older = [m for m in found if int(m["id"]) <= around][-((limit + 1) // 2) :]
        newer = [m for m in found if int(m["id"]) > around][: limit - len(older)]
        return list(reversed(older + newer))
    if "before" in query:
        before = int(query["before"])
        found = [m for m in found if int(m["id"]) < before]
    return list(reversed(found[-limit:]))


def outside(fake: Backend, route: str, channel_id: int) -> web.StreamResponse | None:
    """A channel of a server the bot is not in, or a group DM, reached through a member's own
    install: Discord answers 403 Missing Access, and the fake records the try, since only the
    interaction's own answer may go there (docs/architecture.md, "Dice anywhere")."""
    if not unreachable(fake.world, channel_id, set(fake.dm_channels.values())):
        return None
    fake.violate(route, [f"the bot is not in channel {channel_id}"], rejected=True)
    return error(403, 50001, "Missing Access")


async def channel_messages(
    fake: Backend, request: web.Request, route: str, channel: str
) -> web.StreamResponse:
    """Read a channel's history, or post in it; a repeated ``nonce`` with ``enforce_nonce`` within
    a few minutes returns the message already posted instead of posting it again, as Discord does."""
    channel_id = int(channel)
    if refused := outside(fake, route, channel_id):
        return refused
    if not fake.has_channel(channel_id):
        return error(404, 10003, "Unknown Channel")
    if refused := closed(fake, channel_id, posting=request.method == "POST"):
        return refused
    if request.method == "GET":
        return reply(history(fake, channel_id, request.query))
    body, uploads = await read_body(request)
    nonce = body.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:
        fake.violate(route, [f"nonce has {len(str(nonce))} characters (max 25)"], rejected=True)
        return invalid_form(["nonce must be at most 25 characters"])
    if nonce is not None and body.get("enforce_nonce"):
        existing = fake.message_by_nonce(channel_id, str(nonce))
        if existing == {}:
            return error(404, 10008, "Unknown Message")  # that nonce's message was deleted meanwhile
        if existing is not None:
            return reply(existing | {"nonce": nonce})
    if refused := refused_post(fake, channel_id):
        return refused
    if refused := check_message(fake, route, body, creating=True, spec=spec_problems(request)):
        return refused
    message = await fake.create_message(channel_id, body, uploads)
    if nonce is None:
        return reply(message)
    fake.remember_nonce(channel_id, str(nonce), message)
    return reply(message | {"nonce": nonce})


async def channel_message(
    fake: Backend, request: web.Request, route: str, channel: str, message_id: str
) -> web.StreamResponse:
    if refused := outside(fake, route, int(channel)):
        return refused
    if not fake.has_channel(int(channel)):
        return error(404, 10003, "Unknown Channel")
    if refused := closed(fake, int(channel)):
        return refused
    message = fake.messages.get(int(message_id))
    if message is None or message["channel_id"] != channel:
        return error(404, 10008, "Unknown Message")
    if request.method == "GET":
        return reply(message)
    if request.method == "DELETE":
        await fake.delete_message(message)
        return web.Response(status=204)
    if refused := refused_edit(fake, int(channel)):
        return refused
    body, uploads = await read_body(request)
    spec = spec_problems(request)
    if refused := check_message(fake, route, body, creating=False, spec=spec, editing=message):
        return refused
    await fake.edit_message(message, body, uploads)
    return reply(message)


async def pins(
    fake: Backend, request: web.Request, route: str, channel: str, message_id: str
) -> web.StreamResponse:
    """Pin or unpin a message: Discord answers 403 (Missing Permissions) without Manage Messages."""
    if not fake.has_channel(int(channel)):
        return error(404, 10003, "Unknown Channel")
    if refused := closed(fake, int(channel)):
        return refused
    message = fake.messages.get(int(message_id))
    if message is None or message["channel_id"] != channel:
        return error(404, 10008, "Unknown Message")
    guild = fake.world.guild_by_id(int(message.get("guild_id") or 0))
    member = guild.member(fake.world.bot.id) if guild is not None else None
    if guild is None or member is None or not guild.permissions_of(member) & MANAGE_MESSAGES:
        return error(403, 50013, "Missing Permissions")
    message["pinned"] = request.method == "PUT"
    return web.Response(status=204)
