"""``/help`` and README's command table, written from the registered command tree.

Nothing here lists a command by hand: the tree the bot syncs to Discord is the one source, so
help can never drift from what Discord offers (a test compares README's table with it too).
"""

from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.render.common import FIELD_VALUE_LIMIT, INFO, add_field, clip

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu
Entry = tuple[str, str]
"""A command's usage ("/character create") and what it does."""


def _subcommands(group: app_commands.Group) -> list[app_commands.Command[Any, ..., Any]]:
    found: list[app_commands.Command[Any, ..., Any]] = []
    for child in group.commands:
        if isinstance(child, app_commands.Group):
            found.extend(_subcommands(child))
        else:
            found.append(child)
    return found


def slash_commands(
    commands: Iterable[object],
) -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """The slash commands and groups, in registration order (context menus left out)."""
    return [c for c in commands if isinstance(c, app_commands.Command | app_commands.Group)]


def overview(commands: Sequence[object]) -> list[Entry]:
    """One entry per top-level command: a group lists its subcommands' names."""
    entries: list[Entry] = []
    for command in slash_commands(commands):
        if isinstance(command, app_commands.Group):
            names = " / ".join(c.name for c in _subcommands(command))
            entries.append((f"/{command.name} {names}", command.description))
        else:
            entries.append((f"/{command.name}", command.description))
    return entries


def menus(commands: Iterable[object]) -> list[str]:
    return [c.name for c in commands if isinstance(c, app_commands.ContextMenu)]


def detail(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> list[Entry]:
    """Each subcommand of ``command`` (or the command itself) with its options."""
    leaves = _subcommands(command) if isinstance(command, app_commands.Group) else [command]
    entries = []
    for leaf in leaves:
        options = " ".join(f"{p.name}:" if p.required else f"[{p.name}:]" for p in leaf.parameters)
        text = leaf.description
        described = "; ".join(f"`{p.name}` {p.description}" for p in leaf.parameters if p.description != "…")
        if described:
            text += f"\n{described}"
        entries.append((f"/{leaf.qualified_name} {options}".rstrip(), text))
    return entries


def help_embed(commands: Sequence[object], dice_rules: str) -> discord.Embed:
    """The overview: every command in one line each, then the dice in short."""
    embed = discord.Embed(title="Mistborn Adventure Game bot", colour=INFO)
    lines = [f"`{usage}` {what}" for usage, what in overview(commands)]
    chunk: list[str] = []
    for line in lines:
        if sum(len(x) + 1 for x in chunk) + len(line) > FIELD_VALUE_LIMIT:
            add_field(embed, "Commands" if not embed.fields else "\u200b", "\n".join(chunk), inline=False)
            chunk = []
        chunk.append(clip(line, FIELD_VALUE_LIMIT))
    if chunk:
        add_field(embed, "Commands" if not embed.fields else "\u200b", "\n".join(chunk), inline=False)
    if names := menus(commands):
        add_field(embed, "Menus", "Right-click a member → " + ", ".join(names), inline=False)
    add_field(embed, "The dice", dice_rules, inline=False)
    embed.set_footer(text="/help command:<name> shows a command's options.")
    return embed


def command_embed(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> discord.Embed:
    embed = discord.Embed(title=f"/{command.name}", colour=INFO, description=command.description)
    for usage, what in detail(command):
        add_field(embed, clip(usage, 256), what, inline=False)
    return embed


def markdown_table(commands: Sequence[object]) -> str:
    """README's command table: the same overview, as Markdown."""
    rows = ["| Command | What it does |", "|---|---|"]
    rows += [f"| `{usage}` | {what} |" for usage, what in overview(commands)]
    if names := menus(commands):
        rows.append(f"| Member menu: {', '.join(names)} | Right-click a member in the server. |")
    return "\n".join(rows)
