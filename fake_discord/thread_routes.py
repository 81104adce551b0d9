"""The fake Discord's threads: make one in a text channel (``POST /channels/{id}/threads``, or
from a message, ``POST /channels/{id}/messages/{mid}/threads``), archive or lock it
(``PATCH /channels/{id}``), and post in it, as Discord does.

A thread is a channel of its own (type 11, a public thread, with its parent's id): messages are
posted to its id. Making one needs the bot's Create Public Threads (403, code 50013 without
it), posting in one Send Messages in Threads. A post in an archived thread unarchives it, unless
a moderator locked it: then only a member with Manage Threads may post (or unarchive it), and
anyone else is refused (400, code 50083); a message in an archived thread cannot be edited
(50083 too) until a post reopens it. Archiving one's own thread needs nothing more; locking,
or unarchiving a locked thread, needs Manage Threads, and so does deleting one
(``DELETE /channels/{id}``, even a thread the bot made). Each change reaches the bot as
THREAD_CREATE, THREAD_UPDATE or THREAD_DELETE, which is how discord.py keeps threads in its cache
(an archived thread leaves that cache; GUILD_CREATE lists the active ones only).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.channel_access import closed
from fake_discord.permissions import (
    CREATE_PUBLIC_THREADS,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    SEND_MESSAGES_IN_THREADS,
)
from fake_discord.responses import error, invalid_form, read_body, reply, spec_problems
from fake_discord.world import PUBLIC_THREAD, THREAD_TYPES, FakeChannel, FakeGuild
from fake_discord.world_json import channel_json

JSON = dict[str, Any]
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""Minutes of quiet after which Discord archives a thread: the only values it takes."""
ARCHIVED = (400, 50083, "Thread is archived")


def _bot_may(fake: Backend, guild: FakeGuild, permission: int) -> bool:
    bot = guild.member(fake.world.bot.id)
    return bot is not None and bool(guild.permissions_of(bot) & permission)


async def _announce(fake: Backend, event: str, guild: FakeGuild, thread: FakeChannel, **extra: Any) -> None:
    await fake.dispatch(event, channel_json(guild, thread) | extra)


async def _make(
    fake: Backend, request: web.Request, route: str, guild: FakeGuild, parent: FakeChannel, thread_id: int
) -> web.StreamResponse:
    body, _ = await read_body(request)
    name = str(body.get("name") or "").strip()
    duration = body.get("auto_archive_duration") or 1440
    problems = spec_problems(request)
    if not 1 <= len(name) <= 100:
        problems = [*problems, "name must be 1-100 characters"]
    if duration not in ARCHIVE_DURATIONS:
        problems = [*problems, f"auto_archive_duration must be one of {ARCHIVE_DURATIONS}"]
    if problems:
        fake.violate(route, problems, rejected=True)
        return invalid_form(problems)
    kind = int(body.get("type") or PUBLIC_THREAD)
    if kind != PUBLIC_THREAD:
        fake.violate(route, [f"the fake makes public threads only (type {kind} asked)"], rejected=True)
        return error(400, 50024, "Cannot execute action on this channel type")
    thread = FakeChannel(
        thread_id,
        name,
        type=PUBLIC_THREAD,
        parent_id=parent.id,
        owner_id=fake.world.bot.id,
        auto_archive_duration=int(duration),
    )
    guild.channels.append(thread)
    await _announce(fake, "THREAD_CREATE", guild, thread, newly_created=True)
    return reply(channel_json(guild, thread), 201)


async def create_thread(
    fake: Backend, request: web.Request, route: str, channel: str, message_id: str | None = None
) -> web.StreamResponse:
    """A public thread in a text channel (``message_id``: from that message, whose id it takes)."""
    found = fake.world.place_of(int(channel))
    if found is None:
        return error(404, 10003, "Unknown Channel")
    guild, parent = found
    if parent.type in THREAD_TYPES:
        return error(400, 50024, "Cannot execute action on this channel type")
    if not _bot_may(fake, guild, CREATE_PUBLIC_THREADS):
        return error(403, 50013, "Missing Permissions")
    if message_id is None:
        return await _make(fake, request, route, guild, parent, fake.world.ids.next())
    message = fake.messages.get(int(message_id))
    if message is None or message["channel_id"] != channel:
        return error(404, 10008, "Unknown Message")
    if guild.channel(int(message_id)) is not None:
        return error(400, 160004, "A thread has already been created for this message")
    return await _make(fake, request, route, guild, parent, int(message_id))


async def edit_channel(fake: Backend, request: web.Request, route: str, channel: str) -> web.StreamResponse:
    """PATCH a thread: archive, lock, rename it (a text channel: its name and topic only)."""
    found = fake.world.place_of(int(channel))
    if found is None:
        return error(404, 10003, "Unknown Channel")
    guild, place = found
    if refused := closed(fake, place.id):
        return refused
    body, _ = await read_body(request)
    if problems := spec_problems(request):
        fake.violate(route, problems, rejected=True)
        return invalid_form(problems)
    manager = _bot_may(fake, guild, MANAGE_THREADS)
    if place.type not in THREAD_TYPES:
        if not manager:
            return error(403, 50013, "Missing Permissions")
        place.name = str(body.get("name") or place.name)
        place.topic = body.get("topic", place.topic)
        return reply(channel_json(guild, place))
    own = place.owner_id == fake.world.bot.id
    locking = body.get("locked") is True and not place.locked
    reopening_locked = body.get("archived") is False and place.archived and place.locked
    if not manager and (locking or reopening_locked or not own or body.get("locked") is False):
        return error(403, 50013, "Missing Permissions")
    for key in ("archived", "locked"):
        if isinstance(body.get(key), bool):
            setattr(place, key, body[key])
    if body.get("name"):
        place.name = str(body["name"])
    if body.get("auto_archive_duration") in ARCHIVE_DURATIONS:
        place.auto_archive_duration = int(body["auto_archive_duration"])
    await _announce(fake, "THREAD_UPDATE", guild, place)
    return reply(channel_json(guild, place))


async def delete_channel(fake: Backend, request: web.Request, route: str, channel: str) -> web.StreamResponse:
    """DELETE a channel, as Discord does: a thread needs Manage Threads (even the bot's own), any
    other channel Manage Channels; the answer is the channel as it was."""
    found = fake.world.place_of(int(channel))
    if found is None:
        return error(404, 10003, "Unknown Channel")
    guild, place = found
    needed = MANAGE_THREADS if place.type in THREAD_TYPES else MANAGE_CHANNELS
    if not _bot_may(fake, guild, needed):
        return error(403, 50013, "Missing Permissions")
    gone = channel_json(guild, place)
    await fake.delete_channel(place.id)
    return reply(gone)


def refused_post(fake: Backend, channel_id: int) -> web.StreamResponse | None:
    """Discord's answer to the bot posting in a thread it may not post in, or None if it may."""
    found = fake.world.place_of(channel_id)
    if found is None or found[1].type not in THREAD_TYPES:
        return None
    guild, thread = found
    if not _bot_may(fake, guild, SEND_MESSAGES_IN_THREADS):
        return error(403, 50013, "Missing Permissions")
    if thread.archived and thread.locked and not _bot_may(fake, guild, MANAGE_THREADS):
        return error(*ARCHIVED)
    return None


def refused_edit(fake: Backend, channel_id: int) -> web.StreamResponse | None:
    """An archived thread's messages cannot be edited until something reopens it."""
    found = fake.world.place_of(channel_id)
    if found is None or found[1].type not in THREAD_TYPES or not found[1].archived:
        return None
    return error(*ARCHIVED)


async def posted_in(fake: Backend, channel_id: int) -> None:
    """A message went into ``channel_id``: an archived thread there opens again (Discord's way)."""
    found = fake.world.place_of(channel_id)
    if found is None or found[1].type not in THREAD_TYPES or not found[1].archived:
        return
    guild, thread = found
    thread.archived = False
    await _announce(fake, "THREAD_UPDATE", guild, thread)


async def archive_by_hand(fake: Backend, thread_id: int, *, locked: bool = False) -> None:
    """A moderator archives (and, ``locked``, locks) a thread in Discord's client."""
    found = fake.world.place_of(thread_id)
    assert found is not None and found[1].type in THREAD_TYPES, f"no thread {thread_id}"
    guild, thread = found
    thread.archived, thread.locked = True, locked or thread.locked
    await _announce(fake, "THREAD_UPDATE", guild, thread)


def deleted_event(guild: FakeGuild, channel: FakeChannel) -> tuple[str, JSON]:
    """The gateway event a deleted channel makes: THREAD_DELETE for a thread, as Discord sends."""
    if channel.type not in THREAD_TYPES:
        return "CHANNEL_DELETE", channel_json(guild, channel)
    thread = {"id": str(channel.id), "guild_id": str(guild.id), "type": channel.type}
    return "THREAD_DELETE", thread | {"parent_id": str(channel.parent_id)}


def newest_thread(guild: FakeGuild) -> FakeChannel | None:
    """The server's newest thread (the console's ``!where thread``)."""
    threads = [c for c in guild.channels if c.type in THREAD_TYPES]
    return max(threads, key=lambda c: c.id) if threads else None
