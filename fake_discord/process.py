"""A bot in its own process, driven from the process that runs the fake Discord.

A crash test must kill the bot's process (SIGKILL: no ``finally``, no clean close of the
database) while the fake Discord that saw what was acknowledged survives to tell. So the test
process runs the fake and starts a *runner* module as a subprocess::

    python -m RUNNER --api http://127.0.0.1:PORT/api/v10 --gateway ws://127.0.0.1:PORT/gateway \\
        --db PATH --guild ID [--seed N]

The runner points discord.py at the fake (``patch.py``), opens its database, starts its bot
with the fake guild as its development server, prints ``ready`` on stdout each time
discord.py is ready, and exits 0 on SIGINT. It may also take *control lines* on stdin (what
they mean is the runner's business; ``fake_discord.remote`` arms crash points with them) and
answers each with ``done`` or ``error <why>`` on stdout. ``fake_discord.remote`` is the runner
for this project's bot; this module never imports it, so anything here works for any bot that
follows the same command line.

:class:`BotProcess` starts, kills and stops the child; :class:`RemoteHarness` is the usual
:class:`~fake_discord.harness.Harness` (slash commands, clicks) minus the in-process bot.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from fake_discord.harness import Harness
from fake_discord.records import InteractionRecord
from fake_discord.server import FakeDiscord

JSON = dict[str, Any]
READY = b"ready"
"""The line a runner prints on stdout each time its bot is ready."""
DONE, ERROR = b"done", b"error"
"""The runner's answers to a control line."""
RUNNER = "fake_discord.remote"
LOADING = 1 << 7


class BotProcess:
    """One ``python -m <runner>`` child; its stderr goes to `log_path` for post-mortems."""

    def __init__(
        self,
        fake: FakeDiscord,
        db_path: Path,
        *,
        log_path: Path,
        seed: int | None = None,
        runner: str = RUNNER,
        env: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.db_path = db_path
        self.log_path = log_path
        self.seed = seed
        self.runner = runner
        self.env = dict(env or {})
        """Extra environment for the next starts (a test may change it between two)."""
        self.readies = 0
        """``ready`` lines seen from the current process (one per connect, more after a reconnect)."""
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self, *, timeout: float = 30.0) -> None:
        """Spawn the bot and wait (bounded) until discord.py says it is ready."""
        if self.proc is not None and self.proc.returncode is None:
            raise RuntimeError("the bot process is already running")
        command = [
            sys.executable,
            "-m",
            self.runner,
            f"--api={self.fake.api_base}",
            f"--gateway={self.fake.gateway_url}",
            f"--db={self.db_path}",
            f"--guild={self.fake.world.guild.id}",
        ]
        if self.seed is not None:
            command.append(f"--seed={self.seed + self.starts}")
        self.starts += 1
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts}\n".encode())
            log.flush()
            self.proc = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                env=os.environ | self.env,
            )
        self.readies = 0
        try:
            await self._read_until(READY, timeout)
        except BaseException:
            await self.kill()
            raise

    async def _read_until(self, wanted: bytes, timeout: float) -> bytes:
        """Read the runner's stdout up to a line starting with ``wanted`` (or ``error``); return it."""
        assert self.proc is not None and self.proc.stdout is not None
        async with asyncio.timeout(timeout):
            while raw := await self.proc.stdout.readline():
                line = raw.strip()
                if line == READY:
                    self.readies += 1
                if line.startswith((wanted, ERROR)):
                    return line
        raise RuntimeError(f"the bot exited; see {self.log_path}")

    async def wait_line(self, wanted: str, *, timeout: float = 10.0) -> None:
        """Wait until the runner prints a line starting with ``wanted`` (a runner's own signal)."""
        await self._read_until(wanted.encode(), timeout)

    async def control(self, line: str, *, timeout: float = 10.0) -> None:
        """Send the runner one control line and wait for its ``done`` (its ``error`` raises)."""
        if self.proc is None or self.proc.stdin is None or self.proc.returncode is not None:
            raise RuntimeError("the bot process is not running")
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()
        answer = await self._read_until(DONE, timeout)
        if answer.startswith(ERROR):
            raise RuntimeError(f"the runner refused {line!r}: {answer.decode()}")

    async def exited(self, *, timeout: float = 10.0) -> int:
        """Wait (bounded) until the process ends by itself; return its exit code (-9: killed)."""
        if self.proc is None:
            raise RuntimeError("the bot process was never started")
        return await asyncio.wait_for(self.proc.wait(), timeout)

    async def kill(self) -> None:
        """SIGKILL: the process gets no chance to finish, close or flush anything."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.proc.wait(), 10)

    async def stop(self, *, timeout: float = 10.0) -> None:
        """SIGINT, as Ctrl-C: a clean shutdown; killed if it takes longer than `timeout`.

        A runner must handle SIGINT itself (``remote.py`` does): a child started while this
        process ignores SIGINT, as background jobs of a shell do, inherits it as ignored, and
        Python's own Ctrl-C handling is then off. The kill is only the last resort; a caller
        that cares whether the stop was clean checks :attr:`returncode` (0, not -9).
        """
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            await self.kill()

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.kill()


class RemoteHarness(Harness):
    """A :class:`Harness` whose bot runs in another process.

    There is no ``bot`` attribute (the bot object is in the child process) and ``restart``
    does not apply; :attr:`process` starts, kills and restarts the child instead. Without the
    bot's tasks to watch, an interaction counts as settled once it is answered (or its 3 s are
    up) and the fake has heard nothing more about it for `idle` seconds.
    """

    def __init__(self, fake: FakeDiscord, process: BotProcess, user: str = "narrator") -> None:
        # Harness.__init__ would want the bot object; set the rest of its state directly.
        self.fake = fake
        self.process = process
        self.settle_timeout = 15.0
        self.idle = 0.15
        self.task = None
        self.user = self.member(user)
        self.channel = self.world.guild.channels[0]

    async def send(self, payload: JSON) -> InteractionRecord:
        record = await self.fake.send_interaction(payload)
        await settle_remote(
            record, ack_timeout=self.fake.limits.ack_deadline + 0.5, total=self.settle_timeout, idle=self.idle
        )
        return record


async def settle_remote(
    record: InteractionRecord,
    *,
    ack_timeout: float = 3.5,
    total: float = 15.0,
    idle: float = 0.15,
    grace: float = 3.0,
) -> None:
    """Wait (bounded by `total`) until `record` is answered and then quiet for `idle` seconds.

    A deferred answer ("thinking…") is not done until its message arrives, and a button that
    updated its message usually sends a followup right after: both get up to `grace` seconds.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + total
    if not await record.wait_response(min(ack_timeout, total)):
        return
    if _still_coming(record):
        await record.wait_for(lambda r: not _still_coming(r), min(grace, deadline - loop.time()))
    while loop.time() < deadline:
        if not await record.wait_for(_changed_since(record.version), min(idle, deadline - loop.time())):
            return


def _changed_since(version: int) -> Callable[[InteractionRecord], bool]:
    return lambda record: record.version != version


def _still_coming(record: InteractionRecord) -> bool:
    loading = record.original is not None and bool(int(record.original.get("flags") or 0) & LOADING)
    deferred_without_message = record.response_type == 5 and record.original is None and not record.followups
    updated_without_followup = record.response_type in (6, 7) and not record.followups
    return loading or deferred_without_message or updated_without_followup
