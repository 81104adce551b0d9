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
from typing import Any

from aiohttp import WSMsgType, web

JSON = dict[str, Any]
REPLAY_LIMIT = 10_000
"""Events a session keeps for RESUME; older ones cannot be replayed, as on Discord."""
RESUME_PATH = "/gateway-resume"
"""Where READY tells clients to resume, distinct from ``/gateway`` so a test can see which was used."""
log = logging.getLogger(__name__)

OnOp = Callable[[web.WebSocketResponse, int, JSON], Awaitable[None]]
"""The server's handler for IDENTIFY (op 2) and member requests (op 8)."""


class Gateway:
    """Connected sockets, the current session and its numbered events."""

    def __init__(self, heartbeat_ms: Callable[[], int], on_op: OnOp) -> None:
        self.heartbeat_ms = heartbeat_ms
        self._on_op = on_op
        self.identified = asyncio.Event()
        self.log: list[str] = []
        """What happened on the gateway, in order: "identify", "resume", "resume refused", "drop 4000"…"""
        self.session_id: str | None = None
        self._sessions = 0
        self._sequence = 0
        self._replay: deque[tuple[int, str]] = deque(maxlen=REPLAY_LIMIT)
        self._sockets: set[web.WebSocketResponse] = set()
        self._live: set[web.WebSocketResponse] = set()
        self._lock = asyncio.Lock()
        self._closed_until = 0.0

    @property
    def connected(self) -> bool:
        """A client has identified or resumed on a socket that is still open."""
        return bool(self._live)

    @property
    def resumable(self) -> bool:
        """Events sent now reach a client: a live one, or one that can still RESUME."""
        return bool(self._live) or self.session_id is not None

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a DISPATCH to every live client and keep it for a RESUME."""
        async with self._lock:
            await self._dispatch_locked(event, data, list(self._live))

    async def _dispatch_locked(self, event: str, data: JSON, sockets: list[web.WebSocketResponse]) -> None:
        self._sequence += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._sequence, "d": data})
        if self.session_id is not None:
            self._replay.append((self._sequence, frame))
        for ws in sockets:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(frame)

    async def start_session(
        self, ws: web.WebSocketResponse, ready: JSON, events: list[tuple[str, JSON]]
    ) -> None:
        """Answer IDENTIFY: a new session, READY and `events` to this client, then live events.

        Under the send lock, so no other event reaches the client before its READY.
        """
        async with self._lock:
            self._sessions += 1
            self.session_id = f"offline-session-{self._sessions}"
            self._replay.clear()
            self.log.append("identify")
            await self._dispatch_locked("READY", ready | {"session_id": self.session_id}, [ws])
            for event, data in events:
                await self._dispatch_locked(event, data, [ws])
            self._live.add(ws)
        self.identified.set()

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close()

    # -- Faults --------------------------------------------------------------------------------

    async def drop(self, code: int = 4000, *, resumable: bool = True, outage: float = 0.0) -> None:
        """Close every connection with `code`, as Discord does when it restarts a gateway node.

        With `resumable=False` the session is forgotten first, so the client's RESUME is
        answered with INVALID SESSION and it must IDENTIFY again (what Discord does after
        4009 "session timed out"). For `outage` seconds new connections get no HELLO, so
        events sent meanwhile are only delivered by a RESUME's replay.
        """
        if not resumable:
            self._forget_session()
        self._closed_until = asyncio.get_running_loop().time() + outage
        self.log.append(f"drop {code}")
        for ws in list(self._sockets):
            self._live.discard(ws)
            await ws.close(code=code, message=b"fake Discord dropped the connection")

    async def request_reconnect(self) -> None:
        """Op 7 RECONNECT: the client closes the socket itself and resumes."""
        self.log.append("reconnect")
        await self._send_op({"op": 7, "d": None})

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Op 9 INVALID SESSION; with `resumable=False` the client must IDENTIFY again."""
        if not resumable:
            self._forget_session()
        self.log.append(f"invalidate {'resumable' if resumable else 'session'}")
        await self._send_op({"op": 9, "d": resumable})

    async def _send_op(self, frame: JSON) -> None:
        async with self._lock:
            for ws in list(self._live):
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await ws.send_str(json.dumps(frame))

    def _forget_session(self) -> None:
        self.session_id = None
        self._replay.clear()

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
            self._live.discard(ws)
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
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 6:
                await self._resume(ws, data)
            else:
                await self._on_op(ws, int(op or 0), data)

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> None:
        """Replay what the session missed after `seq`, then RESUMED; or refuse with op 9."""
        seq = data.get("seq")
        async with self._lock:
            oldest = self._replay[0][0] if self._replay else self._sequence + 1
            if (
                data.get("session_id") != self.session_id
                or self.session_id is None
                or not isinstance(seq, int)
                or seq < oldest - 1
            ):
                self.log.append("resume refused")
                await ws.send_str(json.dumps({"op": 9, "d": False}))
                return
            missed = [frame for number, frame in self._replay if number > seq]
            for frame in missed:
                await ws.send_str(frame)
            self.log.append(f"resume {len(missed)}")
            await self._dispatch_locked("RESUMED", {}, [ws])
            self._live.add(ws)
