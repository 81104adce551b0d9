"""The web view's routes: the link swapped for a cookie, the page, its JSON, and its events.

Every page, data and event route is under ``/g/{server}/`` and checks the session cookie for
that very server (``tokens``): a cookie of another server, a forged or expired one, or none at
all gets 403, so nothing of one server is ever served for another. The session cookie is
HttpOnly and SameSite=Strict (the page only reads, and a strict cookie is never sent by another
site, not even on a link), and Secure when the view is served over https. A Strict cookie is
not sent on the redirect that ends a navigation started from Discord either, so ``/login``
answers with a small page that moves on by itself (``<meta http-equiv="refresh">``, no script)
to the view, from the view's own origin.

Live updates are server-sent events: each stream polls the server's change mark
(``storage.web``, one indexed query) every quarter second and says ``changed`` when it moves;
the page then fetches ``data`` again. The database, not this process's memory, is what is
watched, so the view sees moves made by any bot process, and EventSource reconnects by itself
after a restart. Open streams are bounded per member and in all; a session's ``data`` fetches
are bounded too, and so are the "Sessions" pages, per session and per server (``limits``);
a page's sheets are kept from one build to the next (``sheets``), its heavy work runs on the
view's own workers (``work``), and the Narrators watching one server share one build per
change (``pages``).

A session holds while its member's session generation is the one it was made in (a new
``/web`` or ``/web logout`` ends it, ``storage.web``) and, for a Narrator, while Discord still
says they are one (``standing``, asked again every few minutes): ``state`` checks it, and holds
what the routes share. Each stream checks its
session again every :data:`RECHECK_STREAM_SECONDS` and says ``expired`` when it has ended.
"""

import asyncio
import contextlib
import functools
import gzip
import json
import math
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.access import Caller
from bot.config import Settings
from bot.reach import reads_channel
from bot.web.journal_pages import journal_page, sessions_page
from bot.web.limits import TooMany
from bot.web.portraits import add_portraits
from bot.web.reach import Reaches, web_reach
from bot.web.snapshot import page_data
from bot.web.standing import Standings
from bot.web.state import (
    MAX_STREAMS,
    MAX_STREAMS_IN_ALL,
    VIEW,
    Clock,
    WebState,
    cookie_name,
    forbidden,
    state,
)
from bot.web.tokens import SESSION_LIFE, BadToken, Grant, Kind, sign, verify
from bot.web.work import Busy
from rules.journal import NARRATOR, Viewer
from storage import Storage

STATIC = Path(__file__).with_name("static")
POLL_SECONDS = 0.25
HEARTBEAT_SECONDS = 15.0
RECHECK_STREAM_SECONDS = 2.0
"""How often an open stream checks that its session still holds."""
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
LOGIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="0;url={path}">
<title>Mistborn — opening the view</title></head>
<body><p><a href="{path}">Open the view</a></p></body></html>
"""
BUSY = "The view is busy; try again shortly."
STREAM_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-store"}


async def login(request: web.Request) -> web.Response:
    """Swap a ``/web`` link (once, within 15 minutes, unless a newer ``/web`` or ``/web logout``
    came since) for a session cookie of its server."""
    view = state(request)
    try:
        grant = verify(request.query.get("t", ""), await view.key(), Kind.LINK, view.clock())
    except BadToken as error:
        raise forbidden() from error
    if grant.generation != await view.storage.web.generation(grant.guild_id, grant.user_id):
        raise forbidden()
    if not await view.storage.web.use_link(grant.nonce, datetime.fromtimestamp(grant.expires, UTC)):
        raise forbidden()
    session = grant.session(view.clock())
    path = f"/g/{grant.guild_id}/"
    response = web.Response(text=LOGIN_PAGE.format(path=path), content_type="text/html")
    response.set_cookie(
        cookie_name(grant.guild_id),
        sign(session, await view.key()),
        max_age=int(SESSION_LIFE.total_seconds()),
        path=path,
        httponly=True,
        samesite="Strict",
        secure=view.secure(request),
    )
    return response


async def page(request: web.Request) -> web.FileResponse:
    await state(request).session(request)
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


def session_key(grant: Grant) -> str:
    """One session's name: its link's nonce (older cookies: the member and generation)."""
    return grant.nonce or f"{grant.guild_id}:{grant.user_id}:{grant.generation}"


async def data(request: web.Request) -> web.Response:
    """The page's JSON, gzipped as it is kept (``snapshot.build_page``) unless the client
    cannot read that; a session asking faster than :class:`Buckets` allows gets 429."""
    view = state(request)
    caller, grant = await view.session(request)
    wait = view.fetches.take(session_key(grant))
    if wait > 0:
        raise too_many(wait)
    mark = await view.storage.web.mark(caller.guild_id)

    async def build() -> bytes:
        return await page_data(view.storage, caller, mark, grant.channel_id, view.sheets, view.work)

    with refused_as_http():
        body = await (view.pages.get((caller.guild_id, mark), build) if caller.narrator else build())
        headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
        else:
            body = await view.work.run(gzip.decompress, body)
    return web.Response(body=body, content_type="application/json", headers=headers)


async def session_state(request: web.Request) -> web.Response:
    """Whether the session holds (else 403) and whether a stream would be taken now: what a
    page asks when its stream was refused, to tell an ended session from a busy one."""
    view = state(request)
    caller, _ = await view.session(request)
    full = view.streams_full((caller.guild_id, caller.user_id))
    return web.json_response({"narrator": caller.narrator, "streams": "busy" if full else "free"})


async def events(request: web.Request) -> web.StreamResponse:
    """``changed`` whenever the server's change mark moves (or the member's role does);
    ``expired`` when the session ends."""
    view = state(request)
    caller, grant = await view.session(request)
    who = (caller.guild_id, caller.user_id)
    if view.streams[who] >= MAX_STREAMS:
        raise web.HTTPTooManyRequests(text="Too many open pages; close one.")
    if view.streams.total() >= view.max_streams_in_all:
        raise web.HTTPServiceUnavailable(text="Too many open pages on this view; try again shortly.")
    view.streams[who] += 1
    try:
        response = web.StreamResponse(headers=STREAM_HEADERS)
        await response.prepare(request)
        await response.write(b"retry: 1000\n\n")
        await _stream(view, request, response, caller, grant.expires)
        return response
    finally:
        view.streams[who] -= 1
        if view.streams[who] <= 0:
            del view.streams[who]


async def _still(view: WebState, request: web.Request) -> Caller | None:
    """The stream's member as their session stands now; None once it has ended."""
    try:
        caller, _ = await view.session(request)
    except web.HTTPForbidden:
        return None
    return caller


async def _stream(
    view: WebState, request: web.Request, response: web.StreamResponse, caller: Caller, expires: float
) -> None:
    """Until the page goes away (its connection closes), the session ends, or the view stops."""
    last: str | None = None
    quiet_since = checked = view.clock()
    while not view.closing.is_set() and request.transport is not None and not request.transport.is_closing():
        now = view.clock()
        if now - checked >= RECHECK_STREAM_SECONDS:
            checked = now
            current = await _still(view, request)
            if current is None:
                expires = now
            elif current.narrator != caller.narrator:
                caller, last = current, None  # the page reads its data again, as the new role
        if view.clock() >= expires:
            await response.write(b"event: expired\ndata: {}\n\n")
            return
        mark = await view.storage.web.mark(caller.guild_id)
        if mark != last:
            await response.write(f"event: changed\ndata: {json.dumps(mark)}\n\n".encode())
            last, quiet_since = mark, view.clock()
        elif view.clock() - quiet_since >= HEARTBEAT_SECONDS:
            await response.write(b": still here\n\n")
            quiet_since = view.clock()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(view.closing.wait(), POLL_SECONDS)


def too_many(wait: float) -> web.HTTPTooManyRequests:
    return web.HTTPTooManyRequests(
        text="Too many requests; try again shortly.", headers={"Retry-After": str(max(1, math.ceil(wait)))}
    )


@contextlib.contextmanager
def refused_as_http() -> Iterator[None]:
    """A load past its bounds (``limits``) is 429, the view's workers all taken (``work``) 503."""
    try:
        yield
    except TooMany as refused:
        raise too_many(refused.wait) from refused
    except Busy as busy:
        raise web.HTTPServiceUnavailable(text=BUSY, headers={"Retry-After": "1"}) from busy


async def sessions(request: web.Request) -> web.Response:
    """The "Sessions" page: the server's latest sessions the member may read (``journal_pages``,
    docs/rulings.md §7.6), within the bounds of a session and of the server (``limits.PageGate``)."""
    view = state(request)
    caller, grant = await view.session(request)
    with refused_as_http(), view.journals.admitted(session_key(grant), caller.guild_id):
        reach, unknown = await web_reach(view.storage, view.reaches, caller)
        found = await view.storage.journal.sessions(caller.guild_id, limit=100, reach=reach)
        body = await view.work.run(
            _encoded, functools.partial(sessions_page, unknown=unknown), caller.guild_id, found
        )
    return web.Response(body=body, content_type="text/html", charset="utf-8")


async def session_journal(request: web.Request) -> web.Response:
    """One session's journal: the Narrator's full one, or what this player may read; a session
    played where they cannot read is no session for them (§7.6); bounded as the Sessions page is."""
    view = state(request)
    caller, grant = await view.session(request)
    viewer = NARRATOR if caller.narrator else Viewer(user_id=caller.user_id)
    with refused_as_http(), view.journals.admitted(session_key(grant), caller.guild_id):
        reach, _ = await web_reach(view.storage, view.reaches, caller)
        found = await view.storage.journal.get(caller.guild_id, int(request.match_info["session_id"]))
        if found is None or not reads_channel(reach, found.channel_id):
            raise web.HTTPNotFound(
                text="No such session in this server (or it is older than the roll log keeps)."
            )
        entries = await view.storage.journal.all_entries(found, reach=reach)
        # Encoded there too: a long night's page is megabytes (tests/bot/test_loop_stalls.py).
        body = await view.work.run(_encoded, journal_page, caller.guild_id, found, entries, viewer)
    return web.Response(
        body=body, content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-store"}
    )


def _encoded(page: Callable[..., str], *args: Any) -> bytes:
    return page(*args).encode("utf-8")


async def not_found(request: web.Request) -> web.Response:
    raise web.HTTPNotFound(text="Open the view with /web in Discord.")


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response, errors and files included: no framing, no inline script, no sniffing."""
    response.headers.update(HEADERS)
    response.headers.setdefault("Cache-Control", "no-cache")


async def _close_streams(app: web.Application) -> None:
    app[VIEW].closing.set()


async def _close_work(app: web.Application) -> None:
    app[VIEW].work.close()


def make_app(
    storage: Storage,
    settings: Settings,
    *,
    clock: Clock = time.time,
    standings: Standings | None = None,
    max_streams_in_all: int = MAX_STREAMS_IN_ALL,
    reaches: Reaches | None = None,
) -> web.Application:
    """The web view over ``storage``; ``clock`` (Unix time) is the tests' way to age tokens.
    ``standings`` asks Discord for a Narrator's standing and ``reaches`` for the channels a
    player views (None: no way to, ``standing``, ``reach``)."""
    app = web.Application()
    app[VIEW] = WebState(storage, settings, clock, standings, max_streams_in_all, reaches)
    app.on_response_prepare.append(security_headers)
    app.on_shutdown.append(_close_streams)
    app.on_cleanup.append(_close_work)
    app.router.add_get("/", not_found)
    app.router.add_get("/login", login)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/", page)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/data", data)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/events", events)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/session", session_state)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/sessions", sessions)
    app.router.add_get(r"/g/{guild_id:\d{1,20}}/sessions/{session_id:\d{1,20}}", session_journal)
    app.router.add_static("/static/", STATIC)
    add_portraits(app, storage)
    return app
