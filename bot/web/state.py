"""What the web view's routes share (``WebState``) and who a request speaks for.

A request's session is its server's cookie (``cookie_name``), signed by ``tokens``; it holds while
its member's session generation is the one it was made in (a new ``/web`` or ``/web logout``
ends it, ``storage.web``) and, for a Narrator, while Discord still says they are one
(``standing``). Anything else is 403 (``forbidden``), so nothing of one server is served for
another. The routes themselves are ``bot.web.app``.
"""

import asyncio
from collections import Counter
from collections.abc import Callable

from aiohttp import web

from bot.access import Caller, narrator_by_rule
from bot.config import Settings
from bot.web.limits import Buckets, PageGate
from bot.web.pages import NarratorPages
from bot.web.reach import ReachCache, Reaches
from bot.web.sheets import SheetPages
from bot.web.standing import MemberGone, Standing, StandingCache, Standings
from bot.web.tokens import BadToken, Grant, Kind, signing_key, verify
from bot.web.work import WebWork
from storage import Storage

MAX_STREAMS = 4
"""Open event streams per member and server (a few tabs); more get 429."""
MAX_STREAMS_IN_ALL = 2000
"""Open event streams of this process, every member together; more get 503."""
FORBIDDEN = (
    "This link or session is not valid here: it is forged, expired, used, or for another server."
    " Ask for a new one with /web in Discord."
)
Clock = Callable[[], float]


class WebState:
    """What the routes share: the storage, the signing key, the clock, and the open streams."""

    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        clock: Clock,
        standings: Standings | None = None,
        max_streams_in_all: int = MAX_STREAMS_IN_ALL,
        reaches: Reaches | None = None,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.clock = clock
        self.standings = StandingCache(standings, clock)
        self.reaches = ReachCache(reaches, clock)
        self.fetches = Buckets(clock)
        self.journals = PageGate(clock)
        self.pages = NarratorPages()
        self.sheets = SheetPages()
        self.work = WebWork()
        self.streams: Counter[tuple[int, int]] = Counter()
        self.max_streams_in_all = max_streams_in_all
        self.closing = asyncio.Event()
        self._key: bytes | None = None

    def streams_full(self, who: tuple[int, int]) -> bool:
        return self.streams[who] >= MAX_STREAMS or self.streams.total() >= self.max_streams_in_all

    async def key(self) -> bytes:
        if self._key is None:
            self._key = await signing_key(self.settings, self.storage)
        return self._key

    def secure(self, request: web.Request) -> bool:
        public = self.settings.web_public_url or ""
        return request.secure or public.startswith("https://")

    async def session(self, request: web.Request) -> tuple[Caller, Grant]:
        """The member this request speaks for, with their session's grant; 403 unless its
        cookie is a session of the server in the path that still holds: of the member's
        current generation and, for a Narrator, judged again on Discord's answer (``standing``)
        and the server's settings now (``bot.access.narrator_by_rule``)."""
        guild_id = int(request.match_info["guild_id"])
        token = request.cookies.get(cookie_name(guild_id), "")
        try:
            grant = verify(token, await self.key(), Kind.SESSION, self.clock())
        except BadToken as error:
            raise forbidden() from error
        if grant.guild_id != guild_id:
            raise forbidden()
        if grant.generation != await self.storage.web.generation(guild_id, grant.user_id):
            raise forbidden()
        narrator = grant.narrator
        if narrator:
            granted = Standing(grant.manages_server, frozenset(grant.narrator_roles))
            try:
                standing = await self.standings.current(
                    guild_id, grant.user_id, grant.generation, granted, grant.issued
                )
            except MemberGone as error:
                raise forbidden() from error
            settings = await self.storage.settings.get(guild_id)
            narrator = narrator_by_rule(standing.manages_server, standing.role_ids, settings)
        return Caller(guild_id=guild_id, user_id=grant.user_id, narrator=narrator), grant


VIEW = web.AppKey("view", WebState)


def forbidden() -> web.HTTPForbidden:
    return web.HTTPForbidden(text=FORBIDDEN)


def cookie_name(guild_id: int) -> str:
    return f"mistborn_{guild_id}"


def state(request: web.Request) -> WebState:
    return request.app[VIEW]
