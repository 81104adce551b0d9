"""Whether the bot may see and post in a channel of its servers, as Discord decides it.

A moderator takes access away with a channel overwrite (``FakeGuild.channel_permissions_of`` computes
the result): without View Channel, Discord answers every request about the channel 403, code
50001 Missing Access; without Send Messages (Send Messages in Threads in a thread), a post is
403, code 50013 Missing Permissions. Interactions from the channel still reach the bot, with
its permissions there in ``app_permissions`` (``fake_discord.payloads``). A test takes access
away (or gives it back) with :func:`set_bot_access`, which tells the bot as Discord does
(CHANNEL_UPDATE).
"""

from __future__ import annotations

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.permissions import SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL
from fake_discord.responses import error
from fake_discord.world import THREAD_TYPES, FakeChannel, FakeGuild, FakeOverwrite, World
from fake_discord.world_json import channel_json

MEMBER = 1
"""An overwrite's type for one member."""


def closed(fake: Backend, channel_id: int, *, posting: bool = False) -> web.StreamResponse | None:
    """Discord's 403 when the bot may not see the channel (or, ``posting``, not post in it)."""
    found = fake.world.place_of(channel_id)
    if found is None:
        return None
    guild, channel = found
    bot = guild.member(fake.world.bot.id)
    held = guild.channel_permissions_of(bot, channel) if bot is not None else 0
    if not held & VIEW_CHANNEL:
        return error(403, 50001, "Missing Access")
    send = SEND_MESSAGES_IN_THREADS if channel.type in THREAD_TYPES else SEND_MESSAGES
    if posting and not held & send:
        return error(403, 50013, "Missing Permissions")
    return None


def deny_bot(world: World, channel_id: int, permissions: int = VIEW_CHANNEL) -> tuple[FakeGuild, FakeChannel]:
    """The bot's own overwrite in the channel denies exactly ``permissions`` (0: it has none),
    as a moderator sets it; nobody is told (a world made before the bot connects)."""
    found = world.place_of(channel_id)
    assert found is not None, f"no channel {channel_id}"
    channel = found[1]
    channel.overwrites = [o for o in channel.overwrites if not (o.type == MEMBER and o.id == world.bot.id)]
    if permissions:
        channel.overwrites.append(FakeOverwrite(world.bot.id, MEMBER, deny=permissions))
    return found


async def set_bot_access(fake: Backend, channel_id: int, *, denied: int = VIEW_CHANNEL) -> None:
    """:func:`deny_bot`, and the bot hears of it as from Discord (CHANNEL_UPDATE)."""
    await fake.dispatch("CHANNEL_UPDATE", channel_json(*deny_bot(fake.world, channel_id, denied)))
