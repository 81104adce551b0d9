"""The offline console: type Discord commands at a real bot connected to the fake Discord.

Lines go through the same parser, INTERACTION_CREATE payloads and discord.py dispatch as in
Discord, so what works here works there. Input may be a terminal, a pipe or a file (scripted
demos); a prompt is shown only on a terminal, and piped lines are echoed so transcripts read well.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shlex
import threading
from collections.abc import AsyncIterator
from typing import Any, TextIO

from fake_discord.backend import Limits
from fake_discord.commandline import CommandLineError, split_pairs, usage
from fake_discord.harness import BotFactory, Harness, running_bot, visible_to
from fake_discord.payloads import text_inputs
from fake_discord.records import InteractionRecord
from fake_discord.render import render_message
from fake_discord.world import World, default_world

JSON = dict[str, Any]
log = logging.getLogger(__name__)
HELP = """\
Console syntax (everything else is sent exactly as Discord would send it):
  /command [group] [sub] name:value ...   run a slash command; a value runs until the next name:,
                                          quote it ("...") if it contains a word followed by ':'
                                          members: @player1 or an id; channels: #table; roles: @Narrator;
                                          attachments: a local file path
  !complete /command ... name:partial     autocomplete the last option typed and show the suggestions
  !click <label or custom_id>             press a button on the newest message that has it
  !select <placeholder or custom_id> <value> [value ...]   choose in a select menu (quote multi-word values)
  !submit field:value ...                 answer the modal the bot just opened (field = custom_id or label)
  !menu <context menu name> [@member]     user menu on @member; a message menu targets the newest message
  !as <member>                            act as another member (!as alone lists them)
  !commands                               list the synced commands and their options
  !help                                   this text
  !quit                                   leave (end of input does the same)
  # text                                  a comment (ignored), handy in scripts"""


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


MENTION = re.compile(r"<(@&|@!?|#)(\d{15,21})>")


class Console:
    """Turns one typed line into harness calls and prints what the bot answered."""

    def __init__(self, harness: Harness, output: TextIO) -> None:
        self.h = harness
        self.out = output
        self.failures = 0
        self.seen = len(harness.fake.activity)

    def say(self, text: str) -> None:
        self.out.write(self._names(text) + "\n")
        self.out.flush()

    def _names(self, text: str) -> str:
        """Show ``<@id>``, ``<@&id>`` and ``<#id>`` the way Discord does: as names, not numbers."""
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

        return MENTION.sub(name, text)

    async def handle(self, line: str) -> bool:
        """Run one line; False means quit."""
        line = line.strip()
        if not line or line.startswith("#"):
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
            await self._show(await self.h.slash(line))
        elif word == "!complete":
            await self._show(await self.h.autocomplete(rest))
        elif word == "!click":
            await self._show(await self.h.click(rest))
        elif word == "!select":
            target, *values = _split(rest)
            await self._show(await self.h.select(target, values))
        elif word == "!submit":
            modal = next((r.modal for r in reversed(self.h.fake.interactions.values()) if r.modal), None)
            fields = _modal_keys(modal or {})
            await self._show(await self.h.submit(dict(split_pairs(rest, fields))))
        elif word == "!menu":
            await self._menu(rest)
        elif word == "!as":
            self._as(rest)
        elif word == "!commands":
            self.say("\n".join(line for c in self.h.commands for line in usage(c)) or "(no commands synced)")
        elif word == "!help":
            self.say(HELP)
        else:
            raise CommandLineError(f"not a command: {line!r} (commands start with / ; try !help)")

    async def _menu(self, rest: str) -> None:
        kinds = {c["name"].lower(): c.get("type", 1) for c in self.h.commands}
        if kinds.get(rest.lower()) == 3:
            await self._show(await self.h.message_menu(rest))
            return
        name, _, target = rest.rpartition(" ")
        if not name:
            raise CommandLineError("usage: !menu <context menu name> @member")
        await self._show(await self.h.user_menu(name, target))

    def _as(self, name: str) -> None:
        guild = self.h.world.guild
        if not name:
            for member in (m for m in guild.members if not m.user.bot):
                roles = [r.name for r in guild.roles if r.id in member.role_ids]
                mark = "*" if member is self.h.user else " "
                self.say(f"{mark} {member.user.name}" + (f" ({', '.join(roles)})" if roles else ""))
            return
        self.say(f"(now acting as {self.h.as_user(name).user.name})")

    async def _show(self, record: InteractionRecord) -> None:
        """Print the record, then messages the bot posted or edited elsewhere meanwhile that the
        member typing can see (another member's private replies stay theirs)."""
        if record.response is None or record.errors:
            self.failures += 1
        self.say(record.text)
        covered = {int(m["id"]) for m in record.messages}
        shown: set[int] = set()
        for kind, message_id in self.h.fake.activity[self.seen :]:
            message = self.h.fake.messages.get(message_id)
            if message is not None and message_id not in covered | shown and visible_to(message, self.h.user):
                shown.add(message_id)
                what = "new" if kind == "create" else "edited"
                self.say(f"({what} message in channel)\n{render_message(message)}")
        self.seen = len(self.h.fake.activity)


def _split(text: str) -> list[str]:
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise CommandLineError(f"cannot split {text!r}: {exc}") from None
    if not parts:
        raise CommandLineError("usage: !select <placeholder or custom_id> <value> [value ...]")
    return parts


def _modal_keys(modal: JSON) -> set[str]:
    return {
        key for field in text_inputs(modal) for key in (field["custom_id"].lower(), field["label"].lower())
    }


async def run_console(
    make_bot: BotFactory,
    *,
    input: TextIO,
    output: TextIO,
    user: str = "narrator",
    narrator: bool = True,
    world: World | None = None,
    limits: Limits | None = None,
) -> int:
    """Run the console until EOF or `!quit`; return 0, or 1 if any line failed (for scripted demos).

    `user` is who types (created if missing); `narrator` gives or takes that member's Narrator
    role. With an explicit `world`, both are ignored: build it with `default_world(user=...)`
    so the bot factory can be told `world.guild.id` as its development guild.
    """
    tty = input.isatty()
    world = world or default_world(user=user, narrator=narrator)
    async with running_bot(make_bot, world=world, limits=limits, user=user) as harness:
        console = Console(harness, output)
        guild = world.guild
        console.say(
            f"Offline Discord: {harness.bot.user} in {guild.name} #{harness.channel.name}, "
            f"acting as {harness.user.user.name}. {len(harness.commands)} commands; !help for syntax."
        )
        if tty:
            output.write("> ")
            output.flush()
        async for raw in _lines(input):
            if not tty and raw.strip():
                console.say(f"> {raw.rstrip()}")
            if not await console.handle(raw):
                break
            if tty:
                output.write("> ")
                output.flush()
    return 1 if console.failures else 0
