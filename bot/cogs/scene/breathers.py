"""A Breather the Narrator called, taken by each player from their Hero's button (docs/rulings.md
§5.12).

The button's custom id holds the Hero's id and the call's; what was called (short or long,
resting) is stored (``storage.scenes``), and taking it removes it in the same transaction that
saves the sheet, so a Breather is taken once, by a click of the Hero's controller, and a failed
save keeps it waiting. A button whose call the Narrator replaced is refused, saying so: it never
takes the newer call (a button posted before calls had ids takes whatever is waiting). The
Narrator's own hand is ``/sheet breather``.
"""

import re
from typing import Any

import discord

from bot import replies
from bot.checks import caller
from bot.client import Interaction
from bot.errors import BotError
from bot.hidden import tell_change
from bot.inputs.sheet_changes import refresh_boards
from bot.reach import origin_of
from bot.records import sheet_change
from bot.render.common import plain
from bot.render.sheet import recovery_embed
from bot.served import guild_id_of
from rules.character import breather
from storage import StoredCharacter
from storage.scenes import BreatherCall


def take_id(character: int, call: int | None) -> str:
    """A Hero's button: "mab:br:<hero>:<call>" (a button posted before calls had ids lacks the call)."""
    return f"mab:br:{character}" if call is None else f"mab:br:{character}:{call}"


def title_of(call: BreatherCall) -> str:
    return call.kind.label + (" (resting)" if call.resting else "")


def breather_view(heroes: list[StoredCharacter], call: BreatherCall) -> discord.ui.View:
    """A button per Hero: "Take the Short Breather — Vin"."""
    view = discord.ui.View(timeout=None)
    for hero in heroes:
        label = f"Take the {call.kind.label} — {hero.name}"
        view.add_item(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.success,
                custom_id=take_id(hero.id, call.call_id),
            )
        )
    return view


def without(message: discord.Message | None, custom_id: str) -> discord.ui.View | None:
    """The call's buttons less the one just used (None once none is left)."""
    if message is None:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in list(view.children):
        if isinstance(item, discord.ui.Button) and item.custom_id == custom_id:
            view.remove_item(item)
    return view if view.children else None


async def not_waiting(interaction: Interaction, stored: StoredCharacter, call_id: int | None) -> str:
    """Why a button found no call to take: the Narrator replaced it, or it was taken already."""
    newer = await interaction.client.storage.scenes.breather_waiting(guild_id_of(interaction), stored.id)
    if newer is not None and call_id is not None:
        return f"The Narrator replaced this call with a {title_of(newer)}: use the new message."
    return (
        f"{plain(stored.name)} has no Breather waiting: it was taken already, or the Narrator "
        "has not called one (`/scene breather`)."
    )


async def take(interaction: Interaction, character_id: int, call_id: int | None) -> None:
    """Load the Hero → check the clicker controls it → take the call the button was posted with
    and save the recovery in one transaction → show the table what came back."""
    guild_id = guild_id_of(interaction)
    storage = interaction.client.storage
    stored = await storage.characters.get(guild_id, character_id)
    (await caller(interaction)).require_control(stored.character, "take their Breather")
    async with storage.transaction() as tx:
        await tx.handled.claim(interaction.id)
        call = await tx.scenes.take_breather(guild_id, character_id, call_id)
        if call is None:
            raise BotError(await not_waiting(interaction, stored, call_id))
        result = breather(stored.character, call.kind, resting=call.resting)
        saved = await tx.characters.update(guild_id, stored, result.character)
        changes = sheet_change(saved.updated_at, stored, result.character, told=True)
        await tx.journal.add(guild_id, origin_of(interaction), changes)
    await replies.edit(interaction, view=without(interaction.message, take_id(character_id, call_id)))
    embed = recovery_embed(saved.character, title_of(call), result)
    await tell_change(interaction, storage, stored, saved.character, embed)  # a Hero made hidden since: §7.1
    await refresh_boards(interaction, saved)  # a Hero in a live Conflict takes a called one (§7.4)


class TakeBreather(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mab:br:(?P<character>\d+)(?::(?P<call>\d+))?"
):
    """A Hero's button under the Narrator's call; ``call`` None for one posted before calls had ids."""

    def __init__(self, character: int, call: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=take_id(character, call)))
        self.character, self.call = character, call

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "TakeBreather":
        return cls(int(match["character"]), int(match["call"]) if match["call"] else None)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await take(interaction, self.character, self.call)
