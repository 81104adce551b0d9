"""A Narrator's standing asked of Discord again while their web session lasts.

The bot receives no member events (no privileged intent), so nothing tells a web view that a
member lost Manage Server, lost a role, or was kicked. A Narrator's session therefore asks
Discord itself, through the bot's HTTP client, at least every :data:`RECHECK_SECONDS`:
``GET /guilds/{id}`` (the owner and every role's permissions) and
``GET /guilds/{id}/members/{user}`` (the member's roles). Manage Server is computed as Discord
does at server level: the owner has every permission; otherwise the union of ``@everyone``'s
and the member's roles, Administrator implying all. A member Discord no longer knows ends the
session (403). When Discord cannot be asked (an error, or a view run on its own without
``DISCORD_TOKEN``), the answer is "not a Narrator": the page falls back to a player's view,
never the other way round (docs/rulings.md §7.1).
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.web.remembered import Remembered

log = logging.getLogger(__name__)

RECHECK_SECONDS = 180.0
"""How long a Narrator's standing read from Discord is trusted before it is asked again."""
RETRY_SECONDS = 15.0
"""After Discord could not answer, how long the page stays a player's before asking again."""
MAX_REMEMBERED = 10_000
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
Clock = Callable[[], float]


@dataclass(frozen=True)
class Standing:
    """What the Narrator rule (``bot.access.narrator_by_rule``) reads of a member."""

    manages_server: bool
    role_ids: frozenset[int]


NOBODY = Standing(manages_server=False, role_ids=frozenset())


class MemberGone(Exception):
    """Discord does not know the member (kicked, left) or the server (the bot was removed)."""


class Standings(Protocol):
    """Where a member's standing is asked now; :class:`MemberGone` if they are not a member."""

    async def __call__(self, guild_id: int, user_id: int) -> Standing: ...


def standing_of(guild: dict[str, Any], member: dict[str, Any], user_id: int) -> Standing:
    """Server-level Manage Server from ``GET /guilds/{id}`` and ``GET …/members/{user}`` answers."""
    roles = frozenset(int(role_id) for role_id in member.get("roles", ()))
    if int(guild["owner_id"]) == user_id:
        return Standing(manages_server=True, role_ids=roles)
    guild_id = int(guild["id"])
    permissions = 0
    for role in guild.get("roles", ()):
        if int(role["id"]) == guild_id or int(role["id"]) in roles:
            permissions |= int(role["permissions"])
    return Standing(manages_server=bool(permissions & (ADMINISTRATOR | MANAGE_GUILD)), role_ids=roles)


class DiscordStandings:
    """:class:`Standings` through discord.py's HTTP client (the bot's own, or one logged in for
    ``python -m bot web``): its rate limits and retries apply."""

    def __init__(self, http: discord.http.HTTPClient) -> None:
        self.http = http

    async def __call__(self, guild_id: int, user_id: int) -> Standing:
        try:
            guild = await self.http.get_guild(guild_id, with_counts=False)
            member = await self.http.get_member(guild_id, user_id)
        except discord.NotFound as error:
            raise MemberGone(str(error)) from error
        return standing_of(dict(guild), dict(member), user_id)


class StandingCache:
    """Each member's standing, asked of ``source`` at most once per :data:`RECHECK_SECONDS`."""

    def __init__(self, source: Standings | None, clock: Clock) -> None:
        self.source = source
        self.clock = clock
        self._known: Remembered[tuple[int, int, int], Standing | None] = Remembered(MAX_REMEMBERED)

    async def current(
        self, guild_id: int, user_id: int, generation: int, granted: Standing, issued: float
    ) -> Standing:
        """The member's standing now; :class:`MemberGone` when Discord says they are gone.

        Answers are kept per session generation, so a new ``/web`` asks afresh. ``granted`` is
        what ``/web`` read at ``issued``: without a source, it holds only for
        :data:`RECHECK_SECONDS` after the link was made."""
        now = self.clock()
        if self.source is None:
            return granted if now - issued < RECHECK_SECONDS else NOBODY
        known = await self._known.get(
            (guild_id, user_id, generation), now, lambda: self._ask(guild_id, user_id, now)
        )
        if known is None:
            raise MemberGone(f"member {user_id} of server {guild_id}")
        return known

    async def _ask(self, guild_id: int, user_id: int, now: float) -> tuple[float, Standing | None]:
        assert self.source is not None
        try:
            return now + RECHECK_SECONDS, await self.source(guild_id, user_id)
        except MemberGone:
            return now + RECHECK_SECONDS, None
        except (discord.HTTPException, OSError, TimeoutError) as error:
            log.warning("Could not ask Discord for member %s of server %s: %s", user_id, guild_id, error)
            return now + RETRY_SECONDS, NOBODY
