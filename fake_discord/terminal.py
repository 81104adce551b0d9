"""The offline console at a person's terminal: line editing, history and completion, and colour.

prompt_toolkit reads the lines: the arrow keys edit and recall them (history is kept in a file
between runs), and Tab completes what Discord's message box would offer — commands,
subcommands, option names, an option's fixed choices, and the bot's own suggestions, asked for
with a real autocomplete interaction through discord.py as Discord's client would. rich shows
each embed as a panel in the embed's colour. None of this is used when input or output is a
pipe: a script then reads and writes the plain text of ``render.py``, as the tests expect.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.console import Console as RichConsole
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from fake_discord.commandline import CommandLineError
from fake_discord.component_search import visible_to
from fake_discord.console import Console, Screen
from fake_discord.console_commands import suggestions
from fake_discord.harness import Harness
from fake_discord.records import InteractionRecord
from fake_discord.render import (
    EPHEMERAL,
    field_name,
    footer_lines,
    record_notes,
    render_component,
    text_line,
    unescaped,
    webhook_speaker,
)
from fake_discord.typed import fold
from fake_discord.validate import GROUP, SUBCOMMAND

JSON = dict[str, Any]
CONSOLE_WORDS = (
    "!complete",
    "!click",
    "!select",
    "!submit",
    "!menu",
    "!save",
    "!as",
    "!commands",
    "!help",
    "!quit",
)
OPTION = re.compile(r"(?:^|\s)([-_'\w]+):")
MARKDOWN = re.compile(
    r"\\([!-/:-@\[-`{-~])|\*\*(.+?)\*\*|~~(.+?)~~|`([^`]+)`|(?<![\w*\\])\*([^*\n]+)\*(?![\w*])"
)
"""An escape (shown as its character, unstyled), then **bold**, ~~struck~~, `code`, *italic*."""
BUTTON_STYLES = {
    1: "bold white on blue",
    2: "white on grey30",
    3: "bold white on green4",
    4: "bold white on red3",
}


def styled(text: str) -> Text:
    """Discord's markdown as rich styles: **bold**, *italic*, ~~struck~~ and `code`."""
    out, at = Text(), 0
    for match in MARKDOWN.finditer(text):
        out.append(text[at : match.start()])
        escaped, bold, struck, code, italic = match.groups()
        if escaped is not None:
            out.append(escaped)
        elif bold is not None:
            out.append(bold, style="bold")
        elif struck is not None:
            out.append(struck, style="strike")
        elif code is not None:
            out.append(code, style="cyan")
        else:
            out.append(italic, style="italic")
        at = match.end()
    out.append(text[at:])
    return out


class RichScreen:
    """Messages as a person sees them in Discord: embeds in panels of their colour, buttons as keys."""

    def __init__(self, console: RichConsole, names: Callable[[str], str]) -> None:
        self.console = console
        self.names = names

    def say(self, text: str) -> None:
        self.console.print(Text(unescaped(self.names(text))), highlight=False)

    def answer(self, record: InteractionRecord) -> None:
        for note in record_notes(record):
            self.console.print(Text(unescaped(self.names(note)), style="yellow"), highlight=False)
        for message in record.messages:
            self.console.print(self.render(message))

    def message(self, heading: str, message: JSON) -> None:
        self.console.print(Text(heading, style="dim"))
        self.console.print(self.render(message))

    def render(self, message: JSON) -> RenderableType:
        parts: list[RenderableType] = []
        if int(message.get("flags") or 0) & EPHEMERAL:
            parts.append(Text("only you can see this", style="dim italic"))
        if speaker := webhook_speaker(message):
            parts.append(Text(speaker, style="bold"))
        if content := message.get("content"):
            parts.append(styled(self.names(str(content))))
        parts += [self.embed(embed) for embed in message.get("embeds") or []]
        for attachment in message.get("attachments") or []:
            size = attachment.get("size", "?")
            parts.append(
                Text(f"📎 {attachment.get('filename')} ({size} bytes) — !save keeps it", style="blue")
            )
        parts += [self.component(component) for component in message.get("components") or []]
        if message.get("edited_timestamp"):
            parts.append(Text("(edited)", style="dim"))
        return Group(*parts) if parts else Text("(empty message)", style="dim")

    def embed(self, embed: JSON) -> RenderableType:
        body: list[RenderableType] = []
        if author := (embed.get("author") or {}).get("name"):
            body.append(Text(unescaped(self.names(str(author))), style="dim"))
        if description := embed.get("description"):
            body.append(styled(self.names(str(description))))
        if fields := embed.get("fields") or []:
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold", no_wrap=True)
            table.add_column()
            for item in fields:
                table.add_row(
                    styled(self.names(field_name(item))), styled(self.names(str(item.get("value"))))
                )
            body.append(table)
        if footer := footer_lines(embed):  # inside: a border's one line would cut it off
            body.append(Text(unescaped(self.names("\n".join(footer))), style="dim"))
        colour = embed.get("color")
        return Panel(
            Group(*body),
            title=styled(self.names(str(embed["title"]))) if embed.get("title") else None,
            title_align="left",
            border_style=f"#{int(colour):06x}" if colour is not None else "grey50",
        )

    def component(self, component: JSON) -> RenderableType:
        """A layout's parts: a container as a panel edged in its accent, text as markdown,
        an image as its name; an action row as keys."""
        kind = component.get("type")
        if kind == 17:
            colour = component.get("accent_color")
            inner = [self.component(child) for child in component.get("components") or []]
            edge = f"#{int(colour):06x}" if isinstance(colour, int) else "grey50"
            return Panel(Group(*inner), border_style=edge)
        if kind == 10:
            lines = [text_line(line) for line in str(component.get("content") or "").splitlines()]
            return styled(self.names("\n".join(lines)))
        if kind == 14:
            return Rule(style="grey50") if component.get("divider", True) is not False else Text("")
        if kind == 9:
            accessory = component.get("accessory") or {}
            parts = [self.component(child) for child in component.get("components") or []]
            parts.append(self.component(accessory) if accessory.get("type") != 2 else self.row(accessory))
            return Group(*parts)
        if kind in (11, 12, 13):
            return Text("\n".join(render_component(component)), style="blue")
        return self.row(component)

    def row(self, row: JSON) -> RenderableType:
        out = Text()
        for component in row.get("components") or [row]:
            if out:
                out.append(" ")
            if component.get("type") == 2:
                label = component.get("label") or (component.get("emoji") or {}).get("name") or "?"
                style = (
                    "dim"
                    if component.get("disabled")
                    else BUTTON_STYLES.get(int(component.get("style") or 2), "")
                )
                out.append(f" {label} ", style=style)
            else:
                placeholder = component.get("placeholder") or component.get("custom_id")
                options = " | ".join(str(o.get("label")) for o in component.get("options") or [])
                out.append(f"▾ {placeholder}" + (f": {options}" if options else ""), style="reverse")
        return out


def _named(words: Iterable[str], typed: str, prefix: str = "", suffix: str = "") -> list[Completion]:
    """Completions of ``typed`` among ``words``, found anywhere in the word (folded)."""
    wanted = fold(typed)
    found = [w for w in dict.fromkeys(words) if wanted in fold(w)]
    found.sort(key=lambda w: not fold(w).startswith(wanted))
    return [
        Completion(prefix + w + suffix, start_position=-len(typed) - len(prefix), display=w) for w in found
    ]


async def complete(harness: Harness, text: str) -> list[Completion]:
    """What Tab offers after ``text``: console words, commands, subcommands, options, values."""
    if text.startswith("!complete "):
        return await complete(harness, text.removeprefix("!complete ").lstrip())
    word, space, rest = text.partition(" ")
    if not space:
        if text.startswith("!"):
            return _named(CONSOLE_WORDS, text)
        slash = [c["name"] for c in harness.commands if c.get("type", 1) == 1]
        return _named(slash, text.removeprefix("/"), prefix="/") if text.startswith("/") else []
    if word == "!as":
        return _named((m.user.name for m in harness.world.guild.members if not m.user.bot), rest)
    if word == "!click":
        return _named(_labels(harness), rest)
    if not text.startswith("/"):
        return []
    command = next((c for c in harness.commands if c["name"].lower() == word[1:].lower()), None)
    return await _options(harness, text, command, rest) if command is not None else []


def _labels(harness: Harness) -> list[str]:
    labels = []
    for message in reversed(harness.fake.messages.values()):
        if visible_to(message, harness.user):
            labels += _button_labels(message.get("components") or [])
    return labels


def _button_labels(components: list[JSON]) -> list[str]:
    found = []
    for component in components:
        if component.get("type") == 2 and component.get("label") and "custom_id" in component:
            found.append(str(component["label"]))
        found += _button_labels(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            found += _button_labels([component["accessory"]])
    return found


async def _options(harness: Harness, text: str, level: JSON, rest: str) -> list[Completion]:
    while any(o.get("type") in (SUBCOMMAND, GROUP) for o in level.get("options") or []):
        subs = {o["name"]: o for o in level.get("options") or []}
        name, space, after = rest.partition(" ")
        if not space:
            return _named(subs, name, suffix=" ")
        if name.lower() not in subs:
            return []
        level, rest = subs[name.lower()], after.lstrip()
    options = {o["name"]: o for o in level.get("options") or []}
    typed = [m for m in OPTION.finditer(rest) if m[1].lower() in options]
    token = "" if not rest or rest[-1].isspace() else rest.split()[-1]
    given = {m[1].lower() for m in typed}
    found = [] if ":" in token else _named((n for n in options if n not in given), token, suffix=":")
    if typed:
        last = typed[-1]
        value = rest[last.end() :]
        found += await _values(harness, text, options[last[1].lower()], value)
    return found


async def _values(harness: Harness, text: str, option: JSON, value: str) -> list[Completion]:
    try:
        choices, _ = await suggestions(harness, text)
    except CommandLineError:
        return []
    names = [str(c["name"]) for c in choices]
    if option.get("choices") is None:
        names = [str(c["value"]) for c in choices]
    return [Completion(_quoted(n), start_position=-len(value), display=n) for n in names]


def _quoted(value: str) -> str:
    """A value that would read as another option (``a: b``) is quoted, as the parser needs."""
    return f'"{value}"' if OPTION.search(value) else value


class SlashCompleter(Completer):
    """Tab completion from the commands the bot synced and from the bot itself."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        return ()  # everything needs the event loop: see get_completions_async

    async def get_completions_async(
        self, document: Document, complete_event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        for completion in await complete(self.harness, document.text_before_cursor):
            yield completion


class PromptTerminal:
    """A real terminal, or (for tests) prompt_toolkit's pipe input and a recording rich console."""

    def __init__(
        self,
        *,
        history: Path | None = None,
        input: Input | None = None,
        output: Output | None = None,
        screen: RichConsole | None = None,
    ) -> None:
        self.history: History = FileHistory(str(history)) if history is not None else InMemoryHistory()
        self.input = input
        self.output = output
        self.rich = screen or RichConsole(highlight=False)

    def screen(self, console: Console) -> Screen:
        return RichScreen(self.rich, console.names)

    async def lines(self, console: Console) -> AsyncIterator[str]:
        session: PromptSession[str] = PromptSession(
            history=self.history,
            completer=SlashCompleter(console.h),
            auto_suggest=AutoSuggestFromHistory(),
            complete_while_typing=True,
            input=self.input,
            output=self.output,
        )
        while True:
            try:
                yield await session.prompt_async("> ")
            except KeyboardInterrupt:
                continue  # Ctrl-C drops the line being typed, as in a shell
            except EOFError:
                return
