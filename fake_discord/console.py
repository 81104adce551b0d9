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
import shlex
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, TextIO

from fake_discord import modal_parts, uploads
from fake_discord.backend import Limits
from fake_discord.commandline import (
    TYPE_NAMES,
    CommandLineError,
    focused_option,
    parse_slash,
    split_pairs,
    usage,
)
from fake_discord.component_search import visible_to
from fake_discord.harness import AnyBot, BotFactory, Harness, running_bot
from fake_discord.payloads import text_inputs
from fake_discord.places import PLACES, SERVER
from fake_discord.records import InteractionRecord
from fake_discord.render import render_choices, render_message, render_record, show_times
from fake_discord.server import FakeDiscord
from fake_discord.thread_routes import newest_thread
from fake_discord.typed import clean_line, matches
from fake_discord.world import World, default_world

JSON = dict[str, Any]
log = logging.getLogger(__name__)
HELP = """\
Console syntax (everything else is sent exactly as Discord would send it):
  /command [group] [sub] name:value ...   run a slash command; a value runs until the next name:,
                                          quote it ("...") if it contains a word followed by ':'
                                          members: @player1 or an id; channels: #table; roles: @Narrator;
                                          attachments: a local file path
  !complete /command ... name:partial     the suggestions for the last option typed (found anywhere in
                                          a choice, accents and case ignored)
  !click <label, custom_id or number>     press a button on the newest message that has it (a number N:
                                          the newest message's Nth button)
  !select <placeholder or custom_id> <value> [value ...]   choose in a select menu (quote multi-word values)
  !submit field:value ...                 answer the modal the bot just opened (field = custom_id or label;
                                          in a paragraph field \\n starts a new line; a file upload's
                                          value: a local file path)
  !menu <context menu name> [@member]     user menu on @member; a message menu targets the newest message
  !save [N or file name] <path>           save an attachment of the newest message that has one
                                          (the Nth, or the one of that name; the first if not said);
                                          a relative path is taken in the console's folder for files
  !as <member>                            act as another member (!as alone lists them); a new name
                                          seats a new player (!as player3)
  !where <server|elsewhere|dm|group>      type from then on in the bot's server, a server without the
                                          bot, a DM with the bot or a group DM (the last three as with
                                          the app installed for yourself: only /roll, /read, /odds)
  !where thread                           type in the server's newest thread (a Conflict's own)
  !commands                               list the synced commands and their options
  !help                                   this text
  !quit                                   leave (end of input does the same)
  # text                                  a comment (ignored), also at the end of a line; a leading
                                          "> " (a transcript's prompt) is ignored too"""


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
MENTION = re.compile(r"<(@&|@!?|#)(\d{15,21})>")
MEMBER_NAME = re.compile(r"[\w.]{2,32}")
"""A name `!as` may give a new member: Discord's usernames are 2 to 32 such characters."""


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
        self.out.write(self.names(text) + "\n")
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
            await self._show(await self.h.slash(line))
        elif word == "!complete":
            await self._complete(rest)
        elif word == "!click":
            await self._show(await self.h.click(rest))
        elif word == "!select":
            target, *values = _split(rest)
            await self._show(await self.h.select(target, values))
        elif word == "!submit":
            modal = next((r.modal for r in reversed(self.h.fake.interactions.values()) if r.modal), None)
            try:
                rest, files = uploads.typed_files(modal or {}, rest, self.h.attach)
            except ValueError as error:
                raise CommandLineError(str(error)) from None
            await self._show(await self.h.submit(_answers(modal or {}, rest), files=files))
        elif word == "!menu":
            await self._menu(rest)
        elif word == "!save":
            self._save(rest)
        elif word == "!as":
            self._as(rest)
        elif word == "!where":
            self._where(rest)
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

    def _save(self, rest: str) -> None:
        """Write an attachment the bot sent (an export, a chart) to a local file: a relative path
        is taken inside ``saves`` (and may not climb out of it), an absolute one as given."""
        words = _split(rest, usage="usage: !save [N or file name] <path>")
        which, path = (words[0], words[1]) if len(words) > 1 else ("1", words[0])
        found = saved_attachment(self.h, which)
        typed = Path(path).expanduser()
        target = typed if typed.is_absolute() else self.saves / typed
        if not typed.is_absolute() and not target.resolve().is_relative_to(self.saves.resolve()):
            raise CommandLineError(
                f"{path!r} leads out of {self.saves}/: name a file in it, or give a full path "
                "(e.g. ~/Spook.json) to save elsewhere"
            )
        if target.is_dir() or path.endswith("/"):
            target = target / str(found["filename"])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(self.h.fake.file_bytes(found))
        self.say(f"(saved {found['filename']} to {target}, {target.stat().st_size} bytes)")

    def _as(self, name: str) -> None:
        guild = self.h.world.guild
        if not name:
            for member in (m for m in guild.members if not m.user.bot):
                roles = [r.name for r in guild.roles if r.id in member.role_ids]
                mark = "*" if member is self.h.user else " "
                self.say(f"{mark} {member.user.name}" + (f" ({', '.join(roles)})" if roles else ""))
            return
        name = name.removeprefix("@")
        if guild.member(name) is None:
            if not MEMBER_NAME.fullmatch(name):
                raise CommandLineError(
                    f"{name!r} cannot be a member's name: use 2 to 32 letters, digits, _ or . "
                    "(e.g. !as player3); !as alone lists who is here"
                )
            self.h.world.add_member(name)
            self.say(f"({name} joins {guild.name} as a player)")
        self.say(f"(now acting as {self.h.as_user(name).user.name})")

    def _where(self, place: str) -> None:
        """Move the typing member to another place (``world.PLACES``, or ``thread``: the server's
        newest thread, where a Conflict may run); alone, list them."""
        if not place:
            for key, text in PLACES.items():
                self.say(f"{'*' if key == self.h.place else ' '} {key}: {text}")
            self.say(f"{'*' if self.h.channel.parent_id else ' '} thread: the server's newest thread")
            return
        guild = self.h.world.guild
        if place.lower() == "thread":
            thread = newest_thread(guild)
            if thread is None:
                raise CommandLineError("no thread in the server yet (a Conflict makes one when set to)")
            self.h.go(SERVER)
            self.h.channel = thread
            parent = guild.channel(thread.parent_id or 0)
            self.say(f"(now in the thread #{thread.name}, in #{parent.name if parent else '?'})")
            return
        self.h.go(place.lower())
        if self.h.channel.parent_id is not None:
            self.h.channel = guild.channel(self.h.channel.parent_id) or guild.channels[0]
        names = ", ".join(sorted("/" + c["name"] for c in self.h.commands if c.get("type", 1) == 1))
        self.say(f"(now in {PLACES[self.h.place]}; commands here: {names or 'none'})")

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
            if message is not None and message_id not in covered | shown and visible_to(message, self.h.user):
                shown.add(message_id)
                what = "new" if kind == "create" else "edited"
                thread = self.h.world.guild.channel(str(message["channel_id"]))
                where = f"thread #{thread.name}" if thread and thread.parent_id else "channel"
                self.screen.message(f"({what} message in {where})", message)
        self.seen = len(self.h.fake.activity)

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


async def suggestions(harness: Harness, line: str) -> tuple[list[JSON], InteractionRecord | None]:
    """What Discord would offer for the last option of `line`: its fixed choices, filtered as
    Discord's client filters them (anywhere in the name, ignoring case and accents), or the bot's
    own answer to a real autocomplete interaction (then the record is returned too)."""
    actor = harness.actor()
    parsed = parse_slash(line, harness.commands, actor.guild, actor.member, focus=True)
    option, typed = focused_option(parsed)
    if option.get("choices"):
        return [c for c in option["choices"] if matches(typed, str(c["name"]))], None
    if not option.get("autocomplete"):
        kind = TYPE_NAMES.get(option["type"], "value")
        raise CommandLineError(f"{option['name']} has no suggestions: type a value ({kind})")
    record = await harness.autocomplete(line)
    return record.choices, record


def saved_attachment(harness: Harness, which: str) -> JSON:
    """The attachment `which` (a 1-based number or a file name) of the newest message with one."""
    for message in reversed(harness.fake.messages.values()):
        attachments = message.get("attachments") or []
        if not attachments or not visible_to(message, harness.user):
            continue
        if which.isdigit():
            index = int(which) - 1
            if 0 <= index < len(attachments):
                found: JSON = attachments[index]
                return found
            raise CommandLineError(f"the newest message with files has {len(attachments)}, not {which}")
        named = [a for a in attachments if str(a.get("filename")).lower() == which.lower()]
        if named:
            first: JSON = named[0]
            return first
    raise CommandLineError(
        "no message you can see has a file to save" + ("" if which.isdigit() else f" named {which!r}")
    )


def _split(
    text: str, usage: str = "usage: !select <placeholder or custom_id> <value> [value ...]"
) -> list[str]:
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise CommandLineError(f"cannot split {text!r}: {exc}") from None
    if not parts:
        raise CommandLineError(usage)
    return parts


def _answers(modal: JSON, typed: str) -> dict[str, str]:
    """`field:value` pairs for a modal; in a paragraph field a typed `\\n` starts a new line. A
    picked part takes an option's label or value, checkboxes `a,b`, a checkbox `yes`/`no`."""
    fields = {
        key: field
        for field in [*text_inputs(modal), *modal_parts.fields(modal)]
        for key in (field["custom_id"].lower(), field["label"].lower())
    }
    answers = {}
    for key, value in split_pairs(typed, set(fields)):
        answers[key] = value.replace("\\n", "\n") if fields[key].get("paragraph") else value
    return answers


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
