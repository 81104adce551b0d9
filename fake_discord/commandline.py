"""Typed lines such as `/roll dice:5 difficulty:3 label:Big jump` turned into interaction options.

Parsing follows the command definitions the bot actually synced, the way Discord's message box
does: subcommands by name, then `name:value` pairs whose values run until the next known
`option:` (quote a value with "..." to keep a literal `word:` inside it). Values are converted
and checked by the registered option type, range and choices, so a typo gets the error a person
would see in Discord instead of a confusing exception inside the bot.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from fake_discord.payloads import Resolved
from fake_discord.permissions import ADMINISTRATOR
from fake_discord.typed import fold, matches
from fake_discord.validate import GROUP, INTEGER, NUMBER, STRING, SUBCOMMAND, is_valid_name
from fake_discord.world import FakeGuild, FakeMember

JSON = dict[str, Any]
Attach = Callable[[Path], JSON]
USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT, BOOLEAN = 6, 7, 8, 9, 11, 5
TYPE_NAMES = {
    STRING: "text",
    INTEGER: "integer",
    BOOLEAN: "true/false",
    USER: "@member",
    CHANNEL: "#channel",
    ROLE: "@role",
    MENTIONABLE: "@member or @role",
    NUMBER: "number",
    ATTACHMENT: "file path",
}
TRUE, FALSE = {"true", "yes", "y", "on", "1"}, {"false", "no", "n", "off", "0"}
BOUNDARY = re.compile(r"\s+([-_'\w]+):")
NEXT_AFTER_QUOTE = re.compile(r"\s*([-_'\w]+):")
MAX_FILE_BYTES = 25 * 1024 * 1024


class CommandLineError(ValueError):
    """A line that Discord's client would not let the person send; the message says why."""


@dataclass
class ParsedCommand:
    command: JSON
    path: list[str]
    options: list[JSON]
    resolved: Resolved = field(default_factory=Resolved)


def find_command(commands: list[JSON], name: str, kind: int = 1) -> JSON:
    for command in commands:
        if command.get("type", 1) == kind and command["name"].lower() == name.lower():
            return command
    if kind == 1:
        known = ", ".join(sorted("/" + c["name"] for c in commands if c.get("type", 1) == 1)) or "none synced"
        raise CommandLineError(f"unknown command /{name} (commands: {known})")
    known = ", ".join(sorted(repr(c["name"]) for c in commands if c.get("type", 1) == kind)) or "none"
    raise CommandLineError(f"unknown context menu {name!r} (available: {known})")


def check_permission(command: JSON, guild: FakeGuild, member: FakeMember) -> None:
    """Discord hides commands whose default_member_permissions the member lacks."""
    needed = command.get("default_member_permissions")
    if needed is None:
        return
    have = guild.permissions_of(member)
    missing = int(needed) & ~have
    if not have & ADMINISTRATOR and (int(needed) == 0 or missing):
        names = ", ".join(name for name, on in discord.Permissions(missing) if on) or "administrator"
        raise CommandLineError(f"{member.user.name} cannot use {command['name']}: it needs {names}")


def split_pairs(text: str, known: set[str]) -> list[tuple[str, str]]:
    """`a:1 b:two words c:"x: y"` -> [(a, 1), (b, two words), (c, x: y)] for names in `known`."""
    text = text.strip()
    pairs: list[tuple[str, str]] = []
    start = re.match(r"([-_'\w]+):", text)
    if text and start is None:
        raise CommandLineError(f"expected name:value, got {text.split()[0]!r}")
    while start is not None:
        name, pos = start[1].lower(), start.end()
        if name not in known:
            raise CommandLineError(f"unknown option {name!r} (options: {', '.join(sorted(known)) or 'none'})")
        if any(name == seen for seen, _ in pairs):
            raise CommandLineError(f"option {name!r} given twice")
        if text.startswith('"', pos):
            close = re.compile(r'(?<!\\)"').search(text, pos + 1)
            if close is None:
                raise CommandLineError(f"unclosed quote in option {name!r}")
            pairs.append((name, text[pos + 1 : close.start()].replace('\\"', '"')))
            rest = text[close.end() :]
            if rest and not rest[0].isspace():
                raise CommandLineError(f"expected a space after the quoted value of {name!r}")
            start = NEXT_AFTER_QUOTE.match(text, close.end())
            if start is None and rest.strip():
                raise CommandLineError(f"expected name:value, got {rest.split()[0]!r}")
            continue
        nxt = next((m for m in BOUNDARY.finditer(text, pos) if _looks_like_option(m[1], known)), None)
        pairs.append((name, text[pos : nxt.start() if nxt else len(text)].strip()))
        start = nxt
    return pairs


def _looks_like_option(word: str, known: set[str]) -> bool:
    return word.lower() in known or (is_valid_name(word.lower()) and any(ch.isalpha() for ch in word))


def parse_slash(
    line: str,
    commands: list[JSON],
    guild: FakeGuild,
    member: FakeMember,
    *,
    attach: Attach | None = None,
    focus: bool = False,
    override_permissions: bool = False,
) -> ParsedCommand:
    """Parse `/name [group] [sub] opt:value ...`; `focus` marks the last option focused (autocomplete).

    `override_permissions` plays a server admin who granted the command to everyone in
    Integrations settings, so the bot's own checks are what must refuse the member.
    """
    words = line.strip().removeprefix("/").split(None, 1)
    if not line.strip().startswith("/") or not words:
        raise CommandLineError("a command starts with / (try !help)")
    command = find_command(commands, words[0])
    if not override_permissions:
        check_permission(command, guild, member)
    level, path, rest = command, [command["name"]], words[1] if len(words) > 1 else ""
    while any(o.get("type") in (SUBCOMMAND, GROUP) for o in level.get("options") or []):
        subs = {o["name"]: o for o in level.get("options") or []}
        parts = rest.split(None, 1)
        if not parts or parts[0].lower() not in subs:
            got = f", got {parts[0]!r}" if parts else ""
            raise CommandLineError(f"/{' '.join(path)} needs one of: {', '.join(subs)}{got}")
        level = subs[parts[0].lower()]
        path.append(level["name"])
        rest = parts[1] if len(parts) > 1 else ""
    definitions = {o["name"]: o for o in level.get("options") or []}
    pairs = split_pairs(rest, set(definitions))
    parsed = ParsedCommand(command, path, [])
    for index, (name, raw) in enumerate(pairs):
        focused = focus and index == len(pairs) - 1
        value = raw if focused else convert(definitions[name], raw, guild, member, parsed.resolved, attach)
        option: JSON = {"name": name, "type": definitions[name]["type"], "value": value}
        parsed.options.append(option | ({"focused": True} if focused else {}))
    if focus and not pairs:
        raise CommandLineError("autocomplete needs an option to complete, e.g. name:Vi")
    given = {name for name, _ in pairs}
    missing = [n for n, o in definitions.items() if o.get("required") and n not in given]
    if missing and not focus:
        raise CommandLineError(f"/{' '.join(path)} is missing required option(s): {', '.join(missing)}")
    for name in reversed(path[1:]):
        kind = SUBCOMMAND if name == path[-1] else GROUP
        parsed.options = [{"name": name, "type": kind, "options": parsed.options}]
    return parsed


def focused_option(parsed: ParsedCommand) -> tuple[JSON, str]:
    """The definition of the option being completed in `parsed` (``focus=True``) and its text."""
    level = parsed.command
    for name in parsed.path[1:]:
        level = next(o for o in level.get("options") or [] if o["name"] == name)
    options = parsed.options
    while options and options[0]["type"] in (SUBCOMMAND, GROUP):
        options = options[0]["options"]
    focused = next(o for o in options if o.get("focused"))
    definition = next(o for o in level.get("options") or [] if o["name"] == focused["name"])
    return definition, str(focused["value"])


def convert(
    option: JSON, raw: str, guild: FakeGuild, member: FakeMember, resolved: Resolved, attach: Attach | None
) -> Any:
    """One typed value as Discord would send it (ids as strings, objects put in `resolved`)."""
    kind, name = option["type"], option["name"]
    if kind in (STRING, INTEGER, NUMBER):
        return _scalar(option, raw)
    if kind == BOOLEAN:
        if raw.lower() in TRUE | FALSE:
            return raw.lower() in TRUE
        raise CommandLineError(f"{name} must be true or false, got {raw!r}")
    if kind in (USER, MENTIONABLE) and (found := guild.member(raw)) is not None:
        return resolved.add_member(guild, found)
    if kind in (ROLE, MENTIONABLE) and (role := guild.role(raw)) is not None:
        return resolved.add_role(role)
    if kind == CHANNEL and (channel := guild.channel(raw)) is not None:
        allowed = option.get("channel_types")
        if allowed and channel.type not in allowed:
            raise CommandLineError(f"{name} cannot be #{channel.name} (wrong channel type)")
        return resolved.add_channel(guild, channel, guild.permissions_of(member))
    if kind == ATTACHMENT:
        return resolved.add_attachment(_attachment(name, raw, attach))
    choices = {
        USER: [m.user.name for m in guild.members],
        ROLE: [r.name for r in guild.roles],
        CHANNEL: [c.name for c in guild.channels],
        MENTIONABLE: [m.user.name for m in guild.members] + [r.name for r in guild.roles],
    }
    raise CommandLineError(
        f"{name}: no {TYPE_NAMES[kind]} {raw!r} (known: {', '.join(choices.get(kind, []))})"
    )


def _attachment(name: str, raw: str, attach: Attach | None) -> JSON:
    path = Path(raw).expanduser()
    if attach is None:
        raise CommandLineError(f"{name}: attachments need the fake Discord to serve the file")
    if not path.is_file():
        raise CommandLineError(f"{name}: no such file {raw!r}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise CommandLineError(f"{name}: {raw!r} is larger than Discord's 25 MiB upload limit")
    return attach(path)


def _scalar(option: JSON, raw: str) -> Any:
    kind, name = option["type"], option["name"]
    choices = option.get("choices") or []
    if choices:
        for choice in choices:
            if raw == str(choice["value"]) or fold(raw) in (
                fold(str(choice["name"])),
                fold(str(choice["value"])),
            ):
                return choice["value"]
        # Discord's client filters the choices as one types; Enter takes the one left.
        left = [c for c in choices if raw.strip() and matches(raw, str(c["name"]))]
        if len(left) == 1:
            return left[0]["value"]
        listed = ", ".join(str(c["name"]) for c in (left if len(left) > 1 else choices))
        if len(left) > 1:
            raise CommandLineError(f"{name}: {raw!r} fits {listed}: type more of the one you mean")
        raise CommandLineError(f"{name} must be one of: {listed} (got {raw!r})")
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise CommandLineError(f"{name} must be {low}-{high} characters long (got {len(raw)})")
        return raw
    try:
        value: float = int(raw) if kind == INTEGER else float(raw)
    except ValueError:
        expected = "a whole number" if kind == INTEGER else "a number"
        raise CommandLineError(f"{name} must be {expected}, got {raw!r}") from None
    low, high = option.get("min_value"), option.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        raise CommandLineError(f"{name} must be in {bounds} (got {raw})")
    return value


def usage(command: JSON) -> list[str]:
    """One line per leaf command, e.g. `/roll dice:<integer 1..10> [label:<text>]`."""
    if command.get("type", 1) != 1:
        return [f"!menu {command['name']}" + (" @member" if command.get("type") == 2 else "")]

    def walk(level: JSON, prefix: str) -> list[str]:
        options = level.get("options") or []
        if any(o.get("type") in (SUBCOMMAND, GROUP) for o in options):
            return [line for o in options for line in walk(o, f"{prefix} {o['name']}")]
        parts = [prefix]
        for option in options:
            hint = TYPE_NAMES.get(option["type"], "value")
            if option.get("choices"):
                hint = "|".join(str(c["name"]) for c in option["choices"])
            elif option.get("min_value") is not None or option.get("max_value") is not None:
                hint += f" {option.get('min_value', '')}..{option.get('max_value', '')}"
            text = f"{option['name']}:<{hint}{'…' if option.get('autocomplete') else ''}>"
            parts.append(text if option.get("required") else f"[{text}]")
        return [" ".join(parts)]

    return walk(command, "/" + command["name"])
