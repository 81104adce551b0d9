"""The fake Discord's gateway: sessions, RESUME with replay, and ways to drop the connection.

Real Discord numbers every DISPATCH of a session, remembers them, and after a dropped
connection lets the client RESUME at READY's ``resume_gateway_url``: the events sent while it
was away are replayed, then RESUMED. When the session cannot be resumed (timed out, or
invalidated), Discord answers INVALID SESSION (op 9, ``d: false``) and the client must IDENTIFY
again, losing what was sent meanwhile. discord.py handles all of this in ``DiscordWebSocket`` and
``Client.connect``; the fault tests use :meth:`Gateway.drop`, :meth:`Gateway.request_reconnect`
and :meth:`Gateway.invalidate_session` to make it do so for real.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from aiohttp import WSMsgType, web

JSON = dict[str, Any]
REPLAY_LIMIT = 10_000
"""Events a session keeps for RESUME; older ones cannot be replayed, as on Discord."""
RESUME_PATH = "/gateway-resume"
"""Where READY tells clients to resume, distinct from ``/gateway`` so a test can see which was used."""
ACK_DELAY = 0.05
"""Seconds before a HEARTBEAT_ACK, as a network round trip takes. discord.py's heartbeat thread
notes when it sent a beat only after the event loop has sent it; an ACK answered at once on the
same loop can be read before that, and then the whole interval counts as lag ("Can't keep up,
websocket is 30.0s behind" in the log after every beat)."""
log = logging.getLogger(__name__)

OnOp = Callable[[web.WebSocketResponse, int, JSON], Awaitable[None]]
"""The server's handler for IDENTIFY (op 2) and member requests (op 8)."""

GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12
MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"})
GUILD_MESSAGE_POLLS, DIRECT_MESSAGE_POLLS = 1 << 24, 1 << 25
POLL_EVENTS = frozenset({"MESSAGE_POLL_VOTE_ADD", "MESSAGE_POLL_VOTE_REMOVE"})


def wanted(event: str, data: JSON, intents: int) -> bool:
    """Whether a session that identified with ``intents`` gets ``event``: Discord sends message
    events only to a client that asked for them (GUILD_MESSAGES in servers, DIRECT_MESSAGES in DMs);
    votes in polls only to one that asked for those (GUILD_MESSAGE_POLLS, DIRECT_MESSAGE_POLLS);
    the other events the fake sends need the GUILDS intent or none."""
    if event in POLL_EVENTS:
        return bool(intents & (GUILD_MESSAGE_POLLS if data.get("guild_id") else DIRECT_MESSAGE_POLLS))
    if event not in MESSAGE_EVENTS:
        return True
    return bool(intents & (GUILD_MESSAGES if data.get("guild_id") else DIRECT_MESSAGES))


def shard_of(data: JSON, count: int) -> int:
    """Discord's routing: a server's events go to shard ``(guild_id >> 22) % count``; events
    without a server (DMs) go to shard 0."""
    guild_id = data.get("guild_id")
    return (int(guild_id) >> 22) % count if guild_id else 0


@dataclass
class ShardSession:
    """One shard's session: its id, its numbered events kept for a RESUME, its live sockets."""

    shard: int
    session_id: str | None = None
    sequence: int = 0
    replay: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_LIMIT))
    live: list[web.WebSocketResponse] = field(default_factory=list)
    turn: int = 0
    """Which live socket gets the next event when two share the shard (``Gateway.split_overlap``)."""
    intents: int = -1
    """What its IDENTIFY asked for (every event until one did)."""


class Gateway:
    """Connected sockets, and a session per shard with its numbered events.

    A client that IDENTIFYs with ``shard: [id, count]`` holds that shard; one without holds
    shard 0 of 1. When two sockets hold one shard (a redeploy's overlap), each event goes to
    both, or with :attr:`split_overlap` to one of them in turn, as Discord moves traffic from
    the old session to the new one.
    """

    def __init__(self, heartbeat_ms: Callable[[], int], on_op: OnOp) -> None:
        self.heartbeat_ms = heartbeat_ms
        self._on_op = on_op
        self.identified = asyncio.Event()
        self.log: list[str] = []
        """What happened on the gateway, in order: "identify", "resume", "resume refused", "drop 4000"…"""
        self.shard_count = 1
        self.split_overlap = False
        self._shards: dict[int, ShardSession] = {}
        self._sessions = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._lock = asyncio.Lock()
        self._closed_until = 0.0
        self._acks: set[asyncio.Task[None]] = set()

    def shard(self, number: int) -> ShardSession:
        return self._shards.setdefault(number, ShardSession(number))

    @property
    def session_id(self) -> str | None:
        """Shard 0's session (the only one of an unsharded bot)."""
        return self.shard(0).session_id

    @property
    def connected(self) -> bool:
        """A client has identified or resumed on a socket that is still open."""
        return any(s.live for s in self._shards.values())

    @property
    def resumable(self) -> bool:
        """Events sent now reach a client: a live one, or one that can still RESUME."""
        return any(s.live or s.session_id is not None for s in self._shards.values())

    def reaches(self, data: JSON) -> bool:
        """Whether an event for ``data``'s server reaches a client of its shard (now or by RESUME)."""
        session = self.shard(shard_of(data, self.shard_count))
        return bool(session.live) or session.session_id is not None

    def holders(self, number: int) -> int:
        """Live sockets holding shard ``number``."""
        return len(self.shard(number).live)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a DISPATCH to the live clients of its shard and keep it for a RESUME."""
        async with self._lock:
            session = self.shard(shard_of(data, self.shard_count))
            if not wanted(event, data, session.intents):
                return
            sockets = list(session.live)
            if self.split_overlap and len(sockets) > 1:
                session.turn += 1
                sockets = [sockets[session.turn % len(sockets)]]
            await self._dispatch_locked(session, event, data, sockets)

    async def _dispatch_locked(
        self, session: ShardSession, event: str, data: JSON, sockets: list[web.WebSocketResponse]
    ) -> None:
        session.sequence += 1
        frame = orjson.dumps(
            {"op": 0, "t": event, "s": session.sequence, "d": data}, option=orjson.OPT_NON_STR_KEYS
        ).decode()
        if session.session_id is not None:
            session.replay.append((session.sequence, frame))
        for ws in sockets:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(frame)

    async def start_session(
        self,
        ws: web.WebSocketResponse,
        ready: JSON,
        events: list[tuple[str, JSON]],
        shard: tuple[int, int] = (0, 1),
        intents: int = -1,
    ) -> None:
        """Answer IDENTIFY: a new session of ``shard`` (id, count), READY and `events` to this
        client, then the shard's live events that its ``intents`` ask for.

        Under the send lock, so no other event reaches the client before its READY.
        """
        async with self._lock:
            number, self.shard_count = shard
            session = self.shard(number)
            self._sessions += 1
            session.session_id = f"offline-session-{self._sessions}"
            session.intents = intents
            session.replay.clear()
            self.log.append("identify" if shard == (0, 1) else f"identify {number}/{self.shard_count}")
            await self._dispatch_locked(session, "READY", ready | {"session_id": session.session_id}, [ws])
            for event, data in events:
                await self._dispatch_locked(session, event, data, [ws])
            self._unlive(ws)
            session.live.append(ws)
        self.identified.set()

    async def close(self) -> None:
        for task in list(self._acks):
            task.cancel()
        for ws in list(self._sockets):
            await ws.close()

    def _unlive(self, ws: web.WebSocketResponse) -> None:
        for session in self._shards.values():
            if ws in session.live:
                session.live.remove(ws)

    # -- Faults --------------------------------------------------------------------------------

    async def drop(self, code: int = 4000, *, resumable: bool = True, outage: float = 0.0) -> None:
        """Close every connection with `code`, as Discord does when it restarts a gateway node.

        With `resumable=False` the sessions are forgotten first, so the client's RESUME is
        answered with INVALID SESSION and it must IDENTIFY again (what Discord does after
        4009 "session timed out"). For `outage` seconds new connections get no HELLO, so
        events sent meanwhile are only delivered by a RESUME's replay.
        """
        if not resumable:
            self._forget_sessions()
        self._closed_until = asyncio.get_running_loop().time() + outage
        self.log.append(f"drop {code}")
        for ws in list(self._sockets):
            self._unlive(ws)
            await ws.close(code=code, message=b"fake Discord dropped the connection")

    async def request_reconnect(self) -> None:
        """Op 7 RECONNECT: the client closes the socket itself and resumes."""
        self.log.append("reconnect")
        await self._send_op({"op": 7, "d": None})

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Op 9 INVALID SESSION; with `resumable=False` the client must IDENTIFY again."""
        if not resumable:
            self._forget_sessions()
        self.log.append(f"invalidate {'resumable' if resumable else 'session'}")
        await self._send_op({"op": 9, "d": resumable})

    async def _send_op(self, frame: JSON) -> None:
        async with self._lock:
            for session in self._shards.values():
                for ws in list(session.live):
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await ws.send_str(json.dumps(frame))

    def _forget_sessions(self) -> None:
        for session in self._shards.values():
            session.session_id = None
            session.replay.clear()

    # -- The socket ----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One client connection: HELLO, then heartbeats, IDENTIFY, RESUME and member requests."""
        ws = web.WebSocketResponse(max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        self._sockets.add(ws)
        self.log.append(f"connect {request.path}")
        try:
            await self._serve(ws)
        except ConnectionError:  # the client went away (killed, or gave up during an outage)
            log.debug("gateway client on %s went away", request.path)
        finally:
            self._sockets.discard(ws)
            self._unlive(ws)
        return ws

    async def _serve(self, ws: web.WebSocketResponse) -> None:
        wait = self._closed_until - asyncio.get_running_loop().time()
        if wait > 0:
            await asyncio.sleep(wait)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms()}}))
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                break
            message = json.loads(frame.data)
            op, data = message.get("op"), message.get("d") or {}
            if op == 1:
                self._ack_later(ws)
            elif op == 6:
                await self._resume(ws, data)
            else:
                await self._on_op(ws, int(op or 0), data)

    def _ack_later(self, ws: web.WebSocketResponse) -> None:
        async def ack() -> None:
            await asyncio.sleep(ACK_DELAY)
            if not ws.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.send_str(json.dumps({"op": 11}))

        task = asyncio.create_task(ack(), name="fake-gateway-heartbeat-ack")
        self._acks.add(task)
        task.add_done_callback(self._acks.discard)

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> None:
        """Replay what the session missed after `seq`, then RESUMED; or refuse with op 9."""
        seq = data.get("seq")
        async with self._lock:
            wanted = data.get("session_id")
            session = next((s for s in self._shards.values() if wanted and s.session_id == wanted), None)
            oldest = 0
            if session is not None:
                oldest = session.replay[0][0] if session.replay else session.sequence + 1
            if session is None or not isinstance(seq, int) or seq < oldest - 1:
                self.log.append("resume refused")
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            missed = [frame for number, frame in session.replay if number > seq]
            for frame in missed:
                await ws.send_str(frame)
            self.log.append(f"resume {len(missed)}")
            await self._dispatch_locked(session, "RESUMED", {}, [ws])
            session.live.append(ws)
