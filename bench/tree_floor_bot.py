"""A floor with our command tree: our bot, every handler answering at once with a fixed embed.

``python -m bench.load_bench --floor tree`` runs this in place of our bot, started exactly as
``fake_discord.remote`` starts it. Everything of ours in front of a handler still runs:
discord.py's parse of the event, our tree (the capacity check, the served-server check, the
count of what is in flight, releasing the reply), each command's option transforms and checks,
the match of a click to its button. Each command and click then answers with the floor's embed
(``bench.floor_bot``) and each autocomplete with no choices. So what this costs beyond
``--floor`` is discord.py's command machinery and our glue around it, and what our bot costs
beyond this is the commands' own work.

``--floor logged`` sets :data:`LOGGED` in the environment: every command and click that can
roll (all but the read-only ones, :data:`READ_ONLY`) first makes a roll's durable write (the
claim, the roll and its journal entry, committed), which is the least a roll or a Conflict move
must do before it answers (docs/architecture.md, "Writes and reads under load").
"""

from __future__ import annotations

import os
import sys
from typing import Any

import discord
from discord import app_commands

from bench.diagnostics import log_a_roll
from bench.floor_bot import EMBED
from bot.app import MistbornBot
from fake_discord import remote

LOGGED = "BENCH_FLOOR_LOGGED"
"""Set to ``1`` in the environment: commands and clicks that can roll write a roll first."""

READ_ONLY = frozenset({"odds", "character", "help", "history"})
"""Commands (by their top-level name) that never roll, so never write a roll before answering."""


async def answer(interaction: discord.Interaction[Any], logged: bool) -> None:
    """The floor's answer; ``logged``: after a roll's durable write, where there is a server."""
    if logged and interaction.guild_id is not None:
        await log_a_roll(interaction)
    await interaction.response.send_message(embed=EMBED)


class TreeFloorBot(MistbornBot):
    """Our bot with each command's, autocomplete's and button's own work taken out."""

    async def setup_hook(self) -> None:
        await super().setup_hook()
        logged = os.environ.get(LOGGED) == "1"
        for command in self.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                writes = logged and command.qualified_name.split()[0] not in READ_ONLY
                # discord.py offers no public way to swap a command's callback; benchmark only.
                command._callback = _answering(writes)
                for parameter in command._params.values():
                    if parameter.autocomplete is not None:
                        parameter.autocomplete = _no_choices
        items = self.clicks.items
        self.remove_dynamic_items(*items)
        self.add_dynamic_items(*(_answering_item(item, logged) for item in items))


def _answering(logged: bool) -> Any:
    async def callback(*args: Any, **options: Any) -> None:
        interaction = next(arg for arg in args if isinstance(arg, discord.Interaction))
        await answer(interaction, logged)

    return callback


async def _no_choices(*_: Any) -> list[app_commands.Choice[str]]:
    return []


def _answering_item(item: type[Any], logged: bool) -> type[Any]:
    """``item`` (a button or menu matched by its custom id) answering at once when used."""

    async def callback(self: Any, interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, logged)

    template = item.__discord_ui_compiled_template__
    return type(item.__name__, (item,), {"callback": callback}, template=template)


def make(**options: Any) -> MistbornBot:
    return TreeFloorBot(**options)


if __name__ == "__main__":
    sys.exit(remote.main(make=make))
