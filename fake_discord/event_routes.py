"""The fake Discord's guild scheduled events: create and list them
(``/guilds/{id}/scheduled-events``), as Discord does.

Creating needs the bot's Manage Events permission (403, code 50013, "Missing Permissions"
without it). An external event (entity type 3) needs ``entity_metadata.location`` and a
``scheduled_end_time``, takes no ``channel_id``, and its times must be in the future with the
end after the start; a voice or stage event (1, 2) needs a ``channel_id`` of that server. The
bodies are also held against Discord's OpenAPI description by the server (``fake_discord.openapi``).
"""

from __future__ import annotations

import datetime
from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.permissions import MANAGE_EVENTS
from fake_discord.responses import error, invalid_form, read_body, reply, spec_problems

JSON = dict[str, Any]
EXTERNAL = 3
GUILD_ONLY = 2


def _time(value: object) -> datetime.datetime | None:
    try:
        moment = datetime.datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


def event_problems(body: JSON, channel_ids: set[int], now: datetime.datetime) -> list[str]:
    """What Discord refuses in a new event beyond the description's shapes."""
    problems: list[str] = []
    name = str(body.get("name") or "")
    if not 1 <= len(name) <= 100:
        problems.append("name must be 1-100 characters")
    start, end = _time(body.get("scheduled_start_time")), _time(body.get("scheduled_end_time"))
    if start is None or start <= now:
        problems.append("scheduled_start_time must be a time in the future")
    kind = body.get("entity_type")
    if kind == EXTERNAL:
        location = str((body.get("entity_metadata") or {}).get("location") or "")
        if not 1 <= len(location) <= 100:
            problems.append("an external event needs entity_metadata.location (1-100 characters)")
        if end is None:
            problems.append("an external event needs scheduled_end_time")
        if body.get("channel_id") is not None:
            problems.append("an external event takes no channel_id")
    elif kind in (1, 2):
        if int(body.get("channel_id") or 0) not in channel_ids:
            problems.append("a stage or voice event needs a channel_id of this server")
    else:
        problems.append("entity_type must be 1, 2 or 3")
    if start is not None and end is not None and end <= start:
        problems.append("scheduled_end_time must be after scheduled_start_time")
    if body.get("privacy_level") != GUILD_ONLY:
        problems.append("privacy_level must be 2 (guild only)")
    return problems


async def scheduled_events(fake: Backend, request: web.Request, route: str, guild: str) -> web.StreamResponse:
    found = fake.world.guild_by_id(int(guild))
    if found is None:
        return error(404, 10004, "Unknown Guild")
    events = [e for e in fake.scheduled_events.values() if e["guild_id"] == guild]
    if request.method == "GET":
        return reply(events)
    bot = found.member(fake.world.bot.id)
    if bot is None or not found.permissions_of(bot) & MANAGE_EVENTS:
        fake.violate(route, ["the bot lacks Manage Events"], rejected=True)
        return error(403, 50013, "Missing Permissions")
    body, _ = await read_body(request)
    channel_ids = {channel.id for channel in found.channels}
    problems = event_problems(body, channel_ids, datetime.datetime.now(datetime.UTC)) or spec_problems(
        request
    )
    if problems:
        fake.violate(route, problems, rejected=True)
        return invalid_form(problems)
    event_id = fake.world.ids.next()
    event: JSON = {
        "id": str(event_id),
        "guild_id": guild,
        "channel_id": body.get("channel_id"),
        "creator_id": str(fake.world.bot.id),
        "name": body["name"],
        "description": body.get("description"),
        "scheduled_start_time": body["scheduled_start_time"],
        "scheduled_end_time": body.get("scheduled_end_time"),
        "privacy_level": body["privacy_level"],
        "status": 1,
        "entity_type": body["entity_type"],
        "entity_id": None,
        "entity_metadata": body.get("entity_metadata"),
        "user_count": 0,
        "image": None,
    }
    fake.scheduled_events[event_id] = event
    return reply(event)
