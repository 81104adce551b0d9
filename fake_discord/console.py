"""The offline console: type Discord commands at a real bot connected to the fake Discord.

Lines go through the same parser, INTERACTION_CREATE payloads and discord.py dispatch as in
Discord, so what works here works there. Input may be a terminal, a pipe or a file (scripted
demos). Piped, lines are echoed after a ``> `` so transcripts read well, and everything is plain
text; at a terminal, ``terminal.py`` edits lines and shows embeds in colour. A line copied from
a transcript or README runs as typed: its ``> `` echo and ``# comment`` are dropped
(``typed.clean_line``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, TextIO

from fake_discord import uploads
from fake_discord.backend import Limits
from fake_discord.commandline import (
    CommandLineError,
    usage,
)
from fake_discord.component_search import visible_to
from fake_discord.console_commands import (
    HELP,
    act_as,
    save,
    split_words,
    suggestions,
    typed_answers,
    vote_in_poll,
    where,
)
from fake_discord.harness import AnyBot, BotFactory, Harness, running_bot
from fake_discord.records import InteractionRecord
from fake_discord.render import render_choices, render_message, render_record, show_times, unescaped
from fake_discord.server import FakeDiscord
from fake_discord.typed import clean_line
from fake_discord.world import World, default_world

JSON = dict[str, Any]
log = logging.getLogger(__name__)


async def _lines(stream: TextIO) -> AsyncIterator[str]:
    """Read lines on a daemon thread so a blocked terminal read never holds up shutdown."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def pump() -> None:
        try:
            for line in iter(stream.readline, ""):
                loop.call_soon_threadsafe(queue.put_nowait, line)
        finally:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=pump, name="offline-console-input", daemon=True).start()
    while (line := await queue.get()) is not None:
        yield line


SETTLE_QUIET, SETTLE_MAX = 0.1, 2.0
"""Seconds without a new or edited message that end a line's output, and the most it waits."""
Idle = Callable[[AnyBot], Awaitable[None]]
"""Waits until the bot's own background work (a board it redraws, paced) is done."""
MENTION = re.compile(r"(?<!\\)<(@&|@!?|#)(\d{15,21})>")
"""A mention Discord draws as a name; an escaped ``\\<@…>`` shows as typed."""


class Screen(Protocol):
    """Where the console shows things: plain text (a pipe, a test) or a terminal in colour."""

    def say(self, text: str) -> None: ...
    def answer(self, record: InteractionRecord) -> None: ...
    def message(self, heading: str, message: JSON) -> None: ...


class PlainScreen:
    """Plain text, exactly as ``fake_discord.render`` writes it: what scripts and tests read."""

    def __init__(self, output: TextIO, names: Callable[[str], str]) -> None:
        self.out = output
        self.names = names

    def say(self, text: str) -> None:
        self.out.write(unescaped(self.names(text)) + "\n")
        self.out.flush()

    def answer(self, record: InteractionRecord) -> None:
        self.say(render_record(record))

    def message(self, heading: str, message: JSON) -> None:
        self.say(f"{heading}\n{render_message(message)}")


class Console:
    """Turns one typed line into harness calls and shows what the bot answered."""

    def __init__(
        self,
        harness: Harness,
        output: TextIO,
        screen: Screen | None = None,
        idle: Idle | None = None,
        saves: Path = Path(),
    ) -> None:
        self.h = harness
        self.saves = saves
        self.screen: Screen = screen or PlainScreen(output, self.names)
        self.failures = 0
        self.seen = len(harness.fake.activity)
        self.waiting_for: dict[str, list[int]] = {}
        """Private messages that came for a member while another was typing, by user id: shown
        when they next type (``!as``), as Discord shows them when they look at the channel."""
        self.idle = idle
        self._waiting: set[asyncio.Task[None]] = set()

    def say(self, text: str) -> None:
        self.screen.say(text)

    def names(self, text: str) -> str:
        """Show ``<@id>``, ``<@&id>`` and ``<#id>`` the way Discord does, as names, not numbers,
        and ``<t:…>`` as times."""
        guild = self.h.world.guild

        def name(match: re.Match[str]) -> str:
            kind, ident = match.group(1), match.group(2)
            if kind == "#":
                channel = guild.channel(ident)
                return f"#{channel.name}" if channel else match.group(0)
            if kind == "@&":
                role = guild.role(ident)
                return f"@{role.name}" if role else match.group(0)
            member = guild.member(ident)
            return f"@{member.user.name}" if member else match.group(0)

        return show_times(MENTION.sub(name, text))

    async def handle(self, line: str) -> bool:
        """Run one line; False means quit."""
        line = clean_line(line)
        if not line:
            return True
        if line in ("!quit", "!exit"):
            return False
        try:
            await self._run(line)
        except CommandLineError as exc:
            self.failures += 1
            self.say(f"error: {exc}")
        except Exception as exc:  # a person at a prompt should never lose the session to one bad line
            log.exception("console line failed: %s", line)
            self.failures += 1
            self.say(f"error: {exc!r}")
        self.say("")
        return True

    async def _run(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if line.startswith("/"):
            leaving = word[1:].lower() in ("quit", "exit")
            if leaving and not any(c["name"].lower() == word[1:].lower() for c in self.h.commands):
                raise CommandLineError(f"{word} is not a command here: type !quit or press Ctrl-D to leave")
            await self._show(await self.h.slash(line))
        elif word == "!complete":
            await self._complete(rest)
        elif word == "!click":
            await self._show(await self.h.click(rest))
        elif word == "!select":
            target, *values = split_words(rest)
            await self._show(await self.h.select(target, values))
        elif word == "!submit":
            modal = next((r.modal for r in reversed(self.h.fake.interactions.values()) if r.modal), None)
            try:
                rest, files = uploads.typed_files(modal or {}, rest, self.h.attach)
            except ValueError as error:
                raise CommandLineError(str(error)) from None
            await self._show(await self.h.submit(typed_answers(modal or {}, rest), files=files))
        elif word == "!menu":
            await self._menu(rest)
        elif word == "!save":
            save(self.h, rest, self.saves, self.say)
        elif word == "!vote":
            await vote_in_poll(self.h, rest, self.say)
            await self._settle()
        elif word == "!as":
            act_as(self.h, rest, self.say)
            self._show_waiting()
        elif word == "!where":
            where(self.h, rest, self.say)
        elif word == "!commands":
            self.say("\n".join(line for c in self.h.commands for line in usage(c)) or "(no commands synced)")
        elif word == "!help":
            self.say(HELP)
        else:
            raise CommandLineError(f"not a command: {line!r} (commands start with / ; try !help)")

    async def _complete(self, line: str) -> None:
        choices, record = await suggestions(self.h, line)
        if record is not None:
            await self._show(record)
        else:
            self.say(render_choices(choices))

    async def _menu(self, rest: str) -> None:
        kinds = {c["name"].lower(): c.get("type", 1) for c in self.h.commands}
        if kinds.get(rest.lower()) == 3:
            await self._show(await self.h.message_menu(rest))
            return
        name, _, target = rest.rpartition(" ")
        if not name:
            raise CommandLineError("usage: !menu <context menu name> @member")
        await self._show(await self.h.user_menu(name, target))

    async def _show(self, record: InteractionRecord) -> None:
        """Show the record, then messages the bot posted or edited elsewhere meanwhile that the
        member typing can see (another member's private replies stay theirs)."""
        if record.response is None or record.errors:
            self.failures += 1
        self.screen.answer(record)
        await self._settle()
        covered = {int(m["id"]) for m in record.messages}
        shown: set[int] = set()
        for kind, message_id in self.h.fake.activity[self.seen :]:
            message = self.h.fake.messages.get(message_id)
            if message is None or message_id in covered | shown:
                continue
            if not visible_to(message, self.h.user):
                owner = str((message.get("interaction_metadata") or {}).get("user", {}).get("id"))
                self.waiting_for.setdefault(owner, []).append(message_id)
                continue
            shown.add(message_id)
            what = "new" if kind == "create" else "edited"
            self.screen.message(f"({what} message in {self._where(message)})", message)
        self.seen = len(self.h.fake.activity)

    def _where(self, message: JSON) -> str:
        thread = self.h.world.guild.channel(str(message["channel_id"]))
        return f"thread #{thread.name}" if thread and thread.parent_id else "channel"

    def _show_waiting(self) -> None:
        """The private messages that came for the member now typing while another typed (a
        Narrator's private prompt of a hidden character, posted by a player's move)."""
        for message_id in dict.fromkeys(self.waiting_for.pop(str(self.h.user.user.id), [])):
            message = self.h.fake.messages.get(message_id)
            if message is not None:
                heading = f"(private message in {self._where(message)}, while you were away)"
                self.screen.message(heading, message)

    async def _settle(self) -> None:
        """Wait until the bot has done what the line set going in the background (``idle``: a
        board it reposts, paced, comes well after the answer) and has then been quiet for a
        moment, so each line shows what it caused. Never longer than ``SETTLE_MAX`` each."""
        if self.idle is not None:
            # Not cancelled when it takes too long: that would cancel the bot's own work.
            task = asyncio.ensure_future(self.idle(self.h.bot))
            self._waiting.add(task)
            task.add_done_callback(self._waiting.discard)
            await asyncio.wait({task}, timeout=SETTLE_MAX)
        fake = self.h.fake
        deadline = asyncio.get_running_loop().time() + SETTLE_MAX
        while asyncio.get_running_loop().time() < deadline:
            if not await fake.wait_for(_changed_since(fake.changes, fake), SETTLE_QUIET):
                return


def _changed_since(seen: int, fake: FakeDiscord) -> Callable[[], bool]:
    return lambda: fake.changes != seen


class Terminal(Protocol):
    """A person's terminal (``terminal.py``): where lines come from and answers are shown."""

    def screen(self, console: Console) -> Screen: ...
    def lines(self, console: Console) -> AsyncIterator[str]: ...


async def run_console(
    make_bot: BotFactory,
    *,
    input: TextIO,
    output: TextIO,
    user: str = "narrator",
    narrator: bool = True,
    world: World | None = None,
    limits: Limits | None = None,
    terminal: Terminal | None = None,
    idle: Idle | None = None,
    saves: Path = Path(),
) -> int:
    """Run the console until EOF or `!quit`; return 0, or 1 if any line failed (for scripted demos).

    `user` is who types (created if missing); `narrator` gives or takes that member's Narrator
    role. With an explicit `world`, both are ignored: build it with `default_world(user=...)`
    so the bot factory can be told `world.guild.id` as its development guild. With a
    `terminal`, lines are read and answers shown there; else `input` and `output` are plain text.
    `idle` waits for the bot's background work after each line, so its output shows at once.
    `!save` writes a relative path inside `saves` (default: the current folder).
    """
    world = world or default_world(user=user, narrator=narrator)
    async with running_bot(make_bot, world=world, limits=limits, user=user) as harness:
        console = Console(harness, output, idle=idle, saves=saves)
        if terminal is not None:
            console.screen = terminal.screen(console)
        guild = world.guild
        console.say(
            f"Offline Discord: {harness.bot.user} in {guild.name} #{harness.channel.name}, "
            f"acting as {harness.user.user.name}. {len(harness.commands)} commands; !help for syntax."
        )
        lines = terminal.lines(console) if terminal is not None else _lines(input)
        async for raw in lines:
            if terminal is None and clean_line(raw):
                console.say(f"> {clean_line(raw)}")
            if not await console.handle(raw):
                break
    return 1 if console.failures else 0
