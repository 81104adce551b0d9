"""Which channels a player may view, asked of Discord for the web view's Sessions pages
(docs/rulings.md §7.6; the rule itself is ``bot.reach``).

The view may run in its own process (``python -m bot web``) with no gateway and so no guild
cache; it asks Discord through the bot's HTTP client, as it asks a Narrator's standing
(``bot.web.standing``): ``GET /guilds/{id}`` (the owner and every role's permissions),
``GET /guilds/{id}/members/{user}`` (the member's roles) and ``GET /guilds/{id}/channels`` (each
channel's permission overwrites), and works out View Channel as Discord does
(:func:`viewable_channels`). An answer is trusted for :data:`REACH_SECONDS`. When Discord cannot
be asked (an error, or a view run without ``DISCORD_TOKEN``) no channel is known, and a player's
pages show nothing of the past but a line saying why: never more than they may read. A Narrator
reads everything and asks nothing here.
"""

import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import discord

from bot.access import Caller
from bot.web.remembered import Remembered
from bot.web.standing import ADMINISTRATOR, MemberGone
from storage import Storage
from storage.places import Reach

log = logging.getLogger(__name__)

VIEW_CHANNEL = 1 << 10
ROLE, MEMBER = 0, 1
"""An overwrite's ``type``: for a role, or for a member."""
REACH_SECONDS = 60.0
"""How long the channels Discord said a member may view are trusted before it is asked again."""
RETRY_SECONDS = 15.0
"""After Discord could not answer, how long a player's pages read nothing before asking again."""
MAX_REMEMBERED = 10_000
Clock = Callable[[], float]
JSON = dict[str, Any]


def server_permissions(guild: JSON, member_roles: frozenset[int], user_id: int) -> int | None:
    """The member's permissions before any channel's overwrites (``@everyone``'s and their
    roles'); None for the owner or an Administrator, who view every channel."""
    guild_id = int(guild["id"])
    if int(guild["owner_id"]) == user_id:
        return None
    permissions = 0
    for role in guild.get("roles", ()):
        if int(role["id"]) == guild_id or int(role["id"]) in member_roles:
            permissions |= int(role["permissions"])
    return None if permissions & ADMINISTRATOR else permissions


def views_with(
    base: int | None, guild_id: int, member_roles: frozenset[int], user_id: int, channel: JSON
) -> bool:
    """Whether a member with ``base`` (:func:`server_permissions`) views ``channel``, in
    Discord's order of overwrites: ``@everyone``'s, then the member's roles' together, then the
    member's own."""
    if base is None:
        return True
    overwrites = channel.get("permission_overwrites") or ()
    everyone = [o for o in overwrites if int(o["type"]) == ROLE and int(o["id"]) == guild_id]
    roles = [o for o in overwrites if int(o["type"]) == ROLE and int(o["id"]) in member_roles]
    mine = [o for o in overwrites if int(o["type"]) == MEMBER and int(o["id"]) == user_id]
    permissions = base
    for group in (everyone, roles, mine):
        allow = deny = 0
        for overwrite in group:
            allow |= int(overwrite["allow"])
            deny |= int(overwrite["deny"])
        permissions = (permissions & ~deny) | allow
    return bool(permissions & VIEW_CHANNEL)


def views_channel(guild: JSON, member_roles: frozenset[int], user_id: int, channel: JSON) -> bool:
    """Whether the member may view ``channel``, as Discord works it out."""
    base = server_permissions(guild, member_roles, user_id)
    return views_with(base, int(guild["id"]), member_roles, user_id, channel)


def viewable_channels(guild: JSON, member: JSON, channels: Iterable[JSON], user_id: int) -> frozenset[int]:
    """The channels of ``GET /guilds/{id}/channels`` the member of ``GET …/members/{user}`` views."""
    roles = frozenset(int(role_id) for role_id in member.get("roles", ()))
    base, guild_id = server_permissions(guild, roles, user_id), int(guild["id"])
    return frozenset(int(c["id"]) for c in channels if views_with(base, guild_id, roles, user_id, c))


class Reaches(Protocol):
    """Where the channels a member may view are asked now; :class:`MemberGone` if not a member."""

    async def __call__(self, guild_id: int, user_id: int) -> frozenset[int]: ...


class DiscordReaches:
    """:class:`Reaches` through discord.py's HTTP client (the bot's own, or one logged in for
    ``python -m bot web``): its rate limits and retries apply."""

    def __init__(self, http: discord.http.HTTPClient) -> None:
        self.http = http

    async def __call__(self, guild_id: int, user_id: int) -> frozenset[int]:
        try:
            guild = await self.http.get_guild(guild_id, with_counts=False)
            member = await self.http.get_member(guild_id, user_id)
            channels = await self.http.get_all_guild_channels(guild_id)
        except discord.NotFound as error:
            raise MemberGone(str(error)) from error
        return viewable_channels(dict(guild), dict(member), [dict(c) for c in channels], user_id)


class ReachCache:
    """Each member's viewable channels, asked of ``source`` at most once per :data:`REACH_SECONDS`."""

    def __init__(self, source: Reaches | None, clock: Clock) -> None:
        self.source = source
        self.clock = clock
        self._known: Remembered[tuple[int, int], frozenset[int] | None] = Remembered(MAX_REMEMBERED)

    async def channels(self, guild_id: int, user_id: int) -> frozenset[int] | None:
        """The channels the member may view now; None when Discord cannot say (no source, an
        error); none at all for someone Discord says is no member."""
        if self.source is None:
            return None
        now = self.clock()
        return await self._known.get((guild_id, user_id), now, lambda: self._ask(guild_id, user_id, now))

    async def _ask(self, guild_id: int, user_id: int, now: float) -> tuple[float, frozenset[int] | None]:
        assert self.source is not None
        try:
            return now + REACH_SECONDS, await self.source(guild_id, user_id)
        except MemberGone:
            return now + REACH_SECONDS, frozenset()
        except (discord.HTTPException, OSError, TimeoutError) as error:
            log.warning(
                "Could not ask Discord for member %s's channels in server %s: %s", user_id, guild_id, error
            )
            return now + RETRY_SECONDS, None


async def web_reach(storage: Storage, cache: ReachCache, caller: Caller) -> tuple[Reach | None, bool]:
    """Where the caller reads on the web view (``bot.reach``: None, everywhere, for a Narrator),
    and whether that is unknown: Discord could not say which channels they view, so they read
    none (only the private threads they took part in are known, and a thread is read only with
    its channel)."""
    if caller.narrator:
        return None, False
    channels = await cache.channels(caller.guild_id, caller.user_id)
    threads = await storage.journal.threads_of(caller.guild_id, caller.user_id)
    return Reach(channels=channels or frozenset(), threads=threads), channels is None
