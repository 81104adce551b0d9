"""Reading uploaded pictures in child processes, so that no picture holds the table.

Every server shares the bot's one process. Decoded in it, a picture built to be costly held
everyone: a progressive JPEG of 276 KB whose last scan repeats 1,000 times took 27 s of CPU in
libjpeg, and nothing could stop it; a GIF of 4 million one-byte comment blocks or a PNG of
600,000 empty chunks kept Pillow's Python code, and so the interpreter's lock, busy for
seconds, so the event loop answered every other server late; a 1 KB WebP took 700 MB.

So :class:`PortraitReader` hands each picture to a child (``python -m
bot.render.portrait_worker``) that can be bounded and stopped:

* once Pillow is imported the child lowers its own limits: :data:`CPU_SECONDS` of CPU (the
  kernel ends it past them) and :data:`MEMORY_BYTES` of address space (enough for the largest
  picture accepted, a 24-megapixel WebP; an allocation past it fails and the child says so);
  a child still reading after :data:`SLOW_AFTER` is put below the bot's priority
  (:data:`NICENESS`), and killed after :data:`WALL_SECONDS`, which only a machine starved of
  CPU reaches;
* it gets no environment but where programs and modules are: the bot's token and database
  address never reach the process that parses hostile bytes;
* at most :data:`AT_ONCE` read at once, for every server of the process together, so memory
  stays under ``AT_ONCE × MEMORY_BYTES``: three, not two, so that two costly pictures sent
  together still leave a child for everyone else's; at most :data:`WAITING` more wait, and past
  them a picture is refused at once ("send it again in a moment"), never queued without end;
* each member has one picture read at a time, and at most ``per_minute``
  (``MISTBORN_PORTRAITS_PER_MINUTE``) a minute wherever it comes from (``/character portrait``,
  its form, the builder's "Add a portrait", a portrait in ``/character import``).

A picture past a limit is refused privately: "save it as an ordinary PNG or JPEG". Before any
child starts, this process refuses what the bytes show at once
(``bot.render.portraits.precheck``), so most junk never costs one.

One child per picture, started ahead. A fresh child per picture keeps the limits per picture
(CPU time counts from a process's start) and leaves nothing of one member's picture in the
process that reads the next; a long-lived pool would need both reset. But starting one costs
about 0.1 s of CPU, mostly Pillow's import, and on a busy 2-core machine 0.2–1 s of wall time:
far more than a 64×64 portrait's whole decode (about 10 ms). So once a picture is read, up to
:data:`AT_ONCE` children are started for the next ones and wait, imported and limited, on their
stdin (17 MB each): a burst of pictures meets warm children, and starting them takes no CPU
from the pictures being read. With one started ahead instead, another server's portrait sent
while two costly ones were read met a child still importing Pillow (0.7–1 s, against 0.4 s;
docs/benchmarks.md). A child never used reads an empty stdin when the bot closes or dies, and
exits.
"""

import asyncio
import contextlib
import logging
import math
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field

import discord

from bot import metrics
from bot.errors import BotError
from bot.render.portrait_worker import OVER_MEMORY, REFUSED, Refused
from bot.render.portraits import precheck, refusal, refuse_size

log = logging.getLogger(__name__)

CPU_SECONDS = 2
"""CPU time a child has to read one picture. The largest ordinary pictures take 0.2–0.6 s (a
24-megapixel PNG, WebP or progressive JPEG, an 8 MiB PNG of noise); the crafted ones, 2 s to
minutes."""
MEMORY_BYTES = 512 * 1024 * 1024
"""A child's address space: a 24-megapixel WebP, the most memory an accepted picture takes,
needs 384–448 MiB of it (Pillow's WebP decoder keeps the canvas twice)."""
WALL_SECONDS = 30.0
"""Wall time after which a child is killed, whatever it spent. The CPU limit ends any costly
picture first; this one ends a child the machine starves (a shared 2-core machine under a load
of 13 took 4–8 s for the largest ordinary pictures, two at once)."""
SLOW_AFTER = 0.2
"""Seconds after which a child still reading is lowered below the bot: an ordinary picture is
read by then (about 10 ms of CPU), a costly one has seconds to go."""
NICENESS = 10
"""How far below the bot a slow child goes: the bot's event loop, which answers every server,
comes first for the CPU. Lowered from the start instead, an ordinary portrait's child on a
crowded machine waited for a CPU behind every other process there (0.4–0.5 s, not 0.2 s)."""
AT_ONCE = 3
"""Children reading at once, for every server of the process together."""
WAITING = 4
"""Pictures that may wait for a child; past them a new one is refused at once."""
MINUTE = 60.0

BUSY = "Other members' pictures are being read right now: send yours again in a moment."
ONE_AT_A_TIME = "Your last picture is still being read: wait for its answer, then send the next."
TOO_SLOW = (
    "That picture takes too long to read (it may be built to): save it as an ordinary PNG or "
    "JPEG and send that."
)
TOO_LARGE = (
    "That picture needs too much memory to read (it may be built to): save it as an ordinary PNG "
    "or JPEG and send that."
)
RATE = "You may send {count} pictures a minute: try again in {seconds} s."
DOWNLOAD_FAILED = "I could not download that image from Discord: send it again."
OUT_OF_TIME = (signal.SIGXCPU, signal.SIGKILL)
"""How a child ends when it runs out of time: the kernel's CPU limit, or the bot's kill."""


@dataclass
class MemberTurns:
    """Each member's pictures in the last minute, at most ``per_minute`` (0: no limit)."""

    per_minute: int
    _times: dict[int, deque[float]] = field(default_factory=dict)

    def wait(self, member_id: int, now: float) -> float:
        """Seconds before ``member_id`` may send another picture (0: now)."""
        times = self._times.get(member_id)
        if times is None or self.per_minute <= 0:
            return 0.0
        while times and times[0] <= now - MINUTE:
            times.popleft()
        return times[0] + MINUTE - now if len(times) >= self.per_minute else 0.0

    def take(self, member_id: int, now: float) -> None:
        """Count a picture of ``member_id``'s (past a thousand members, forgetting first those
        quiet for a minute)."""
        if self.per_minute <= 0:
            return
        if len(self._times) > 1000:
            self._times = {m: t for m, t in self._times.items() if t and t[-1] > now - MINUTE}
        self._times.setdefault(member_id, deque()).append(now)


class PortraitReader:
    """Reads pictures in child processes, a few at a time, for every server of this process.

    One per bot (``MistbornClient.portrait_reader``); :meth:`close` ends the waiting child.
    """

    def __init__(
        self,
        *,
        per_minute: int,
        at_once: int = AT_ONCE,
        waiting: int = WAITING,
        cpu_seconds: int = CPU_SECONDS,
        memory_bytes: int = MEMORY_BYTES,
        wall_seconds: float = WALL_SECONDS,
    ) -> None:
        self.turns = MemberTurns(per_minute)
        self.at_once, self.waiting = at_once, waiting
        self.cpu_seconds, self.memory_bytes, self.wall_seconds = cpu_seconds, memory_bytes, wall_seconds
        self._slots: asyncio.Semaphore | None = None
        self._queued = 0
        self._reading: set[int] = set()
        self._spares: list[asyncio.Task[asyncio.subprocess.Process]] = []
        self._closed = False
        self.children: list[asyncio.subprocess.Process] = []
        """The children reading right now (for the tests: each one's pid and end)."""

    def check(self, member_id: int) -> None:
        """Refuse at once a member who may not send a picture now (before downloading it)."""
        if member_id in self._reading:
            raise BotError(ONE_AT_A_TIME)
        wait = self.turns.wait(member_id, time.monotonic())
        if wait > 0:
            raise BotError(RATE.format(count=self.turns.per_minute, seconds=math.ceil(wait)))
        if self._queued >= self.waiting and self._slots is not None and self._slots.locked():
            metrics.PORTRAITS_BUSY.inc()
            raise BotError(BUSY)

    async def read_upload(self, attachment: discord.Attachment, member_id: int) -> bytes:
        """An uploaded picture's portrait: its claimed size refused before downloading, then
        :meth:`read`."""
        refuse_size(attachment.size)
        self.check(member_id)
        try:
            data = await attachment.read()
        except discord.HTTPException:
            raise BotError(DOWNLOAD_FAILED) from None
        return await self.read(data, member_id)

    async def read(self, data: bytes, member_id: int) -> bytes:
        """The portrait made from ``data`` (a WebP), read by a child; :class:`BotError` with what
        to send instead for anything refused."""
        precheck(data)
        self.check(member_id)
        self.turns.take(member_id, time.monotonic())
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.at_once)
        self._reading.add(member_id)
        try:
            self._queued += 1
            try:
                await self._slots.acquire()
            finally:
                self._queued -= 1
            try:
                return await self._decode(data, member_id)
            finally:
                self._slots.release()
        finally:
            self._reading.discard(member_id)

    async def _decode(self, data: bytes, member_id: int) -> bytes:
        child = await self._child()
        self.children.append(child)
        lower = asyncio.get_running_loop().call_later(SLOW_AFTER, _lower_priority, child)
        try:
            out, err = await asyncio.wait_for(child.communicate(data), self.wall_seconds)
        except TimeoutError:
            out, err = b"", b""
        finally:
            lower.cancel()
            if child.returncode is None:
                child.kill()
                await child.wait()
            self.children.remove(child)
            self._refill()
        return self._answer(child.returncode, out, err, member_id)

    def _answer(self, code: int | None, out: bytes, err: bytes, member_id: int) -> bytes:
        if code == 0 and out:
            return out
        if code == REFUSED:
            raise refusal(Refused.read(out.decode("ascii", "replace")))
        if code == OVER_MEMORY:
            log.warning("Refused a picture of member %s: past its memory limit", member_id)
            raise BotError(TOO_LARGE)
        if code is not None and -code in OUT_OF_TIME:
            log.warning("Refused a picture of member %s: still reading it at the time limit", member_id)
            raise BotError(TOO_SLOW)
        tail = err.decode("utf-8", "replace")[-2000:]
        raise RuntimeError(f"The picture reader ended with {code}: {tail}")

    async def _child(self) -> asyncio.subprocess.Process:
        """A child started ahead, or a new one if none is alive."""
        while self._spares:
            with contextlib.suppress(OSError):
                child = await self._spares.pop(0)
                if child.returncode is None:
                    return child
        try:
            return await self._start()
        except OSError:  # out of processes or memory: the machine, not the picture
            log.warning("Could not start a picture reader", exc_info=True)
            raise BotError(BUSY) from None

    async def _start(self) -> asyncio.subprocess.Process:
        limits = (str(self.cpu_seconds), str(self.memory_bytes))
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.render.portrait_worker",
            *limits,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=child_environment(),
        )

    def _refill(self) -> None:
        """Start children ahead, up to one for each that may read at once: a picture read once
        others are over, not while they are read, so that starting them takes no CPU from them."""
        while len(self._spares) < self.at_once and not self._closed:
            self._spares.append(asyncio.create_task(self._start()))

    async def close(self) -> None:
        """End every child: those reading (no one waits for their answer any more) and those
        started ahead."""
        self._closed = True
        for child in self.children:
            child.kill()
        spares, self._spares = self._spares, []
        for spare in spares:
            try:
                child = await spare
            except OSError:
                continue
            if child.returncode is None:
                child.kill()
            await child.wait()


def _lower_priority(child: asyncio.subprocess.Process) -> None:
    if child.returncode is None:
        with contextlib.suppress(OSError):  # it ended meanwhile
            below = min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICENESS)
            os.setpriority(os.PRIO_PROCESS, child.pid, below)


def child_environment() -> dict[str, str]:
    """What a child is given of the environment: where programs and this process's modules are,
    nothing else (no token, no database address)."""
    path = os.pathsep.join(p for p in sys.path if p)
    return {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": path}
