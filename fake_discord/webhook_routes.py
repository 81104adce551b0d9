"""The fake Discord's channel webhooks: list and create them (``/channels/{id}/webhooks``), read
one by its token (``GET /webhooks/{id}/{token}``) and post through one (``POST
/webhooks/{id}/{token}``, ``?wait=true``, ``?thread_id=``).

As on Discord, listing or creating needs the bot's Manage Webhooks (403, code 50013, "Missing
Permissions" without it), a channel holds at most 15 webhooks, a webhook's name may not contain
"clyde" or "discord", and a webhook posts into one of its channel's threads only when told its
``thread_id``. A message posted through a webhook has the webhook as its author, under the
``username`` the message gave. A moderator may move a webhook to another channel in Discord's
client: its ``channel_id`` changes (a test sets it), and from then on it posts there, and read by
its token it says so; as on Discord, read that way it carries no ``user``.
"""

from __future__ import annotations

import secrets
from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.permissions import MANAGE_WEBHOOKS
from fake_discord.responses import check_message, error, invalid_form, read_body, reply, spec_problems
from fake_discord.world import THREAD_TYPES
from fake_discord.world_json import user_json

JSON = dict[str, Any]
MAX_PER_CHANNEL = 15
FORBIDDEN_NAMES = ("clyde", "discord")


def _bad_name(name: str) -> list[str]:
    folded = name.casefold()
    return [f"name may not contain {word!r}" for word in FORBIDDEN_NAMES if word in folded]


async def channel_webhooks(
    fake: Backend, request: web.Request, route: str, channel: str
) -> web.StreamResponse:
    """GET lists the channel's webhooks; POST makes one (``name``, 1-80 characters)."""
    found = fake.world.place_of(int(channel))
    if found is None:
        return error(404, 10003, "Unknown Channel")
    guild, place = found
    bot = guild.member(fake.world.bot.id)
    if bot is None or not guild.permissions_of(bot) & MANAGE_WEBHOOKS:
        return error(403, 50013, "Missing Permissions")
    if place.type in THREAD_TYPES:
        return error(400, 50024, "Cannot execute action on this channel type")
    mine = [hook for hook in fake.webhooks.values() if hook["channel_id"] == channel]
    if request.method == "GET":
        return reply(mine)
    body, _ = await read_body(request)
    name = str(body.get("name") or "")
    if problems := _bad_name(name) or spec_problems(request):
        fake.violate(route, problems, rejected=True)
        return invalid_form(problems)
    if len(mine) >= MAX_PER_CHANNEL:
        return error(400, 30007, "Maximum number of webhooks reached (15)")
    hook_id = fake.world.ids.next()
    hook: JSON = {
        "id": str(hook_id),
        "type": 1,
        "guild_id": str(guild.id),
        "channel_id": channel,
        "name": name,
        "avatar": None,
        "token": secrets.token_urlsafe(48),
        "application_id": str(fake.world.application_id),
        "user": user_json(fake.world.bot),
    }
    fake.webhooks[hook_id] = hook
    return reply(hook)


async def execute_webhook(
    fake: Backend, request: web.Request, route: str, hook: JSON, token: str
) -> web.StreamResponse:
    """Post a message as the webhook, in its channel or (``thread_id``) one of that channel's threads."""
    if not secrets.compare_digest(token, str(hook["token"])):
        return error(401, 50027, "Invalid Webhook Token")
    channel_id = int(hook["channel_id"])
    if thread := request.query.get("thread_id"):
        found = fake.world.place_of(int(thread)) if thread.isdigit() else None
        if found is None or found[1].parent_id != channel_id:
            return error(400, 10003, "Unknown Channel")
        channel_id = int(thread)
    elif not fake.has_channel(channel_id):
        return error(404, 10015, "Unknown Webhook")
    body, uploads = await read_body(request)
    username = body.get("username")
    if username is not None and (problems := _bad_name(str(username))):
        fake.violate(route, problems, rejected=True)
        return invalid_form([f"username: {problem}" for problem in problems])
    if refused := check_message(fake, route, body, creating=True, spec=spec_problems(request)):
        return refused
    message = await fake.create_message(channel_id, body, uploads, webhook=hook)
    waited = request.query.get("wait", "").lower() in ("1", "true")
    return reply(message) if waited else web.Response(status=204)


async def webhook_by_token(
    fake: Backend, request: web.Request, route: str, hook_id: str, token: str
) -> web.StreamResponse:
    """GET one webhook by its token: as it is now (its channel included), without its ``user``."""
    hook = fake.webhooks.get(int(hook_id))
    if hook is None:
        return error(404, 10015, "Unknown Webhook")
    if not secrets.compare_digest(token, str(hook["token"])):
        return error(401, 50027, "Invalid Webhook Token")
    return reply({key: value for key, value in hook.items() if key != "user"})
