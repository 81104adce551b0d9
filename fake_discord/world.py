"""The guild the fake Discord pretends to host, and its objects as Discord's JSON.

Kept apart from the server so the command-line parser and payload builders can resolve
`@player1` or `#table` without a running server, and so tests can build odd worlds.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_WEBHOOKS = 1 << 29
MANAGE_EVENTS = 1 << 33
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_TYPES = frozenset({10, 11, 12})
PUBLIC_THREAD = 11
EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
"""@everyone's permissions, as Discord gives a new server's (threads included)."""
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
ALL_PERMISSIONS = (1 << 53) - 1
BOT_PERMISSIONS = MANAGE_MESSAGES | EMBED_LINKS | MANAGE_WEBHOOKS
"""What the bot's role holds in the default worlds (tests take one away to provoke a refusal)."""
TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"


class Snowflakes:
    """Unique, increasing ids that discord.py can turn into plausible creation times."""

    def __init__(self) -> None:
        self._counter = itertools.count()

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass
class FakeOverwrite:
    """A channel's permission overwrite for a role (``type`` 0) or a member (``type`` 1)."""

    id: int
    type: int = 0
    allow: int = 0
    deny: int = 0


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = 0
    topic: str | None = None
    overwrites: list[FakeOverwrite] = field(default_factory=list)
    parent_id: int | None = None
    """A thread's channel (``type`` 11: a public thread)."""
    archived: bool = False
    locked: bool = False
    """A thread's state (``fake_discord.thread_routes``): archived, and locked by a moderator."""
    owner_id: int | None = None
    """Who made the thread (None: the server's owner)."""
    auto_archive_duration: int = 1440


@dataclass
class FakeMember:
    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[FakeRole]
    channels: list[FakeChannel]
    members: list[FakeMember]

    def member(self, key: str | int) -> FakeMember | None:
        """Find a member by id, `<@id>`, `@name`, name or nick (case-insensitive)."""
        wanted = _strip_mention(str(key), "<@", "@")
        for member in self.members:
            names = {member.user.name.lower(), (member.nick or "").lower()}
            if wanted == str(member.user.id) or wanted.lower() in names:
                return member
        return None

    def role(self, key: str | int) -> FakeRole | None:
        wanted = _strip_mention(str(key), "<@&", "@")
        for role in self.roles:
            if wanted == str(role.id) or wanted.lower() == role.name.lower():
                return role
        return None

    def channel(self, key: str | int) -> FakeChannel | None:
        wanted = _strip_mention(str(key), "<#", "#")
        for channel in self.channels:
            if wanted == str(channel.id) or wanted.lower() == channel.name.lower():
                return channel
        return None

    def permissions_of(self, member: FakeMember) -> int:
        """Guild-level permissions as Discord computes them (no channel overwrites here)."""
        if member.user.id == self.owner_id:
            return ALL_PERMISSIONS
        value = 0
        for role in self.roles:
            if role.id == self.id or role.id in member.role_ids:
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value


@dataclass
class World:
    """Everything the fake serves that is not a message: the bot, its application and guilds."""

    ids: Snowflakes
    bot: FakeUser
    application_id: int
    guilds: list[FakeGuild]
    member_id: Callable[[str], int] | None = None
    """The id a member added by name gets; None: the next snowflake."""
    elsewhere: FakeGuild | None = None
    """A server the bot is not in (no GUILD_CREATE, no REST access): ``places.server_without_bot``."""
    private: dict[tuple[str, int], FakeChannel] = field(default_factory=dict)
    """DM and group DM channels by (place, user id): ``places.private_channel``."""

    @property
    def guild(self) -> FakeGuild:
        return self.guilds[0]

    def guild_by_id(self, guild_id: int) -> FakeGuild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def add_member(
        self, name: str, *, roles: tuple[str, ...] = (), guild: FakeGuild | None = None
    ) -> FakeMember:
        target = guild or self.guild
        role_ids = [role.id for name_ in roles if (role := target.role(name_)) is not None]
        user_id = self.member_id(name) if self.member_id is not None else self.ids.next()
        member = FakeMember(FakeUser(user_id, name), role_ids)
        target.members.append(member)
        return member


def _strip_mention(text: str, long_prefix: str, short_prefix: str) -> str:
    if text.startswith(long_prefix) and text.endswith(">"):
        return text[len(long_prefix) : -1].lstrip("!")
    return text.removeprefix(short_prefix)


class StableSnowflakes(Snowflakes):
    """Ids fixed in time, so the same world gets the same ids on every run."""

    def next(self) -> int:
        return (OFFLINE_EPOCH_MS << 22) | (next(self._counter) & 0x3FFFFF)


OFFLINE_EPOCH_MS = 1_700_000_000_000 - DISCORD_EPOCH_MS


def offline_world(*, user: str = "narrator", narrator: bool = True) -> World:
    """The offline console's table, with the same server and member ids on every run.

    Characters are stored per server and owned by user ids, so stable ids are what let a sheet
    made in one console session be found in the next; messages get ids of their own time. A
    member beyond the default three gets an id derived from their name, so ``--user alice`` and
    a later ``!as alice`` are always the same Alice.
    """
    world = default_world(user=user, narrator=narrator, ids=StableSnowflakes())
    member = world.guild.member(user)
    if member is not None and user not in ("narrator", "player1", "player2"):
        member.user.id = offline_member_id(user)
    world.member_id = offline_member_id
    # Only the table is fixed: a message or an interaction made now carries now in its id, as on
    # Discord, so its age is real (a Narrator waits for a player's defence in the console too).
    world.ids = Snowflakes()
    return world


def offline_member_id(name: str) -> int:
    """A member's id made from their name, the same on every run (``offline_world``)."""
    digest = int.from_bytes(hashlib.sha256(name.casefold().encode()).digest()[:5], "big")
    return (OFFLINE_EPOCH_MS << 22) | (1 << 21) | (digest & 0x1FFFFF)


def default_world(*, user: str = "narrator", narrator: bool = True, ids: Snowflakes | None = None) -> World:
    """A table for one game: a Narrator role, a #table channel, a narrator and two players.

    `user` is ensured to exist; `narrator` decides whether that user holds the Narrator role
    (which carries Manage Server, the permission narrator-only commands usually require).
    """
    ids = ids or Snowflakes()
    guild_id = ids.next()
    bot = FakeUser(ids.next(), "Mistborn Bot", bot=True)
    narrator_role = FakeRole(ids.next(), "Narrator", MANAGE_GUILD, position=2)
    bot_role = FakeRole(ids.next(), "Mistborn Bot", BOT_PERMISSIONS, position=1, managed=True)
    guild = FakeGuild(
        id=guild_id,
        name="Scadrial Table",
        owner_id=ids.next(),
        roles=[FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS), narrator_role, bot_role],
        channels=[
            FakeChannel(ids.next(), "table", topic="Where the game is played"),
            FakeChannel(ids.next(), "ooc"),
        ],
        members=[FakeMember(bot, [bot_role.id])],
    )
    world = World(ids=ids, bot=bot, application_id=bot.id, guilds=[guild])
    world.add_member("narrator", roles=("Narrator",))
    world.add_member("player1")
    world.add_member("player2")
    member = guild.member(user) or world.add_member(user)
    has_role = narrator_role.id in member.role_ids
    if narrator and not has_role:
        member.role_ids.append(narrator_role.id)
    elif not narrator and has_role:
        member.role_ids.remove(narrator_role.id)
    return world


def add_table_guild(world: World, name: str, *, channels: int = 1) -> FakeGuild:
    """Another server the bot is in, laid out like `default_world`'s: a Narrator role, the bot's
    managed role, `channels` text channels (#table, #table-2, ...) and the narrator (with the
    Narrator role), player1 and player2, each a distinct user with a fresh id."""
    ids = world.ids
    guild_id = ids.next()
    narrator_role = FakeRole(ids.next(), "Narrator", MANAGE_GUILD, position=2)
    bot_role = FakeRole(ids.next(), "Mistborn Bot", BOT_PERMISSIONS, position=1, managed=True)
    guild = FakeGuild(
        id=guild_id,
        name=name,
        owner_id=ids.next(),
        roles=[FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS), narrator_role, bot_role],
        channels=[
            FakeChannel(ids.next(), "table" if i == 0 else f"table-{i + 1}") for i in range(max(1, channels))
        ],
        members=[FakeMember(world.bot, [bot_role.id])],
    )
    world.guilds.append(guild)
    world.add_member("narrator", roles=("Narrator",), guild=guild)
    world.add_member("player1", guild=guild)
    world.add_member("player2", guild=guild)
    return guild


def many_guilds_world(guilds: int, *, channels: int = 1, ids: Snowflakes | None = None) -> World:
    """`default_world()` plus `guilds - 1` more servers from `add_table_guild`, for load tests.

    The first guild is exactly `default_world`'s (so the harness and the command line work there
    as usual); every guild has the same three members by name but with their own user ids.
    """
    world = default_world(ids=ids)
    first = world.guild
    for _ in range(max(0, channels - len(first.channels))):
        first.channels.append(FakeChannel(world.ids.next(), f"table-{len(first.channels) + 1}"))
    for number in range(2, guilds + 1):
        add_table_guild(world, f"Scadrial Table {number}", channels=channels)
    return world


def user_json(user: FakeUser) -> JSON:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": None if user.bot else user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
    }


def member_json(
    guild: FakeGuild, member: FakeMember, *, with_user: bool = True, permissions: bool = False
) -> JSON:
    """A guild member; interactions add `permissions`, `resolved.members` drop `user`."""
    data: JSON = {
        "roles": [str(role_id) for role_id in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": TIMESTAMP,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_json(member.user)
    if permissions:
        data["permissions"] = str(guild.permissions_of(member))
    return data


def role_json(role: FakeRole) -> JSON:
    return {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": True,
        "flags": 0,
    }


def channel_json(guild: FakeGuild, channel: FakeChannel, *, permissions: int | None = None) -> JSON:
    data: JSON = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(guild.id),
        "name": channel.name,
        "position": guild.channels.index(channel) if channel in guild.channels else 0,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
            for o in channel.overwrites
        ],
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "nsfw": False,
        "topic": channel.topic,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    if channel.type in THREAD_TYPES:
        data |= thread_fields(guild, channel)
    return data


def thread_fields(guild: FakeGuild, channel: FakeChannel) -> JSON:
    """What a thread carries beyond a channel: who opened it and its archive state."""
    metadata = {
        "archived": channel.archived,
        "auto_archive_duration": channel.auto_archive_duration,
        "archive_timestamp": TIMESTAMP,
        "locked": channel.locked,
    }
    return {
        "owner_id": str(channel.owner_id or guild.owner_id),
        "message_count": 0,
        "member_count": 0,
        "thread_metadata": metadata,
    }


def guild_json(guild: FakeGuild) -> JSON:
    """``GET /guilds/{id}`` as Discord answers it (``GuildWithCountsResponse``): the owner and
    every role, without the gateway's members and channels."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "description": None,
        "home_header": None,
        "splash": None,
        "discovery_splash": None,
        "features": [],
        "banner": None,
        "owner_id": str(guild.owner_id),
        "application_id": None,
        "region": "deprecated",
        "afk_channel_id": None,
        "afk_timeout": 300,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "widget_enabled": False,
        "widget_channel_id": None,
        "verification_level": 0,
        "roles": [role_json(role) for role in guild.roles],
        "default_message_notifications": 1,
        "mfa_level": 0,
        "explicit_content_filter": 0,
        "max_presences": None,
        "max_members": 500000,
        "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "rules_channel_id": None,
        "safety_alerts_channel_id": None,
        "public_updates_channel_id": None,
        "premium_progress_bar_enabled": False,
        "nsfw": False,
        "nsfw_level": 0,
        "emojis": [],
        "stickers": [],
        "incidents_data": None,
        "approximate_member_count": len(guild.members),
        "approximate_presence_count": 0,
    }


def guild_create_json(guild: FakeGuild) -> JSON:
    """GUILD_CREATE with every member, so discord.py sees the guild as chunked and never asks for more."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role_json(role) for role in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "max_members": 500000,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": TIMESTAMP,
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "voice_states": [],
        "members": [member_json(guild, member) for member in guild.members],
        "channels": [channel_json(guild, c) for c in guild.channels if c.type not in THREAD_TYPES],
        "threads": [
            channel_json(guild, c) for c in guild.channels if c.type in THREAD_TYPES and not c.archived
        ],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }
