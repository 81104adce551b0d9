"""The guild the fake Discord pretends to host (its model), and the sample worlds built from it.

Kept apart from the server so the command-line parser and payload builders can resolve
`@player1` or `#table` without a running server, and so tests can build odd worlds.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from fake_discord.permissions import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    VIEW_CHANNEL,
)

DISCORD_EPOCH_MS = 1_420_070_400_000

THREAD_TYPES = frozenset({10, 11, 12})
PUBLIC_THREAD = 11
ANNOUNCEMENT = 5
"""An announcement channel: a text channel whose messages other servers may follow."""


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
        """Find a channel by id, `<#id>`, `#name` or name (case-insensitive); an int is an id,
        compared as one (the load bench looks up a channel per message in 100 servers)."""
        if isinstance(key, int):
            return next((channel for channel in self.channels if channel.id == key), None)
        wanted = _strip_mention(key, "<#", "#")
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

    def channel_permissions_of(self, member: FakeMember, channel: FakeChannel) -> int:
        """Permissions in ``channel`` as Discord computes them: the server's, then the channel's
        overwrites for @everyone, for the member's roles together, then for the member; a thread
        takes its parent's; nothing at all without View Channel. An administrator holds all."""
        value = self.permissions_of(member)
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        parent = self.channel(channel.parent_id) if channel.parent_id is not None else None
        overwrites = (parent or channel).overwrites if channel.type in THREAD_TYPES else channel.overwrites
        for overwrite in (o for o in overwrites if o.type == 0 and o.id == self.id):
            value = (value & ~overwrite.deny) | overwrite.allow
        roles = [o for o in overwrites if o.type == 0 and o.id != self.id and o.id in member.role_ids]
        allow = deny = 0
        for overwrite in roles:
            allow, deny = allow | overwrite.allow, deny | overwrite.deny
        value = (value & ~deny) | allow
        for overwrite in (o for o in overwrites if o.type == 1 and o.id == member.user.id):
            value = (value & ~overwrite.deny) | overwrite.allow
        return value if value & VIEW_CHANNEL else 0


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
    _places: dict[int, tuple[FakeGuild, FakeChannel]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @property
    def guild(self) -> FakeGuild:
        return self.guilds[0]

    def guild_by_id(self, guild_id: int) -> FakeGuild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def place_of(self, channel_id: int) -> tuple[FakeGuild, FakeChannel] | None:
        """The server that holds a channel, and the channel; None when none does.

        Remembered per channel and checked on each use (both still there), since servers and
        channels come and go: the load bench asks for every message it stores, across 100 servers.
        """
        known = self._places.get(channel_id)
        if known is not None:
            guild, channel = known
            if any(c is channel for c in guild.channels) and any(g is guild for g in self.guilds):
                return known
        for guild in self.guilds:
            if (found := guild.channel(channel_id)) is not None:
                self._places[channel_id] = (guild, found)
                return guild, found
        self._places.pop(channel_id, None)
        return None

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


DEFAULT_MEMBERS = ("narrator", "player1", "player2")
"""Who sits at every table (``default_world``)."""


def offline_world(*, user: str = "narrator", narrator: bool = True, seated: Iterable[str] = ()) -> World:
    """The offline console's table, with the same server and member ids on every run.

    Characters are stored per server and owned by user ids, so stable ids are what let a sheet
    made in one console session be found in the next; messages get ids of their own time. A
    member beyond the default three gets an id derived from their name, so ``--user alice`` and
    a later ``!as alice`` are always the same Alice; ``seated``: the members an earlier run
    seated, at the table again so a mention of them shows their name.
    """
    world = default_world(user=user, narrator=narrator, ids=StableSnowflakes())
    member = world.guild.member(user)
    if member is not None and user not in DEFAULT_MEMBERS:
        member.user.id = offline_member_id(user)
    world.member_id = offline_member_id
    for name in seated:
        if world.guild.member(name) is None:
            world.add_member(name)
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
